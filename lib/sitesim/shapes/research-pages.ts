/**
 * Research repository pages around the items: home, community list, community and
 * collection pages, recent submissions, policy pages and the account pages.
 */
import { linkList, numberedPager, type Frame } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { hash32 } from "../random";
import { browseEntry } from "./research-browse";
import { facetsBlock } from "./research-discover";
import { BROWSE_LABELS, REPO_PAGES, REPO_SITE_NAME } from "./research-layout";
import {
  handleHref, ITEMS_PER_PAGE, scopeHref, scopeLists, scopeName, type RepoModel, type Scope,
} from "./research-model";
import { artifactList, scopeBrowseBlock, scopedBrowseTypes, scopeTrail } from "./research-parts";

/** Items a community or collection page shows under "Recent Submissions". */
const RECENT_ON_PAGE = 5;

function feeds(s: HtmlSink, key: string): void {
  s.open("div", "ds-option-set feeds");
  s.a(`/feed/rss_2.0/${key}`, "RSS 2.0", "rss-feed", `type="application/rss+xml"`);
  s.a(`/feed/atom_1.0/${key}`, "Atom", "atom-feed", `type="application/atom+xml"`);
  s.close("div");
}

function itemCount(m: RepoModel, scope: Scope): number {
  return scopeLists(m, scope).recent.length;
}

export function homePage(s: HtmlSink, m: RepoModel, frame: Frame): void {
  const site: Scope = { kind: "site" };
  frame(s, { title: "Repository Home", bodyClass: "home" }, () => {
    s.open("div", "ds-static-div primary", "file_news_div_news");
    s.el("h2", "page-header first-page-header", `Welcome to the ${REPO_SITE_NAME}`);
    s.para(hash32(m.seed, 0x40e), 60, "lead");
    s.a("/page/about", "More about the repository", "btn btn-primary");
    s.a("https://www.university.example.ac.uk/research/open-access", "Open access at the University", "external");
    s.close("div");
    s.raw(`<form class="ds-interactive-div discover-search-box" action="/discover" method="get"><input type="text" name="query" class="ds-text-field form-control"><button type="submit" class="btn btn-primary">Go</button></form>`);
    s.open("div", "ds-static-div primary", "aspect_artifactbrowser_CommunityBrowser_div_comunity-browser");
    s.el("h2", "ds-div-head page-header", `Communities in ${REPO_SITE_NAME}`);
    s.open("ul", "ds-artifact-list list-unstyled community-browser");
    m.communities.forEach((c, k) => {
      if (c.parent >= 0) return;
      s.open("li", "community-browser-row");
      s.a(handleHref(m, c.handle), c.name, "community-browser-link");
      s.el("span", "badge", String(itemCount(m, { kind: "community", index: k })));
      s.close("li");
    });
    s.close("ul");
    s.close("div");
    s.open("div", "ds-static-div secondary recent-submission");
    s.el("h2", "ds-div-head page-header", "Recently Added");
    const recent = m.all.recent;
    artifactList(s, m, (k) => recent[k]!, 0, Math.min(10, recent.length));
    s.a("/recent-submissions", "View more", "btn btn-default view-more");
    s.close("div");
    s.open("div", "ds-static-div browse-by");
    s.el("h2", "ds-div-head page-header", "Browse");
    linkList(s, (["dateissued", "author", "title", "subject"] as const).map((t) => [BROWSE_LABELS[t], browseEntry(m, site, t)] as const), "list-inline browse-links");
    s.close("div");
    s.open("div", "ds-static-div legacy-notice");
    s.el("p", undefined, "Theses deposited before 2010 were catalogued in our previous repository; their addresses still work.");
    s.siteA("/jspui/browse?type=dateissued", "Old repository: browse by date", "absolute");
    // A collection retired in a reorganisation, still linked from the news box.
    if (m.gaps.length > 0) s.a(handleHref(m, m.gaps[0]!), "Electronic theses 2005-2009 (archived)");
    s.a("http://www.handle.net/", "Persistent identifiers by Handle.Net", "external");
    s.close("div");
    feeds(s, "site");
  }, () => facetsBlock(s, m, site));
}

