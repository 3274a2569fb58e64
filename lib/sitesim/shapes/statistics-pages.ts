/** Statistics office: home, themes, publication lists and publication pages. */
import { numberedPager, type Frame } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { dateString, headline, humanBytes } from "../text";
import { pageCount } from "./common";
import {
  hasDataTab, NEWS_IMAGE_BASE, PUB_BASE_ID, PUBS_PER_PAGE, pubFiles, type PubFile, type StatsModel,
} from "./statistics-model";

const pubHref = (i: number) => `/publications/${PUB_BASE_ID + i}`;
const pubTitle = (m: StatsModel, i: number) => headline(hash32(m.seed, 0x9b, i));

function pubItem(s: HtmlSink, m: StatsModel, i: number, cls: string): void {
  s.open("li", `${cls}-item`);
  s.aWrap(pubHref(i), "thumb", () => s.img(`/media/thumbs/${PUB_BASE_ID + i}.png`, ""), `tabindex="-1"`);
  s.open("h3", `${cls}-title`);
  s.a(pubHref(i), pubTitle(m, i), "title");
  s.close("h3");
  s.el("span", "date", dateString(hash32(m.seed, 0xda, i)));
  s.close("li");
}

export function homePage(s: HtmlSink, m: StatsModel, frame: Frame): void {
  frame(s, { title: "Home", bodyClass: "page-home" }, () => {
    s.open("section", "hero");
    s.el("h1", undefined, "Official statistics for everyone");
    s.para(m.seed, 40);
    s.close("section");
    s.open("section", "themes-grid", "themes");
    s.el("h2", undefined, "Themes");
    s.open("ul", "tiles");
    for (const t of m.themes) {
      s.open("li", "tile");
      s.a(`/themes/${t.slug}`, t.name, "tile-link");
      s.close("li");
    }
    s.close("ul");
    s.close("section");
    s.open("section", "latest-publications", "latest");
    s.el("h2", undefined, "Latest publications");
    s.open("ul", "publication-list");
    for (let i = m.pubCount - 1, k = 0; i >= 0 && k < 6; i -= 3, k++) pubItem(s, m, i, "publication");
    s.close("ul");
    s.close("section");
    s.open("section", "featured");
    s.el("h2", undefined, "Featured");
    // Tracking parameters make near-duplicate URLs of pages linked elsewhere.
    for (let k = 0; k < 3 && k < m.pubCount; k++) s.a(`${pubHref(k * 5 % m.pubCount)}?origin=home`, pubTitle(m, k * 5 % m.pubCount), "featured-link");
    s.close("section");
    s.open("section", "latest-news");
    s.el("h2", undefined, "News");
    s.open("ul", "news-list");
    for (let id = m.newsCount; id > Math.max(0, m.newsCount - 4); id--) {
      s.open("li", "news-item");
      s.a(`/news/${id}`, headline(hash32(m.seed, 0x4e, id)));
      s.close("li");
    }
    s.close("ul");
    s.a("/news", "All news", "more");
    s.close("section");
    s.open("section", "key-figures");
    s.el("h2", undefined, "Key figures");
    s.open("ul", "key-figures__list");
    for (const t of m.themes.slice(0, 4)) {
      s.open("li");
      s.a(`/files/key-figures/${t.slug}.xlsx`, `${t.name} key figures (XLSX)`, "download");
      s.close("li");
    }
    s.close("ul");
    s.close("section");
    s.open("section", "regions-map");
    s.el("h2", undefined, "Statistics by region");
    s.img("/static/img/map.png", "Map of regions", "map-img");
    s.raw(`<map name="regions">`);
    m.regions.forEach((r, k) => s.area(`/regions/${r.code}`, r.name, `${k * 20},0,${k * 20 + 19},40`));
    s.raw(`</map>`);
    s.close("section");
  });
}

