/**
 * The MediaWiki "Vector" (legacy) skin around every wiki page: `div#mw-page-base`,
 * `div#content.mw-body` with `h1#firstHeading` and `div#bodyContent`, the personal tools
 * (`#p-personal`: create account, log in), the namespace tabs (page / discussion, red when
 * the talk page does not exist) and view tabs (`#p-views`: Read, View source, View
 * history: editing needs an account), the sidebar `div#mw-panel` (logo, Navigation,
 * Community, Tools, interlanguage links to the sister wikis on other hosts) and the
 * footer (last edited, licence, Privacy policy / About / Disclaimers, Powered by MediaWiki).
 */
import type { HtmlSink } from "../html-sink";
import { formatMinute, latestRev, revId, type WikiModel } from "./wiki-model";
import { PROJECT_NS, SISTER_LANGUAGES, WIKI_SITE_NAME } from "./wiki-text";
import {
  dbKey, indexHref, NS, phpUrlencode, prefixedText, redlinkHref, specialHref, specialIndexHref, viewHref, type WikiTitle,
} from "./wiki-urls";

export type WikiAction = "view" | "history" | "edit" | "info" | "special";

export interface SkinContext {
  /** The page the tabs and tools are about; -1 for special pages and missing pages. */
  page: number;
  /** Title shown in the tabs when `page` is -1 (special page name, missing page). */
  title: WikiTitle;
  heading: string;
  action: WikiAction;
  /** Old revision or diff views: no printable version, permanent link to that revision. */
  rev?: number;
  /** `noindex,nofollow` on history, edit, diff and old revision views, as MediaWiki sends. */
  robots?: string;
  /** Printable rendering: the same page without its "Printable version" link. */
  printable?: boolean;
  /** Below the heading ("(Redirected from …)", "Revision as of …"). */
  subtitle?: () => void;
}

const SUBJECT_TAB: Readonly<Record<number, string>> = {
  0: "Page", 2: "User page", 4: "Project page", 6: "File", 10: "Template", 12: "Help page", 14: "Category", 3000: "Glossary entry",
};

function li(s: HtmlSink, id: string, cls: string | undefined, href: string, label: string, attrs?: string): void {
  s.open("li", cls, id);
  s.a(href, label, undefined, attrs);
  s.close("li");
}

function menuStart(s: HtmlSink, id: string, label: string, cls: string): void {
  s.open("nav", `vector-menu ${cls}`, id, `aria-labelledby="${id}-label" role="navigation"`);
  s.el("h3", undefined, label, `${id}-label`);
  s.open("div", "vector-menu-content");
  s.open("ul", "vector-menu-content-list");
}

function menuEnd(s: HtmlSink): void {
  s.close("ul");
  s.close("div");
  s.close("nav");
}

/** Link to a page that may not exist: blue to `/wiki/…`, or red to the edit URL. */
export function pageLink(s: HtmlSink, m: WikiModel, title: WikiTitle, label: string, cls?: string): void {
  const p = m.byKey.get(dbKey(title));
  if (p !== undefined) {
    const redirect = m.pages[p]!.redirectTo >= 0;
    s.a(viewHref(title), label, redirect ? (cls ? `mw-redirect ${cls}` : "mw-redirect") : cls, `title="${prefixedText(title)}"`);
  } else s.a(redlinkHref(title), label, cls ? `new ${cls}` : "new", `title="${prefixedText(title)} (page does not exist)"`);
}

/** "User (talk | contribs)" as histories and signatures show it. */
export function userLinks(s: HtmlSink, m: WikiModel, user: number): void {
  const name = m.users[user]!;
  pageLink(s, m, { ns: NS.user, text: name }, name, "mw-userlink");
  s.open("span", "mw-usertoollinks");
  s.text(" (");
  pageLink(s, m, { ns: NS.userTalk, text: name }, "talk", "mw-usertoollinks-talk");
  s.text(" | ");
  s.a(specialHref("Contributions", name), "contribs", "mw-usertoollinks-contribs");
  s.text(")");
  s.close("span");
}