export function communityListPage(s: HtmlSink, m: RepoModel, frame: Frame): void {
  frame(s, { title: "Communities & Collections", bodyClass: "community-list", crumbs: scopeTrail(m, { kind: "site" }) }, () => {
    s.el("h2", "page-header first-page-header", `Communities in ${REPO_SITE_NAME}`);
    const walk = (c: number) => {
      const comm = m.communities[c]!;
      s.open("li", "community-browser-row");
      s.a(handleHref(m, comm.handle), comm.name, "community-browser-link");
      s.open("ul", "list-unstyled");
      for (const sub of comm.subs) walk(sub);
      for (const k of comm.colls) {
        s.open("li", "collection-browser-row");
        s.a(handleHref(m, m.collections[k]!.handle), m.collections[k]!.name, "collection-browser-link");
        s.close("li");
      }
      s.close("ul");
      s.close("li");
    };
    s.open("ul", "ds-artifact-list list-unstyled community-browser");
    m.communities.forEach((c, k) => c.parent < 0 && walk(k));
    s.close("ul");
  });
}

function browseButtons(s: HtmlSink, m: RepoModel, scope: Scope): void {
  s.open("div", "ds-static-div browse-by");
  s.el("h3", "ds-div-head", "Browse");
  s.open("div", "btn-group");
  for (const t of scopedBrowseTypes(scope)) s.a(browseEntry(m, scope, t), BROWSE_LABELS[t], "btn btn-default");
  s.close("div");
  s.close("div");
}

function recentBox(s: HtmlSink, m: RepoModel, scope: Scope, viewMore: boolean): void {
  const recent = scopeLists(m, scope).recent;
  s.open("div", "ds-static-div secondary recent-submission");
  s.el("h3", "ds-div-head page-header", "Recent Submissions");
  artifactList(s, m, (k) => recent[k]!, 0, Math.min(RECENT_ON_PAGE, recent.length));
  if (viewMore && recent.length > RECENT_ON_PAGE) s.a(`${scopeHref(m, scope)}/recent-submissions`, "View more", "btn btn-default view-more");
  s.close("div");
}

export function communityPage(s: HtmlSink, m: RepoModel, frame: Frame, c: number): void {
  const comm = m.communities[c]!;
  const scope: Scope = { kind: "community", index: c };
  const crumbs = comm.parent < 0 ? scopeTrail(m, { kind: "site" }) : scopeTrail(m, { kind: "community", index: comm.parent });
  frame(s, { title: comm.name, bodyClass: "community-view", crumbs }, () => {
    s.el("h2", "page-header first-page-header", comm.name);
    s.para(hash32(m.seed, 0xc0, c), 50, "intro");
    // Some communities kept a link to their page on the old XMLUI address.
    if (hash32(m.seed, 0xc1, c) % 10 === 0) s.siteA(`/xmlui/handle/${m.prefix}/${comm.handle}`, "Bookmark (old address)", "absolute");
    browseButtons(s, m, scope);
    if (comm.subs.length > 0) {
      s.el("h3", "ds-div-head", "Sub-communities within this community");
      linkList(s, comm.subs.map((k) => [m.communities[k]!.name, handleHref(m, m.communities[k]!.handle)] as const), "ds-artifact-list list-unstyled");
    }
    if (comm.colls.length > 0) {
      s.el("h3", "ds-div-head", "Collections in this community");
      linkList(s, comm.colls.map((k) => [m.collections[k]!.name, handleHref(m, m.collections[k]!.handle)] as const), "ds-artifact-list list-unstyled");
    }
    recentBox(s, m, scope, false);
    feeds(s, `${m.prefix}/${comm.handle}`);
  }, () => {
    scopeBrowseBlock(s, m, scope);
    facetsBlock(s, m, scope);
  });
}