export function themePage(s: HtmlSink, m: StatsModel, frame: Frame, ti: number): void {
  const t = m.themes[ti]!;
  frame(s, { title: t.name, bodyClass: "page-theme", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", "theme-title", t.name);
    s.para(hash32(m.seed, 0x7e, ti), 60, "intro");
    s.open("section", "subthemes", "subthemes");
    s.open("ul", "subtheme-list");
    for (const si of t.subs) {
      const sub = m.subs[si]!;
      s.open("li", "subtheme-item");
      s.a(`/themes/${t.slug}/${sub.slug}`, sub.name, "subtheme-link");
      s.el("span", "count", `${sub.count} publications`);
      s.close("li");
    }
    s.close("ul");
    s.close("section");
    s.open("section", "latest-in-theme");
    s.el("h2", undefined, "Latest in this theme");
    s.open("ul", "publication-list");
    for (const si of t.subs.slice(0, 4)) {
      const sub = m.subs[si]!;
      pubItem(s, m, sub.first + sub.count - 1, "publication");
    }
    s.close("ul");
    s.close("section");
  }, () => {
    s.open("div", "key-figures-box");
    s.el("h2", undefined, "Key figures");
    s.a(`/files/key-figures/${t.slug}.xlsx`, "Key figures (XLSX)", "download");
    s.a(`/data/latest/${t.slug}.xlsx`, "Always the latest version", "download-latest");
    s.close("div");
  });
}

/** Sub-theme publication list, newest first; page 1 is the sub-theme's own URL. */
export function subthemePage(s: HtmlSink, m: StatsModel, frame: Frame, si: number, page: number): void {
  const sub = m.subs[si]!;
  const t = m.themes[sub.theme]!;
  const base = `/themes/${t.slug}/${sub.slug}`;
  const pages = pageCount(sub.count, PUBS_PER_PAGE);
  const title = page === 1 ? sub.name : `${sub.name} (page ${page})`;
  frame(s, { title, bodyClass: "page-subtheme", crumbs: [["Home", "/"], [t.name, `/themes/${t.slug}`]] }, () => {
    s.el("h1", "subtheme-title", title);
    if (page === 1) s.para(hash32(m.seed, 0x5e, si), 50, "intro");
    s.open("section", "publications", "publications");
    s.open("ul", "publication-list");
    const newest = sub.first + sub.count - 1;
    for (let k = (page - 1) * PUBS_PER_PAGE; k < Math.min(sub.count, page * PUBS_PER_PAGE); k++) pubItem(s, m, newest - k, "publication");
    s.close("ul");
    numberedPager(s, page, pages, (p) => `${base}?page=${p}`);
    s.close("section");
  }, () => {
    s.open("nav", "section-nav");
    s.el("h2", undefined, t.name);
    s.open("ul", "section-nav__list");
    for (const other of t.subs) {
      s.open("li", other === si ? "active" : undefined);
      s.a(`/themes/${t.slug}/${m.subs[other]!.slug}`, m.subs[other]!.name);
      s.close("li");
    }
    s.close("ul");
    s.close("nav");
  });
}