function head(s: HtmlSink, ctx: SkinContext): void {
  s.raw(`<!DOCTYPE html>\n<html class="client-nojs" lang="en" dir="ltr"><head><meta charset="UTF-8"/>`);
  s.el("title", undefined, `${ctx.heading} - ${WIKI_SITE_NAME}`);
  s.raw(`<script>document.documentElement.className="client-js";RLCONF={"wgCanonicalNamespace":"","wgPageName":"${dbKey(ctx.title).replace(/"/g, "")}","wgAction":"${ctx.action}"};</script>`);
  s.raw(`<link rel="stylesheet" href="/load.php?lang=en&amp;modules=mediawiki.legacy.commonPrint%2Cshared%7Cskins.vector.styles.legacy&amp;only=styles&amp;skin=vector"/>`);
  s.raw(`<script async="" src="/load.php?lang=en&amp;modules=startup&amp;only=scripts&amp;raw=1&amp;skin=vector"></script>`);
  s.raw(`<meta name="generator" content="MediaWiki 1.35.6"/>`);
  if (ctx.robots) s.raw(`<meta name="robots" content="${ctx.robots}"/>`);
  s.raw(`<link rel="shortcut icon" href="/favicon.ico"/><link rel="license" href="https://creativecommons.org/licenses/by-sa/4.0/"/>`);
  if (ctx.page >= 0 && ctx.action === "view") s.raw(`<link rel="canonical" href="${viewHref(ctx.title)}"/>`);
  const ns = ctx.title.ns;
  s.raw(`</head>\n<body class="mediawiki ltr sitedir-ltr mw-hide-empty-elt ns-${ns} ns-${ns < 0 ? "special" : ns % 2 === 1 ? "talk" : "subject"} page-${dbKey(ctx.title).replace(/[^A-Za-z0-9_-]/g, "_")} skin-vector action-${ctx.action === "special" ? "view" : ctx.action}">`);
}

function tabs(s: HtmlSink, m: WikiModel, ctx: SkinContext): void {
  const t = ctx.title;
  s.open("div", undefined, "left-navigation");
  menuStart(s, "p-namespaces", "Namespaces", "vector-menu-tabs vectorTabs");
  if (t.ns === NS.special) {
    li(s, "ca-nstab-special", "selected", viewHref(t), "Special page");
  } else {
    const isTalk = t.ns % 2 === 1;
    const subject: WikiTitle = { ns: isTalk ? t.ns - 1 : t.ns, text: t.text };
    const talk: WikiTitle = { ns: isTalk ? t.ns : t.ns + 1, text: t.text };
    const subjectLabel = subject.ns === 0 && subject.text === "Main Page" ? "Main Page" : SUBJECT_TAB[subject.ns] ?? "Page";
    for (const [title, label, id, selected] of [[subject, subjectLabel, "ca-nstab-main", !isTalk], [talk, "Discussion", "ca-talk", isTalk]] as const) {
      const exists = m.byKey.has(dbKey(title));
      s.open("li", [selected ? "selected" : "", exists ? "" : "new"].filter(Boolean).join(" ") || undefined, id);
      s.a(exists ? viewHref(title) : redlinkHref(title), label, undefined, id === "ca-talk" ? `rel="discussion"` : undefined);
      s.close("li");
    }
  }
  menuEnd(s);
  s.close("div");
  s.open("div", undefined, "right-navigation");
  menuStart(s, "p-views", "Views", "vector-menu-tabs vectorTabs");
  if (t.ns === NS.special || ctx.page < 0) {
    if (t.ns !== NS.special) li(s, "ca-viewsource", "collapsible", indexHref(t, [["action", "edit"]]), "Create");
  } else {
    li(s, "ca-view", ctx.action === "view" ? "collapsible selected" : "collapsible", viewHref(t), "Read");
    li(s, "ca-viewsource", ctx.action === "edit" ? "collapsible selected" : "collapsible", indexHref(t, [["action", "edit"]]), "View source", `accesskey="e"`);
    li(s, "ca-history", ctx.action === "history" ? "collapsible selected" : "collapsible", indexHref(t, [["action", "history"]]), "View history", `accesskey="h"`);
  }
  menuEnd(s);
  s.raw(`<nav id="p-cactions" class="vector-menu-empty emptyPortlet vector-menu vector-menu-dropdown vectorMenu" aria-labelledby="p-cactions-label" role="navigation"><h3 id="p-cactions-label"><span>More</span></h3><div class="vector-menu-content"><ul class="vector-menu-content-list"></ul></div></nav>`);
  s.raw(`<div id="p-search" role="search"><h3><label for="searchInput">Search</label></h3><form action="/index.php" id="searchform"><div id="simpleSearch"><input type="search" name="search" placeholder="Search ${WIKI_SITE_NAME}" id="searchInput"/><input type="hidden" value="Special:Search" name="title"/><input type="submit" name="fulltext" value="Search" class="searchButton mw-fallbackSearchButton" id="mw-searchButton"/><input type="submit" name="go" value="Go" class="searchButton" id="searchButton"/></div></form></div>`);
  s.close("div");
}

