/** Statistics office: regions, static pages, open data, site map, search. */
import { linkList, numberedPager, type Frame } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { headline } from "../text";
import { PUB_BASE_ID, type StatsModel } from "./statistics-model";

export function regionsIndex(s: HtmlSink, m: StatsModel, frame: Frame): void {
  frame(s, { title: "Regions", bodyClass: "page-regions", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, "Statistics by region");
    linkList(s, m.regions.map((r) => [r.name, `/regions/${r.code}`] as const), "region-list");
  });
}

export function regionPage(s: HtmlSink, m: StatsModel, frame: Frame, k: number): void {
  const reg = m.regions[k]!;
  const r = new Rng(hash32(m.seed, 0x4e9, k));
  frame(s, { title: reg.name, bodyClass: "page-region", crumbs: [["Home", "/"], ["Regions", "/regions"]] }, () => {
    s.el("h1", undefined, `Region ${reg.name}`);
    s.para(hash32(m.seed, 0x4ea, k), 50);
    s.open("div", "region-data");
    s.a(`/files/regions/${reg.code}.xlsx`, "Regional key figures (XLSX)", "file-link");
    s.close("div");
    s.open("ul", "publication-list");
    for (let j = 0; j < 8; j++) {
      const i = r.int(m.pubCount);
      s.open("li");
      s.a(`/publications/${PUB_BASE_ID + i}`, headline(hash32(m.seed, 0x9b, i)), "title");
      s.close("li");
    }
    s.close("ul");
  });
}

/** Static pages linked from header and footer. */
export const STATIC_PAGES: Record<string, string> = {
  "/about": "About us",
  "/about/organisation": "Organisation",
  "/about/careers": "Careers",
  "/contact": "Contact",
  "/legal": "Legal notice",
  "/privacy": "Privacy",
  "/accessibility": "Accessibility",
  "/press": "Press room",
  "/help/faq": "Frequently asked questions",
};

export function staticPage(s: HtmlSink, m: StatsModel, frame: Frame, path: string): void {
  const title = STATIC_PAGES[path] ?? "Page";
  frame(s, { title, bodyClass: "page-static", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, title);
    for (let k = 0; k < 3; k++) s.para(hash32(m.seed, path.length, k), 70);
    if (path === "/contact") s.iframe("https://www.openstreetmap.org/export/embed.html?bbox=2.29,48.85,2.31,48.86", "Map", "map");
    if (path === "/press") s.a("/news", "Latest news releases");
    if (path === "/about") s.a("/about/organisation", "Our organisation");
  });
}

export function openDataPage(s: HtmlSink, m: StatsModel, frame: Frame): void {
  frame(s, { title: "Open data", bodyClass: "page-open-data", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, "Open data");
    s.para(m.seed ^ 0x0d, 60);
    s.open("ul", "download-list");
    s.open("li");
    s.a("/files/catalogue.csv", "Catalogue of all series (CSV)", "file-link");
    s.close("li");
    for (const t of m.themes) {
      s.open("li");
      s.a(`/files/key-figures/${t.slug}.xlsx`, `${t.name} key figures (XLSX)`, "file-link");
      s.close("li");
    }
    s.close("ul");
  });
}

export function sitemapPage(s: HtmlSink, m: StatsModel, frame: Frame): void {
  frame(s, { title: "Site map", bodyClass: "page-sitemap", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, "Site map");
    s.open("ul", "sitemap");
    for (const t of m.themes) {
      s.open("li");
      s.a(`/themes/${t.slug}`, t.name);
      linkList(s, t.subs.map((si) => [m.subs[si]!.name, `/themes/${t.slug}/${m.subs[si]!.slug}`] as const));
      s.close("li");
    }
    s.close("ul");
  });
}

/** `/search?q=…` (robots-disallowed): results link to publications a crawler obeying robots finds elsewhere. */
export function searchPage(s: HtmlSink, m: StatsModel, frame: Frame, q: string, page: number): void {
  const seed = [...q].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, page);
  const r = new Rng(seed);
  frame(s, { title: `Search: ${q}`, bodyClass: "page-search" }, () => {
    s.el("h1", undefined, `Results for “${q}”`);
    s.open("ol", "search-results");
    for (let k = 0; k < 10; k++) {
      const i = r.int(m.pubCount);
      s.open("li");
      s.a(`/publications/${PUB_BASE_ID + i}`, headline(hash32(m.seed, 0x9b, i)));
      s.close("li");
    }
    s.close("ol");
    numberedPager(s, page, 50, (p) => `/search?q=${encodeURIComponent(q)}&page=${p}`);
  });
}

export function englishHome(s: HtmlSink, m: StatsModel, frame: Frame): void {
  frame(s, { title: "Welcome", bodyClass: "page-home-en", lang: "en" }, () => {
    s.el("h1", undefined, "Welcome to the National Institute of Statistics");
    s.para(m.seed ^ 0xe4, 60);
    s.a("/about", "About the institute");
  });
}

export function softNotFound(s: HtmlSink, frame: Frame): void {
  frame(s, { title: "Document unavailable", bodyClass: "page-unavailable", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, "This document is no longer available");
    s.el("p", undefined, "It may have been replaced by a newer edition.");
  });
}
