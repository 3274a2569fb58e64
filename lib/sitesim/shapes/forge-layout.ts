/**
 * Gitea 1.21's page frame for an anonymous visitor: `<nav id="navbar">` (logo, Explore,
 * Help on docs.gitea.com, Register, Sign In with `redirect_to`), `div.page-content`,
 * the footer (Powered by Gitea, version, page timings, a language menu of `<a>` without
 * href, API); the repository header (owner / name, RSS, Watch and Star counts, Fork
 * that asks to sign in, "forked from") with its tabs (Code, Issues, Pull Requests,
 * Releases, Wiki, Activity); Gitea's pager; `<relative-time>`; the 404 page.
 */
import type { HtmlSink } from "../html-sink";
import { hash32, hashString } from "../random";
import { isoTime, timeSince } from "./forge-git";
import type { ForgeModel, ForgeRepo } from "./forge-model";
import { FORGE_SITE_NAME, GITEA_VERSION } from "./forge-text";
import { loginHref, refSub, repoPath, userHref, type Ref } from "./forge-urls";

export interface PageInfo {
  title: string;
  /** Classes of `div.page-content` (Gitea: "repository file list", "explore repositories", "user profile"…). */
  cls: string;
  /** `<link rel="alternate">` feeds of the page. */
  feed?: string;
  description?: string;
}

export function forgePage(s: HtmlSink, info: PageInfo, main: () => void): void {
  if (s.withText) {
    s.raw(`<!DOCTYPE html>\n<html lang="en-US" data-theme="gitea-auto"><head><meta name="viewport" content="width=device-width, initial-scale=1">`);
    s.el("title", undefined, info.title === "" ? FORGE_SITE_NAME : `${info.title} - ${FORGE_SITE_NAME}`);
    s.raw(`<meta name="description" content="${(info.description ?? "Git with a cup of tea").replace(/"/g, "&quot;")}"><meta name="keywords" content="go,git,self-hosted,gitea"><meta name="referrer" content="no-referrer">`);
    if (info.feed) s.raw(`<link rel="alternate" type="application/atom+xml" title="" href="${info.feed}.atom"><link rel="alternate" type="application/rss+xml" title="" href="${info.feed}.rss">`);
    s.raw(`<link rel="icon" href="/assets/img/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="/assets/css/index.css?v=${GITEA_VERSION}">`);
    s.raw(`<script>window.config = {appUrl: '/', appSubUrl: '', assetVersionEncoded: encodeURIComponent('${GITEA_VERSION}'), pageData: {}};</script></head>\n<body><div class="full height"><noscript>This website requires JavaScript.</noscript>`);
  }
  s.open("nav", undefined, "navbar", `aria-label="Navigation Bar"`);
  s.open("div", "navbar-left ui secondary menu");
  s.aWrap("/", "item", () => s.raw(`<img width="30" height="30" src="/assets/img/logo.svg" alt="Logo" aria-hidden="true">`), `id="navbar-logo" aria-label="Home"`);
  s.a("/explore/repos", "Explore", "item");
  s.a("https://docs.gitea.com", "Help", "item", `target="_blank" rel="noopener noreferrer"`);
  s.close("div");
  s.open("div", "navbar-right ui secondary menu");
  s.a("/user/sign_up", "Register", "item", `rel="nofollow"`);
  s.a(loginHref(s.pageKey), "Sign In", "item", `rel="nofollow"`);
  s.close("div");
  s.close("nav");
  s.open("div", `page-content ${info.cls}`, undefined, `role="main" aria-label="${info.title.replace(/"/g, "&quot;")}"`);
  main();
  s.close("div");
  s.raw(`</div>`);
  s.open("footer", "page-footer", undefined, `role="group" aria-label="Footer"`);
  s.open("div", "left-links", undefined, `role="contentinfo" aria-label="About Software"`);
  s.a("https://about.gitea.com", "Powered by Gitea", undefined, `target="_blank" rel="noopener noreferrer"`);
  if (s.withText) {
    const h = hashString(s.pageKey);
    s.raw(` Version: ${GITEA_VERSION} Page: <strong>${4 + (h % 40)}ms</strong> Template: <strong>${1 + ((h >>> 8) % 9)}ms</strong>`);
  }
  s.close("div");
  s.open("div", "right-links", undefined, `role="group" aria-label="Links"`);
  s.raw(`<div class="ui dropdown upward language"><span class="flex-text-inline">English</span><div class="menu language-menu">`);
  for (const [lang, label] of [["de-DE", "Deutsch"], ["en-US", "English"], ["es-ES", "Español"], ["fr-FR", "Français"], ["it-IT", "Italiano"], ["nl-NL", "Nederlands"]]) {
    s.raw(`<a lang="${lang}" data-url="/?lang=${lang}" class="item${lang === "en-US" ? " active selected" : ""}">${label}</a>`);
  }
  s.raw(`</div></div>`);
  s.a("/api/swagger", "API");
  s.close("div");
  s.close("footer");
  if (s.withText) s.raw(`<script src="/assets/js/index.js?v=${GITEA_VERSION}" onerror="alert('Failed to load asset files')"></script></body></html>\n`);
}