function panel(s: HtmlSink, m: WikiModel, ctx: SkinContext): void {
  s.open("div", undefined, "mw-panel");
  s.open("div", undefined, "p-logo", `role="banner"`);
  s.a("/wiki/Main_Page", "", "mw-wiki-logo", `title="Visit the main page"`);
  s.close("div");
  menuStart(s, "p-navigation", "Navigation", "vector-menu-portal portal portal-first");
  li(s, "n-mainpage-description", undefined, "/wiki/Main_Page", "Main page", `title="Visit the main page [z]" accesskey="z"`);
  li(s, "n-Datasets", undefined, "/wiki/Datasets", "Datasets");
  li(s, "n-Publications", undefined, "/wiki/Publications", "Publications");
  li(s, "n-Glossary", undefined, "/wiki/Category:Glossary", "Glossary");
  li(s, "n-recentchanges", undefined, specialHref("RecentChanges"), "Recent changes", `accesskey="r"`);
  li(s, "n-randompage", undefined, specialHref("Random"), "Random page", `accesskey="x"`);
  li(s, "n-help", undefined, "/wiki/Help:Contents", "Help");
  menuEnd(s);
  menuStart(s, "p-Community", "Community", "vector-menu-portal portal");
  li(s, "n-portal", undefined, `/wiki/${PROJECT_NS}:Community_portal`, "Community portal");
  li(s, "n-Data-policy", undefined, `/wiki/${PROJECT_NS}:Data_policy`, "Data policy");
  li(s, "n-Upload-guidelines", undefined, `/wiki/${PROJECT_NS}:Upload_guidelines`, "Upload guidelines");
  menuEnd(s);
  menuStart(s, "p-tb", "Tools", "vector-menu-portal portal");
  const t = ctx.title;
  if (ctx.page >= 0) {
    li(s, "t-whatlinkshere", undefined, specialHref("WhatLinksHere", prefixedText(t)), "What links here", `accesskey="j"`);
    li(s, "t-recentchangeslinked", undefined, specialHref("RecentChangesLinked", prefixedText(t)), "Related changes", `rel="nofollow" accesskey="k"`);
  }
  li(s, "t-upload", undefined, specialHref("Upload"), "Upload file", `accesskey="u"`);
  li(s, "t-specialpages", undefined, specialHref("SpecialPages"), "Special pages", `accesskey="q"`);
  const page = ctx.page >= 0 ? m.pages[ctx.page]! : null;
  if (page && ctx.action === "view" && !ctx.printable) {
    // Old revisions get no printable link here: the simulated wiki keeps one printable URL per page.
    if (ctx.rev === undefined) li(s, "t-print", undefined, indexHref(t, [["printable", "yes"]]), "Printable version", `rel="alternate" accesskey="p"`);
    li(s, "t-permalink", undefined, indexHref(t, [["oldid", revId(ctx.rev ?? latestRev(page))]]), "Permanent link");
  }
  if (page) li(s, "t-info", undefined, indexHref(t, [["action", "info"]]), "Page information");
  menuEnd(s);
  if (page && page.langs !== 0 && ctx.action === "view") {
    menuStart(s, "p-lang", "In other languages", "vector-menu-portal portal");
    SISTER_LANGUAGES.forEach(([code, name], k) => {
      if ((page.langs & (1 << k)) === 0) return;
      s.open("li", `interlanguage-link interwiki-${code}`);
      s.a(`https://${code}.statwiki.example.org/wiki/${phpUrlencode(page.title.text.replace(/ /g, "_"))}`, name, "interlanguage-link-target", `hreflang="${code}" lang="${code}"`);
      s.close("li");
    });
    menuEnd(s);
  }
  s.close("div");
}

