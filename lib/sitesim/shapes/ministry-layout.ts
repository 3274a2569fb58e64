/**
 * Ministry portal frame, Drupal-flavoured: region wrappers, a two-level main menu on
 * every page and a fat footer. Most of each page's links are this boilerplate.
 */
import {
  accessibilityLinks, breadcrumb, docEnd, docStart, footerColumns, languageSwitcher, searchForm, socialLinks,
  type Frame, type LinkList, type PageMeta,
} from "../html-layout";
import type { HtmlSink } from "../html-sink";
import type { MinistryModel } from "./ministry-model";

export const MINISTRY_SITE_NAME = "Ministry of Territorial Cohesion";

export const MINISTRY_PAGES: Record<string, string> = {
  "/the-ministry/minister": "The Minister",
  "/the-ministry/cabinet": "The cabinet",
  "/the-ministry/organisation": "Organisation chart",
  "/the-ministry/directorates": "Directorates",
  "/the-ministry/history": "History",
  "/the-ministry/jobs": "Working at the ministry",
  "/services/grants": "Grants and funding",
  "/services/procedures": "Procedures",
  "/services/faq": "Questions and answers",
  "/contact": "Contact",
  "/press": "Press area",
  "/legal": "Legal notice",
  "/accessibility": "Accessibility: partially compliant",
  "/personal-data": "Personal data",
  "/sitemap": "Site map",
};

function menu(m: MinistryModel): Array<{ label: string; links: LinkList }> {
  return [
    { label: "The ministry", links: Object.entries(MINISTRY_PAGES).filter(([p]) => p.startsWith("/the-ministry/")).map(([p, t]) => [t, p] as const) },
    {
      label: "News",
      links: [["Press releases", "/press-releases"], ["Speeches", "/speeches"], ["Agenda", "/agenda"], ["Press area", "/press"]],
    },
    { label: "Topics", links: [...m.topics.slice(0, 8).map((t) => [t.name, `/topics/${t.slug}`] as const), ["All topics", "/topics"]] },
    { label: "Publications", links: [["Reports", "/reports"], ["Decisions and orders", "/decisions"], ["Open data", "https://www.data.gouv.fr/organizations/ministry"]] },
    {
      label: "Services",
      links: [["Grants and funding", "/services/grants"], ["Procedures", "/services/procedures"], ["Questions and answers", "/services/faq"], ["Service-Public", "https://www.service-public.fr/"]],
    },
  ];
}

export function ministryFrame(m: MinistryModel): Frame {
  const items = menu(m);
  return (s: HtmlSink, meta: PageMeta, main: () => void, sidebar?: () => void) => {
    docStart(s, MINISTRY_SITE_NAME, meta);
    accessibilityLinks(s);
    s.open("div", "dialog-off-canvas-main-canvas");
    s.open("div", "layout-container");
    s.open("header", "header", "header", `role="banner"`);
    s.open("div", "region region-header");
    s.open("div", "block block-system-branding-block");
    s.siteA("/", MINISTRY_SITE_NAME, "absolute", "site-logo", `rel="home"`);
    s.close("div");
    s.open("nav", "block block-menu block-menu--account");
    s.open("ul", "menu");
    for (const [label, href] of [["Press", "/press"], ["Contact", "/contact"], ["Jobs", "/the-ministry/jobs"]] as const) {
      s.open("li", "menu-item");
      s.a(href, label);
      s.close("li");
    }
    s.close("ul");
    s.close("nav");
    languageSwitcher(s);
    searchForm(s);
    s.close("div");
    s.close("header");
    s.open("div", "region region-primary-menu");
    s.open("nav", "block block-menu navigation menu--main", "block-mainnavigation", `role="navigation"`);
    s.open("ul", "menu menu--level-1");
    for (const item of items) {
      s.open("li", "menu-item menu-item--expanded");
      s.el("span", "menu-item__label", item.label);
      s.open("ul", "menu menu--level-2");
      for (const [label, href] of item.links) {
        s.open("li", "menu-item");
        s.a(href, label);
        s.close("li");
      }
      s.close("ul");
      s.close("li");
    }
    s.close("ul");
    s.close("nav");
    s.close("div");
    if (meta.crumbs) {
      s.open("div", "region region-breadcrumb");
      breadcrumb(s, meta.crumbs, meta.title);
      s.close("div");
    }
    s.open("main", "main-content", "main-content", `role="main"`);
    s.open("div", "region region-content");
    main();
    s.close("div");
    s.close("main");
    if (sidebar) {
      s.open("aside", "region region-sidebar-second", undefined, `role="complementary"`);
      sidebar();
      s.close("aside");
    }
    footer(s);
    s.close("div");
    s.close("div");
    docEnd(s);
  };
}

function footer(s: HtmlSink): void {
  s.open("footer", "footer", "footer", `role="contentinfo"`);
  s.open("div", "region region-footer");
  footerColumns(s, [
    { title: "Ministry", links: [["Site map", "/sitemap"], ["Accessibility", "/accessibility"], ["Legal notice", "/legal"], ["Personal data", "/personal-data"]] },
    { title: "Follow the news", links: [["RSS feed", "/rss.xml"], ["Press area", "/press"], ["Newsletter", "/newsletter/subscribe"]] },
    {
      title: "Government sites",
      links: [["gouvernement.fr", "https://www.gouvernement.fr/"], ["legifrance.gouv.fr", "https://www.legifrance.gouv.fr/"], ["service-public.fr", "https://www.service-public.fr/"], ["data.gouv.fr", "https://www.data.gouv.fr/"]],
    },
  ], "footer");
  socialLinks(s, "territoires_gouv", "footer__social");
  s.open("p", "footer__admin");
  s.siteA("/user/login", "Log in", "absolute");
  s.close("p");
  s.close("div");
  s.close("footer");
}
