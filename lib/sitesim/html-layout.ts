/**
 * Boilerplate shared by every shape: document head, breadcrumbs, pagers, social and
 * language links. Markup follows common CMS output so that tag paths look like the
 * ones a crawler meets in the wild (stable classes and ids per block type).
 */
import type { HtmlSink } from "./html-sink";

/** [label, href] pairs. */
export type LinkList = ReadonlyArray<readonly [string, string]>;

export interface PageMeta {
  title: string;
  /** Class of `<body>`, e.g. "page-publication": one per page type, as CMS themes emit. */
  bodyClass: string;
  crumbs?: LinkList;
  lang?: string;
}

export function docStart(s: HtmlSink, siteName: string, m: PageMeta): void {
  if (!s.withText) return;
  s.raw(`<!DOCTYPE html>\n<html lang="${m.lang ?? "en"}"><head><meta charset="utf-8">`);
  s.raw(`<meta name="viewport" content="width=device-width, initial-scale=1">`);
  s.el("title", undefined, `${m.title} | ${siteName}`);
  s.raw(`<link rel="stylesheet" href="/static/css/site.css"><link rel="icon" href="/static/favicon.ico">`);
  s.raw(`</head>\n<body class="${m.bodyClass}">`);
}

export function docEnd(s: HtmlSink): void {
  s.raw(`<script src="/static/js/site.js" defer></script></body></html>\n`);
}

export function linkList(s: HtmlSink, items: LinkList, ulCls?: string, liCls?: string, aCls?: string): void {
  s.open("ul", ulCls);
  for (const [label, href] of items) {
    s.open("li", liCls);
    s.a(href, label, aCls);
    s.close("li");
  }
  s.close("ul");
}

export function breadcrumb(s: HtmlSink, crumbs: LinkList, current: string, cls = "breadcrumb"): void {
  s.open("nav", cls, undefined, `aria-label="Breadcrumb"`);
  s.open("ol", cls + "__list");
  for (const [label, href] of crumbs) {
    s.open("li", cls + "__item");
    s.a(href, label);
    s.close("li");
  }
  s.el("li", cls + "__item is-active", current);
  s.close("ol");
  s.close("nav");
}

/**
 * Numbered pager (« First ‹ Prev 3 4 [5] 6 7 … 42 Next › Last »). `href(1)` may differ
 * from the list's own URL (`?page=1`): a near-duplicate most CMSs produce.
 */
export function numberedPager(s: HtmlSink, current: number, total: number, href: (page: number) => string, cls = "pagination"): void {
  if (total <= 1) return;
  s.open("nav", cls, undefined, `aria-label="Pagination"`);
  s.open("ul", cls + "__list");
  const item = (page: number, label: string, extra: string) => {
    s.open("li", `${cls}__item ${extra}`.trim());
    s.a(href(page), label, `${cls}__link`);
    s.close("li");
  };
  if (current > 1) {
    item(1, "« First", "first");
    item(current - 1, "‹ Previous", "prev");
  }
  const lo = Math.max(1, current - 2);
  const hi = Math.min(total, current + 2);
  for (let p = lo; p <= hi; p++) {
    if (p === current) s.el("li", `${cls}__item is-current`, String(p));
    else item(p, String(p), "");
  }
  if (hi < total) {
    s.el("li", `${cls}__item ellipsis`, "…");
    item(total, String(total), "");
  }
  if (current < total) {
    item(current + 1, "Next ›", "next");
    item(total, "Last »", "last");
  }
  s.close("ul");
  s.close("nav");
}

/** Drupal-style "next only" pager: a crawler must walk the list one page at a time. */
export function nextOnlyPager(s: HtmlSink, nextHref: string | null, cls = "pager"): void {
  s.open("nav", cls, undefined, `role="navigation"`);
  s.open("ul", `${cls}__items js-pager__items`);
  if (nextHref !== null) {
    s.open("li", `${cls}__item ${cls}__item--next`);
    s.a(nextHref, "Next page ›", undefined, `title="Go to next page" rel="next"`);
    s.close("li");
  }
  s.close("ul");
  s.close("nav");
}

const SOCIAL: LinkList = [
  ["X (Twitter)", "https://twitter.com/"],
  ["Facebook", "https://www.facebook.com/"],
  ["LinkedIn", "https://www.linkedin.com/company/"],
  ["YouTube", "https://www.youtube.com/@"],
  ["Instagram", "https://www.instagram.com/"],
];

/** Links to the institution's accounts on other hosts: never to be fetched by a crawler. */
export function socialLinks(s: HtmlSink, handle: string, cls = "social"): void {
  s.open("div", cls);
  s.el("span", `${cls}__title`, "Follow us");
  for (const [label, base] of SOCIAL) s.a(base + handle, label, `${cls}__link`, `rel="noopener" target="_blank"`);
  s.close("div");
}

/**
 * Language switcher. `/en/` is a real (small) page; the other languages redirect to it,
 * as sites with partial translations do.
 */
export function languageSwitcher(s: HtmlSink, cls = "lang-switcher"): void {
  s.open("div", cls);
  s.open("ul", `${cls}__list`);
  for (const [label, href] of [["FR", "/"], ["EN", "/en/"], ["DE", "/de/"]] as const) {
    s.open("li", `${cls}__item`);
    s.a(href, label, undefined, `hreflang="${label.toLowerCase()}"`);
    s.close("li");
  }
  s.close("ul");
  s.close("div");
}

/** The site search form (a form, not a link) and the one search link most sites also have. */
export function searchForm(s: HtmlSink, cls = "search-form"): void {
  s.raw(`<form class="${cls}" action="/search" method="get" role="search"><input type="search" name="q" aria-label="Search"><button type="submit">Search</button></form>`);
}

/** A skip link ("#content") and a javascript: pseudo-link: both must be ignored by a crawler. */
export function accessibilityLinks(s: HtmlSink): void {
  s.a("#content", "Skip to main content", "skip-link visually-hidden-focusable");
  s.a("javascript:window.print()", "Print", "print-link");
}

export interface FooterColumn {
  title: string;
  links: LinkList;
}

export function footerColumns(s: HtmlSink, cols: readonly FooterColumn[], cls = "footer"): void {
  s.open("div", `${cls}__columns`);
  for (const col of cols) {
    s.open("div", `${cls}__column`);
    s.el("h3", `${cls}__title`, col.title);
    linkList(s, col.links, `${cls}__menu`);
    s.close("div");
  }
  s.close("div");
}

/**
 * A shape's page frame: header, navigation, breadcrumbs, footer around `main`
 * (and an optional sidebar). Each shape implements it with its own CMS flavour.
 */
export type Frame = (s: HtmlSink, meta: PageMeta, main: () => void, sidebar?: () => void) => void;