export function collectionPage(s: HtmlSink, m: RepoModel, frame: Frame, k: number): void {
  const coll = m.collections[k]!;
  const scope: Scope = { kind: "collection", index: k };
  frame(s, { title: coll.name, bodyClass: "collection-view", crumbs: scopeTrail(m, { kind: "community", index: coll.community }) }, () => {
    s.el("h2", "page-header first-page-header", coll.name);
    s.para(hash32(m.seed, 0xc2, k), 40, "intro");
    s.el("p", "item-count", `${itemCount(m, scope)} items`);
    browseButtons(s, m, scope);
    recentBox(s, m, scope, true);
    feeds(s, `${m.prefix}/${coll.handle}`);
  }, () => {
    scopeBrowseBlock(s, m, scope);
    facetsBlock(s, m, scope);
  });
}

/** `…/recent-submissions?offset=k` of a collection or of the site, newest first, 20 a page. */
export function recentSubmissionsPage(s: HtmlSink, m: RepoModel, frame: Frame, scope: Scope, offset: number): void {
  const recent = scopeLists(m, scope).recent;
  const base = `${scope.kind === "site" ? "" : scopeHref(m, scope)}/recent-submissions`;
  const page = offset / ITEMS_PER_PAGE + 1;
  const pages = Math.ceil(recent.length / ITEMS_PER_PAGE);
  const title = `Recent Submissions${scope.kind === "site" ? "" : `: ${scopeName(m, scope, REPO_SITE_NAME)}`}`;
  frame(s, { title, bodyClass: "recent-submissions", crumbs: scopeTrail(m, scope) }, () => {
    s.el("h2", "page-header first-page-header", title);
    s.el("p", "pagination-info", `Now showing items ${offset + 1}-${Math.min(recent.length, offset + ITEMS_PER_PAGE)} of ${recent.length}`);
    artifactList(s, m, (k) => recent[k]!, offset, Math.min(recent.length, offset + ITEMS_PER_PAGE));
    numberedPager(s, page, pages, (p) => `${base}?offset=${(p - 1) * ITEMS_PER_PAGE}`, "pagination");
  }, () => scopeBrowseBlock(s, m, scope));
}

/** Policy pages and the account pages (forms: no links beyond the frame). */
export const ACCOUNT_PAGES: Record<string, string> = {
  "/login": "Sign in to Open Research Repository",
  "/register": "Register",
  "/forgot": "Forgot your password?",
};

export function staticPage(s: HtmlSink, m: RepoModel, frame: Frame, path: string): void {
  const title = REPO_PAGES[path] ?? ACCOUNT_PAGES[path] ?? "";
  frame(s, { title, bodyClass: "static-page", crumbs: scopeTrail(m, { kind: "site" }) }, () => {
    s.el("h2", "page-header first-page-header", title);
    if (path === "/login") {
      s.raw(`<form id="aspect_eperson_PasswordLogin_div_login" action="/password-login" method="post"><input name="login_email" type="text"><input name="login_password" type="password"><button type="submit">Sign in</button></form>`);
      s.a("/forgot", "Forgot your password?");
      s.a("/register", "Register a new account");
      s.a("https://idp.university.example.ac.uk/idp/profile/SAML2/Redirect/SSO", "University single sign-on", "btn btn-primary");
      return;
    }
    if (path === "/register" || path === "/forgot") {
      s.raw(`<form action="${path}" method="post"><input name="email" type="email"><button type="submit">Send</button></form>`);
      return;
    }
    for (let k = 0; k < 3; k++) s.para(hash32(m.seed, path.length, k), 80);
    if (path === "/page/deposit") s.a("/login", "Log in to deposit");
    if (path === "/page/policy") s.a("https://v2.sherpa.ac.uk/opendoar/", "OpenDOAR record", "external");
  });
}