export function relTime(s: HtmlSink, minute: number): void {
  if (!s.withText) return;
  const iso = isoTime(minute);
  s.raw(`<relative-time class="time-since" prefix="" tense="past" datetime="${iso}" data-tooltip-content data-tooltip-interactive="true">${timeSince(minute)}</relative-time>`);
}

export function avatar(s: HtmlSink, m: ForgeModel, owner: number, size = 24): void {
  if (s.withText) s.raw(`<img class="ui avatar gt-vm" src="/avatars/${hash32(m.owners[owner]!.seed, 0xa7a).toString(16).padStart(8, "0")}?size=${size * 2}" title="${m.owners[owner]!.name}" width="${size}" height="${size}">`);
}

/** Avatar and name, both linking the profile (as commit lists and comments show authors). */
export function userLink(s: HtmlSink, m: ForgeModel, owner: number, cls = "muted author"): void {
  s.aWrap(userHref(m, owner), undefined, () => avatar(s, m, owner));
  s.a(userHref(m, owner), m.owners[owner]!.name, cls);
}

export type RepoTab = "code" | "issues" | "pulls" | "releases" | "wiki" | "activity" | "none";

/** Repository header and tabs; `ref` keeps a non-default branch in the Code tab, as Gitea does. */
export function repoHeader(s: HtmlSink, m: ForgeModel, repo: ForgeRepo, tab: RepoTab, ref?: Ref): void {
  const base = repoPath(m, repo);
  const owner = m.owners[repo.owner]!;
  s.open("div", "secondary-nav");
  s.open("div", "ui container");
  s.open("div", "repo-header");
  s.open("div", "repo-title-wrap flex-text-block");
  avatar(s, m, repo.owner, 32);
  s.open("div", "repo-title", undefined, `role="heading" aria-level="1"`);
  s.a(userHref(m, repo.owner), owner.name);
  s.raw(`<div class="gt-mx-2">/</div>`);
  s.a(base, repo.name);
  s.close("div");
  s.a(`${base}.rss`, "", "btn-octicon", `data-tooltip-content="RSS Feed"`);
  s.close("div");
  s.open("div", "repo-buttons");
  const counter = (label: string, href: string, n: number, tip: string) => {
    s.raw(`<form method="post" action="${base}/action/${label.toLowerCase()}?redirect_to=${encodeURIComponent(s.pageKey)}">`);
    s.open("div", "ui labeled button", undefined, `data-tooltip-content="${tip}"`);
    s.raw(`<button type="submit" class="ui compact small basic button" disabled>${label}</button>`);
    s.a(href, String(n), "ui basic label");
    s.close("div");
    s.raw(`</form>`);
  };
  counter("Watch", `${base}/watchers`, repo.watchers.length, "Sign in to watch this repository.");
  counter("Star", `${base}/stars`, repo.stars.length, "Sign in to star this repository.");
  s.open("div", "ui labeled button");
  s.a(loginHref(`/repo/fork/${repo.id}`), "Fork", "ui compact small basic button", `data-tooltip-content="Sign in to fork this repository."`);
  s.a(`${base}/forks`, String(repo.forks.length), "ui basic label");
  s.close("div");
  s.close("div");
  s.close("div");
  if (repo.forkOf >= 0) {
    const parent = m.repos[repo.forkOf]!;
    s.open("div", "fork-flag");
    s.text("forked from ");
    s.a(repoPath(m, parent), `${m.owners[parent.owner]!.name}/${parent.name}`);
    s.close("div");
  }
  s.close("div");
  s.open("overflow-menu", "ui container secondary pointing tabular top attached borderless menu navbar");
  s.open("div", "overflow-menu-items");
  const item = (t: RepoTab, href: string, label: string, count?: number) => {
    s.aWrap(href, tab === t ? "active item" : "item", () => {
      s.text(label);
      if (count !== undefined && count > 0) s.el("span", "ui small label", String(count));
    });
  };
  const codeHref = ref && !(ref.kind === "branch" && ref.name === repo.defaultBranch) ? `${base}/src/${refSub(ref)}` : base;
  item("code", codeHref, "Code");
  if (repo.units.issues) item("issues", `${base}/issues`, "Issues", repo.threads.filter((t) => !t.pull && t.state === "open").length);
  if (repo.units.pulls) item("pulls", `${base}/pulls`, "Pull Requests", repo.threads.filter((t) => t.pull && t.state === "open").length);
  item("releases", `${base}/releases`, "Releases", repo.releases.length);
  if (repo.units.wiki) item("wiki", `${base}/wiki`, "Wiki");
  item("activity", `${base}/activity`, "Activity");
  s.close("div");
  s.close("overflow-menu");
  s.raw(`<div class="ui tabs divider"></div>`);
  s.close("div");
}

