/** Open data portal frame: a Bootstrap-style CKAN/udata theme. */
import {
  accessibilityLinks, breadcrumb, docEnd, docStart, footerColumns, languageSwitcher, socialLinks,
  type Frame, type PageMeta,
} from "../html-layout";
import type { HtmlSink } from "../html-sink";

export const OPEN_DATA_SITE_NAME = "Open Data Portal";

export const OPEN_DATA_PAGES: Record<string, string> = {
  "/pages/about": "About the portal",
  "/pages/docs": "Publishing data",
  "/pages/api": "API documentation",
  "/pages/licences": "Licences",
  "/pages/terms": "Terms of use",
  "/pages/legal": "Legal notice",
  "/pages/accessibility": "Accessibility",
  "/pages/contact": "Contact",
};

export function openDataFrame(): Frame {
  return (s: HtmlSink, meta: PageMeta, main: () => void, sidebar?: () => void) => {
    docStart(s, OPEN_DATA_SITE_NAME, meta);
    accessibilityLinks(s);
    s.open("header", "navbar navbar-static-top masthead");
    s.open("div", "container");
    s.siteA("/", OPEN_DATA_SITE_NAME, "protocol-relative", "navbar-brand", `rel="home"`);
    s.open("nav", "section navigation");
    s.open("ul", "nav nav-pills");
    for (const [label, href] of [["Data", "/datasets"], ["Reuses", "/reuses"], ["Organizations", "/organizations"], ["News", "/posts"], ["Documentation", "/pages/docs"]] as const) {
      s.open("li");
      s.a(href, label);
      s.close("li");
    }
    s.close("ul");
    s.close("nav");
    s.raw(`<form class="site-search" action="/datasets" method="get"><input name="q" type="search"><button type="submit">Search</button></form>`);
    s.a("/search?advanced=1", "Advanced search", "search-advanced");
    languageSwitcher(s);
    s.a("/admin/login", "Log in", "btn btn-login");
    s.close("div");
    s.close("header");
    s.open("div", "main", "content");
    s.open("div", "container");
    if (meta.crumbs) breadcrumb(s, meta.crumbs, meta.title, "toolbar breadcrumb");
    s.open("div", "row wrapper");
    s.open("div", sidebar ? "primary col-md-9 col-xs-12" : "primary col-xs-12");
    main();
    s.close("div");
    if (sidebar) {
      s.open("aside", "secondary col-md-3 col-xs-12");
      sidebar();
      s.close("aside");
    }
    s.close("div");
    s.close("div");
    s.close("div");
    s.open("footer", "site-footer");
    s.open("div", "container");
    footerColumns(s, [
      { title: "Portal", links: Object.entries(OPEN_DATA_PAGES).slice(0, 4).map(([p, t]) => [t, p] as const) },
      { title: "Legal", links: Object.entries(OPEN_DATA_PAGES).slice(4).map(([p, t]) => [t, p] as const) },
      { title: "Elsewhere", links: [["data.europa.eu", "https://data.europa.eu/"], ["Guides", "https://guides.data.example.org/"], ["GitHub", "https://github.com/opendatateam"]] },
    ], "site-footer");
    socialLinks(s, "opendataportal", "site-footer__social");
    s.close("div");
    s.close("footer");
    docEnd(s);
  };
}