function footer(s: HtmlSink, m: WikiModel, ctx: SkinContext): void {
  s.open("footer", "mw-footer", "footer", `role="contentinfo"`);
  s.open("ul", undefined, "footer-info");
  const page = ctx.page >= 0 ? m.pages[ctx.page]! : null;
  if (page && ctx.action === "view") s.el("li", undefined, ` This page was last edited on ${formatMinute(m.revMinute[ctx.rev ?? latestRev(page)]!).replace(/^(.*), (.*)$/, "$2, at $1")}.`, "footer-info-lastmod");
  s.open("li", undefined, "footer-info-copyright");
  s.text("Content is available under ");
  s.a("https://creativecommons.org/licenses/by-sa/4.0/", "Creative Commons Attribution-ShareAlike", "external", `rel="nofollow"`);
  s.text(" unless otherwise noted.");
  s.close("li");
  s.close("ul");
  s.open("ul", undefined, "footer-places");
  li(s, "footer-places-privacy", undefined, `/wiki/${PROJECT_NS}:Privacy_policy`, "Privacy policy");
  li(s, "footer-places-about", undefined, `/wiki/${PROJECT_NS}:About`, `About ${WIKI_SITE_NAME}`);
  li(s, "footer-places-disclaimer", undefined, `/wiki/${PROJECT_NS}:General_disclaimer`, "Disclaimers");
  s.close("ul");
  s.open("ul", "noprint", "footer-icons");
  s.open("li", undefined, "footer-poweredbyico");
  s.aWrap("https://www.mediawiki.org/", undefined, () => s.img("/resources/assets/poweredby_mediawiki_88x31.png", "Powered by MediaWiki"));
  s.close("li");
  s.close("ul");
  s.close("footer");
}

/** Renders a whole wiki page: `body` writes the inside of `div#mw-content-text`. */
export function wikiPage(s: HtmlSink, m: WikiModel, ctx: SkinContext, body: () => void, catlinks?: () => void): void {
  head(s, ctx);
  s.raw(`<div id="mw-page-base" class="noprint"></div><div id="mw-head-base" class="noprint"></div>`);
  s.open("div", "mw-body", "content", `role="main"`);
  s.raw(`<a id="top"></a><div id="siteNotice" class="mw-body-content"></div><div class="mw-indicators mw-body-content"></div>`);
  s.el("h1", "firstHeading", ctx.heading, "firstHeading");
  s.open("div", "mw-body-content", "bodyContent");
  s.el("div", "noprint", `From ${WIKI_SITE_NAME}`, "siteSub");
  s.open("div", undefined, "contentSub");
  ctx.subtitle?.();
  s.close("div");
  s.a("#mw-head", "Jump to navigation", "mw-jump-link");
  s.a("#searchInput", "Jump to search", "mw-jump-link");
  s.open("div", "mw-content-ltr", "mw-content-text", `lang="en" dir="ltr"`);
  body();
  s.close("div");
  const page = ctx.page >= 0 ? m.pages[ctx.page]! : null;
  if (page && ctx.action === "view") {
    const perm = indexHref(ctx.title, [["oldid", revId(ctx.rev ?? latestRev(page))]]);
    s.open("div", "printfooter");
    s.text("Retrieved from \"");
    s.siteA(perm, perm, "absolute", undefined, `dir="ltr"`);
    s.text("\"");
    s.close("div");
  }
  if (catlinks) {
    s.open("div", "catlinks", "catlinks", `data-mw="interface"`);
    catlinks();
    s.close("div");
  }
  s.raw(`<div class="visualClear"></div>`);
  s.close("div");
  s.close("div");
  s.open("div", undefined, "mw-navigation");
  s.el("h2", undefined, "Navigation menu");
  s.open("div", undefined, "mw-head");
  menuStart(s, "p-personal", "Personal tools", "");
  const returnTo = ctx.title.ns === NS.special ? `Special:${ctx.title.text}` : prefixedText(ctx.title);
  li(s, "pt-createaccount", undefined, specialIndexHref("CreateAccount", [["returnto", returnTo]]), "Create account");
  li(s, "pt-login", undefined, specialIndexHref("UserLogin", [["returnto", returnTo]]), "Log in", `accesskey="o"`);
  menuEnd(s);
  tabs(s, m, ctx);
  s.close("div");
  panel(s, m, ctx);
  s.close("div");
  footer(s, m, ctx);
  s.raw(`<script>(RLQ=window.RLQ||[]).push(function(){mw.config.set({"wgBackendResponseTime":87});});</script></body></html>\n`);
}

/** The category box at the bottom of a page. */
export function categoryLinks(s: HtmlSink, m: WikiModel, cats: readonly number[]): void {
  s.open("div", "mw-normal-catlinks", "mw-normal-catlinks");
  s.a(specialHref("Categories"), "Categories", undefined, `title="Special:Categories"`);
  s.text(": ");
  pageLinkList(s, m, cats);
  s.close("div");
}

/** `<ul>` of links to wiki pages, each labelled with its title. */
export function pageLinkList(s: HtmlSink, m: WikiModel, pages: readonly number[], cls?: string): void {
  s.open("ul", cls);
  for (const p of pages) {
    s.open("li");
    s.a(viewHref(m.pages[p]!.title), m.pages[p]!.title.text);
    s.close("li");
  }
  s.close("ul");
}
