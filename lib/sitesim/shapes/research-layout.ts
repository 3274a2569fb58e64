/**
 * Research repository frame, DSpace XMLUI "Mirage 2"-flavoured: a navbar with the
 * login link, the trail, and on every page an options sidebar (search box, "Browse"
 * all of the repository, the page's own blocks, "My Account"), then a footer with
 * policy pages, the software credit, funders and social accounts (other hosts).
 */
import {
  accessibilityLinks, breadcrumb, docEnd, docStart, footerColumns, socialLinks, type Frame, type PageMeta,
} from "../html-layout";
import type { HtmlSink } from "../html-sink";

export const REPO_SITE_NAME = "Open Research Repository";

export const REPO_PAGES: Record<string, string> = {
  "/page/about": "About the repository",
  "/page/policy": "Open access policy",
  "/page/deposit": "How to deposit",
  "/page/faq": "Frequently asked questions",
  "/page/privacy": "Privacy notice",
  "/page/accessibility": "Accessibility statement",
  "/contact": "Contact us",
  "/feedback": "Send feedback",
};

export type BrowseType = "dateissued" | "author" | "title" | "subject";

export const BROWSE_LABELS: Readonly<Record<BrowseType, string>> = {
  dateissued: "By Issue Date",
  author: "Authors",
  title: "Titles",
  subject: "Subjects",
};

export function repoFrame(): Frame {
  return (s: HtmlSink, meta: PageMeta, main: () => void, sidebar?: () => void) => {
    docStart(s, REPO_SITE_NAME, meta);
    accessibilityLinks(s);
    s.open("header", undefined, "ds-header-wrapper");
    s.open("div", "navbar navbar-default navbar-static-top");
    s.open("div", "container");
    s.siteA("/", REPO_SITE_NAME, "absolute", "navbar-brand", `rel="home"`);
    s.open("ul", "nav navbar-nav pull-right");
    s.open("li");
    s.a("/page/deposit", "Deposit");
    s.close("li");
    s.open("li");
    s.a("/login", "Login", "navbar-link");
    s.close("li");
    s.close("ul");
    s.close("div");
    s.close("div");
    s.close("header");
    s.open("div", "trail-wrapper hidden-print");
    s.open("div", "container");
    breadcrumb(s, meta.crumbs ?? [], meta.title, "trail");
    s.close("div");
    s.close("div");
    s.open("div", "container", "main-container");
    s.open("div", "row row-offcanvas row-offcanvas-right");
    s.open("div", "col-xs-12 col-sm-12 col-md-9 main-content");
    s.open("div", undefined, "ds-body");
    main();
    s.close("div");
    s.close("div");
    s.open("div", "col-xs-6 col-sm-3 sidebar-offcanvas", "sidebar", `role="navigation"`);
    s.open("div", "word-break hidden-print", "ds-options");
    s.raw(`<div id="ds-search-option" class="ds-option-set"><form id="ds-search-form" class="" method="post" action="/discover"><input name="query" class="ds-text-field form-control" type="text" placeholder="Search"><button type="submit" class="ds-button-field btn btn-primary">Go</button></form></div>`);
    s.el("h2", "ds-option-set-head page-header h6", "Browse");
    s.open("div", "list-group", "aspect_viewArtifacts_Navigation_list_browse");
    s.el("span", "list-group-item ds-option", `All of ${REPO_SITE_NAME}`);
    s.a("/community-list", "Communities & Collections", "list-group-item ds-option");
    for (const type of ["dateissued", "author", "title", "subject"] as const) s.a(`/browse?type=${type}`, BROWSE_LABELS[type], "list-group-item ds-option");
    s.close("div");
    sidebar?.();
    s.el("h2", "ds-option-set-head page-header h6", "My Account");
    s.open("div", "list-group", "aspect_viewArtifacts_Navigation_list_account");
    s.a("/login", "Login", "list-group-item ds-option");
    s.a("/register", "Register", "list-group-item ds-option");
    s.close("div");
    s.close("div");
    s.close("div");
    s.close("div");
    s.close("div");
    s.open("footer");
    s.open("div", "container");
    footerColumns(s, [
      { title: "The repository", links: Object.entries(REPO_PAGES).slice(0, 4).map(([p, t]) => [t, p] as const) },
      { title: "Help", links: Object.entries(REPO_PAGES).slice(4).map(([p, t]) => [t, p] as const) },
      {
        title: "Elsewhere",
        links: [["University home page", "https://www.university.example.ac.uk/"], ["ORCID", "https://orcid.org/"], ["Sherpa Romeo", "https://v2.sherpa.ac.uk/romeo/"], ["OpenAIRE", "https://www.openaire.eu/"]],
      },
    ], "footer");
    s.open("div", "funders");
    s.el("span", "funders__title", "Supported by");
    s.a("https://www.ukri.org/", "UK Research and Innovation", "funder");
    s.a("https://erc.europa.eu/", "European Research Council", "funder");
    s.a("https://wellcome.org/", "Wellcome", "funder");
    s.close("div");
    socialLinks(s, "openresearchrepo", "footer-social");
    s.open("p", "credits");
    s.a("http://www.dspace.org/", "DSpace software", undefined, `target="_blank" rel="noopener"`);
    s.text(" copyright © 2002-2016 ");
    s.a("http://www.duraspace.org/", "DuraSpace", undefined, `target="_blank" rel="noopener"`);
    s.close("p");
    s.close("div");
    s.close("footer");
    docEnd(s);
  };
}