/** Gitea's pager (First, Previous, a window of five pages, Next, Last; the current page is not a link). */
export function giteaPager(s: HtmlSink, current: number, total: number, href: (p: number) => string): void {
  if (total <= 1) return;
  s.open("div", "center page buttons");
  s.open("div", "ui borderless pagination menu");
  const nav = (p: number, label: string, enabled: boolean) => {
    if (enabled) s.a(href(p), label, "item navigation");
    else s.el("a", "disabled item navigation", label);
  };
  nav(1, "First", current > 1);
  nav(current - 1, "Previous", current > 1);
  const lo = Math.max(1, Math.min(current - 2, total - 4));
  const hi = Math.min(total, lo + 4);
  for (let p = lo; p <= hi; p++) {
    if (p === current) s.el("a", "active item gt-content-center", String(p));
    else s.a(href(p), String(p), "item gt-content-center");
  }
  nav(current + 1, "Next", current < total);
  nav(total, "Last", current < total);
  s.close("div");
  s.close("div");
}

/** Body of Gitea's 404 page. */
export function notFoundBody(s: HtmlSink): void {
  s.open("div", "ui container center");
  s.raw(`<p style="margin-top: 100px"><img src="/assets/img/404.png" alt="404"></p><div class="ui divider"></div><br>`);
  s.raw(`<p>The page you are trying to reach either <strong>does not exist</strong> or <strong>you are not authorized</strong> to view it.</p>`);
  s.close("div");
}

export function emptyPlaceholder(s: HtmlSink, text: string): void {
  s.open("div", "empty-placeholder");
  s.el("h2", undefined, text);
  s.close("div");
}

/** A list of user cards (followers, members, stargazers), or `emptyText` when there is none. */
export function userCards(s: HtmlSink, m: ForgeModel, users: readonly number[], emptyText: string): void {
  if (users.length === 0) emptyPlaceholder(s, emptyText);
  s.open("div", "user-cards");
  for (const u of users) {
    s.open("div", "card");
    userLink(s, m, u, "name");
    s.close("div");
  }
  s.close("div");
}