export function publicationPage(s: HtmlSink, m: StatsModel, frame: Frame, i: number): void {
  const sub = m.subs[m.pubSub[i]!]!;
  const t = m.themes[sub.theme]!;
  const pubId = PUB_BASE_ID + i;
  const r = new Rng(hash32(m.seed, 0x9c, i));
  const title = pubTitle(m, i);
  const crumbs = [["Home", "/"], [t.name, `/themes/${t.slug}`], [sub.name, `/themes/${t.slug}/${sub.slug}`]] as const;
  frame(s, { title, bodyClass: "page-publication", crumbs }, () => {
    s.open("article", "publication", "publication", `data-id="${pubId}"`);
    s.el("h1", "publication-title", title);
    s.el("p", "publication-meta", `Published ${dateString(hash32(m.seed, 0xda, i))} · Insee Première n° ${pubId}`);
    s.para(hash32(m.seed, 0xab, i), 70, "summary");
    s.open("figure", "chart");
    const chart = r.float();
    if (chart < 0.5) s.a(`/media/img/${pubId}`, "Enlarge the chart", "chart-link");
    else if (chart < 0.8) s.a(`/media/charts/${pubId}.PNG`, "Download the chart (PNG)", "chart-link");
    s.close("figure");
    s.para(hash32(m.seed, 0xac, i), 90);
    s.open("section", "downloads", "downloads");
    s.el("h2", undefined, "Downloads");
    const files = pubFiles(m.seed, i);
    const tab = hasDataTab(m.seed, i, files.length);
    s.open("ul", "file-list");
    (tab ? files.slice(0, 1) : files).forEach((f) => fileItem(s, f));
    s.close("ul");
    if (tab) s.a(`/publications/${pubId}/data`, "Data and files ›", "tab-link");
    if (r.chance(0.7)) {
      s.open("div", "methodology");
      s.a(`/files/methodology/${sub.slug}.pdf`, "Methodology (PDF)", "file-link");
      s.close("div");
    }
    s.close("section");
    s.open("nav", "series-nav");
    if (i > sub.first) s.a(pubHref(i - 1), "‹ Previous edition", "prev");
    if (i < sub.first + sub.count - 1) s.a(pubHref(i + 1), "Next edition ›", "next");
    s.close("nav");
    s.close("article");
    s.open("section", "related", "related");
    s.el("h2", undefined, "Related publications");
    s.open("ul", "related-list");
    for (let k = 0; k < 3; k++) {
      const dead = r.chance(0.015);
      const j = k < 2 ? sub.first + r.int(sub.count) : r.int(m.pubCount);
      s.open("li", "related-item");
      s.a(dead ? pubHref(m.pubCount + 50 + r.int(500)) : pubHref(j), dead ? "Archived study" : pubTitle(m, j));
      s.close("li");
    }
    s.close("ul");
    s.close("section");
  }, () => {
    s.open("div", "share");
    s.a(`https://twitter.com/intent/tweet?text=${encodeURIComponent(title)}`, "Share on X", "share-link");
    s.a(`mailto:?subject=${encodeURIComponent(title)}`, "Share by e-mail", "share-link");
    s.close("div");
    s.open("div", "contact-box");
    s.a("mailto:info@statistics.example", "Contact the author");
    s.close("div");
  });
}

function fileItem(s: HtmlSink, f: PubFile): void {
  s.open("li", `file-item file-${f.file.format}`);
  s.a(f.href, f.label, "file-link");
  s.el("span", "file-size", humanBytes(f.file.bytes));
  s.close("li");
}

/** The "Data" tab of a publication: its data files in a table. */
export function publicationDataPage(s: HtmlSink, m: StatsModel, frame: Frame, i: number): void {
  const sub = m.subs[m.pubSub[i]!]!;
  const t = m.themes[sub.theme]!;
  const title = `${pubTitle(m, i)}: data`;
  const crumbs = [["Home", "/"], [t.name, `/themes/${t.slug}`], [sub.name, `/themes/${t.slug}/${sub.slug}`], [pubTitle(m, i), pubHref(i)]] as const;
  frame(s, { title, bodyClass: "page-publication-data", crumbs }, () => {
    s.el("h1", "publication-title", title);
    s.open("nav", "tabs");
    s.a(pubHref(i), "Publication", "tab-link");
    s.el("span", "tab-link is-active", "Data and files");
    s.close("nav");
    s.open("section", "data-files", "data");
    s.open("table", "table files-table");
    s.raw("<thead><tr><th>File</th><th>Format</th><th>Size</th></tr></thead>");
    s.open("tbody");
    for (const f of pubFiles(m.seed, i).slice(1)) {
      s.open("tr");
      s.open("td");
      s.a(f.href, f.label, "data-file");
      s.close("td");
      s.el("td", "format", f.file.format.toUpperCase());
      s.el("td", "size", humanBytes(f.file.bytes));
      s.close("tr");
    }
    s.close("tbody");
    s.close("table");
    s.close("section");
  });
}

/** Image ids: publications use their id, news use NEWS_IMAGE_BASE + id. */
export function isImageId(m: StatsModel, id: number): boolean {
  const p = id - PUB_BASE_ID;
  if (p >= 0 && p < m.pubCount) return true;
  const n = id - NEWS_IMAGE_BASE;
  return n >= 1 && n <= m.newsCount;
}
