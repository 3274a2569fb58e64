/**
 * Statistics office page frame: a classic institutional theme whose header, menu and
 * footer repeat on every page, so most links on most pages are already seen.
 */
import {
  accessibilityLinks, breadcrumb, docEnd, docStart, footerColumns, languageSwitcher, searchForm, socialLinks,
  type Frame, type PageMeta,
} from "../html-layout";
import type { HtmlSink } from "../html-sink";
import type { StatsModel } from "./statistics-model";

export const STATS_SITE_NAME = "National Institute of Statistics";

export function statsFrame(m: StatsModel): Frame {
  return (s: HtmlSink, meta: PageMeta, main: () => void, sidebar?: () => void) => {
    docStart(s, STATS_SITE_NAME, meta);
    accessibilityLinks(s);
    header(s);
    mainNav(s, m);
    s.open("div", "page", "page");
    s.open("div", "container");
    if (meta.crumbs) breadcrumb(s, meta.crumbs, meta.title);
    s.open("div", "layout row");
    s.open("main", "content col-main", "content");
    main();
    s.close("main");
    if (sidebar) {
      s.open("aside", "sidebar col-side", "sidebar");
      sidebar();
      s.close("aside");
    }
    s.close("div");
    s.close("div");
    s.close("div");
    footer(s);
    docEnd(s);
  };
}

function header(s: HtmlSink): void {
  s.open("header", "site-header", "header");
  s.open("div", "container");
  s.siteA("/", STATS_SITE_NAME, "absolute", "logo", `rel="home"`);
  s.open("nav", "top-links");
  s.open("ul", "top-links__list");
  for (const [label, href] of [["News", "/news"], ["Release calendar", "/calendar"], ["Press", "/press"], ["Contact", "/contact"]] as const) {
    s.open("li", "top-links__item");
    s.a(href, label);
    s.close("li");
  }
  s.close("ul");
  s.close("nav");
  languageSwitcher(s);
  searchForm(s);
  s.a("/search?advanced=1", "Advanced search", "search-advanced");
  s.close("div");
  s.close("header");
}

function mainNav(s: HtmlSink, m: StatsModel): void {
  s.open("nav", "main-nav", "main-nav", `aria-label="Main"`);
  s.open("div", "container");
  s.open("ul", "menu");
  for (const t of m.themes) {
    s.open("li", "menu-item");
    s.a(`/themes/${t.slug}`, t.name, "menu-link");
    s.close("li");
  }
  for (const [label, href] of [["Regions", "/regions"], ["Open data", "/open-data"]] as const) {
    s.open("li", "menu-item menu-item--secondary");
    s.a(href, label, "menu-link");
    s.close("li");
  }
  s.close("ul");
  s.close("div");
  s.close("nav");
}

function footer(s: HtmlSink): void {
  s.open("footer", "site-footer", "footer");
  s.open("div", "container");
  footerColumns(s, [
    { title: "The institute", links: [["About us", "/about"], ["Organisation", "/about/organisation"], ["Careers", "/about/careers"], ["Press room", "/press"], ["Contact", "/contact"]] },
    { title: "Data", links: [["Open data", "/open-data"], ["Release calendar", "/calendar"], ["Regions", "/regions"], ["Annual report 2023 (PDF)", "/files/annual-report-2023.pdf"], ["RSS", "/news/feed.xml"]] },
    { title: "Help", links: [["FAQ", "/help/faq"], ["Site map", "/sitemap"], ["Accessibility", " /accessibility "]] },
  ]);
  s.open("ul", "footer__legal");
  s.open("li");
  s.siteA("/legal", "Legal notice", "absolute");
  s.close("li");
  s.open("li");
  s.siteA("/privacy", "Privacy", "protocol-relative");
  s.close("li");
  s.open("li");
  s.a("/admin/", "Staff intranet");
  s.close("li");
  s.close("ul");
  s.open("div", "partners");
  s.a("/go/eurostat", "Eurostat", "partner");
  s.a("https://european-union.europa.eu/", "European Union", "partner");
  s.a("https://data.europa.eu/en", "data.europa.eu", "partner");
  s.close("div");
  socialLinks(s, "statistics_office");
  s.el("p", "copyright", "© National Institute of Statistics");
  s.close("div");
  s.close("footer");
}
