/** Statistics office: news (many pages, almost no targets), regions and static pages. */
import { linkList, numberedPager, type Frame } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { headline } from "../text";
import { pageCount } from "./common";
import {
  monthLabel, NEWS_IMAGE_BASE, NEWS_PER_PAGE, newsFirstYear, newsMonth, newsOfMonth, newsTags, PUB_BASE_ID, type StatsModel,
} from "./statistics-model";

const newsTitle = (m: StatsModel, id: number) => headline(hash32(m.seed, 0x4e, id));
const newsDate = (m: StatsModel, id: number) => `${monthLabel(m, newsMonth(m, id))}-${String(1 + (hash32(m.seed, 0xd4, id) % 28)).padStart(2, "0")}`;

/** Sidebar of every news page: topics and yearly archives (news are shallow and broad, as on real sites). */
function newsSidebar(s: HtmlSink, m: StatsModel): void {
  s.open("nav", "tag-cloud");
  s.el("h2", undefined, "Topics");
  linkList(s, m.tags.map((t) => [t.name, `/news?tag=${t.slug}`] as const), "tag-cloud__list");
  s.close("nav");
  s.open("nav", "archives");
  s.el("h2", undefined, "Archives");
  const years: Array<[string, string]> = [];
  for (let y = 2024; y >= newsFirstYear(m); y--) years.push([String(y), `/news/archive/${y}`]);
  linkList(s, years, "archives__list");
  s.close("nav");
}

/** `/news/archive/<year>`: links to the months of the year that have news. */
export function newsYearPage(s: HtmlSink, m: StatsModel, frame: Frame, year: number): void {
  frame(s, { title: `News archive ${year}`, bodyClass: "page-news-archive", crumbs: [["Home", "/"], ["News", "/news"]] }, () => {
    s.el("h1", undefined, `News archive ${year}`);
    const months: Array<[string, string]> = [];
    for (let k = (year - newsFirstYear(m)) * 12; k < (year - newsFirstYear(m) + 1) * 12; k++) {
      const [a, b] = newsOfMonth(m, k);
      if (a <= b) months.push([monthLabel(m, k), `/news/archive/${monthLabel(m, k)}`]);
    }
    linkList(s, months, "archive-months");
  }, () => newsSidebar(s, m));
}

/** `/news/archive/<YYYY-MM>`: every news item of the month. */
export function newsMonthPage(s: HtmlSink, m: StatsModel, frame: Frame, k: number): void {
  const [a, b] = newsOfMonth(m, k);
  const year = newsFirstYear(m) + Math.floor(k / 12);
  frame(s, { title: `News ${monthLabel(m, k)}`, bodyClass: "page-news-archive", crumbs: [["Home", "/"], ["News", "/news"], [String(year), `/news/archive/${year}`]] }, () => {
    s.el("h1", undefined, `News ${monthLabel(m, k)}`);
    s.open("ul", "archive-list");
    for (let id = b; id >= a; id--) {
      s.open("li", "archive-item");
      s.a(`/news/${id}`, newsTitle(m, id));
      s.close("li");
    }
    s.close("ul");
  }, () => newsSidebar(s, m));
}

/** Month index of an archive key "YYYY-MM", or -1. */
export function parseArchiveMonth(m: StatsModel, key: string): number {
  const match = /^(20[0-9]{2})-(0[1-9]|1[0-2])$/.exec(key);
  const k = match ? (Number(match[1]) - newsFirstYear(m)) * 12 + Number(match[2]) - 1 : -1;
  return k >= 0 && k < m.newsYears * 12 ? k : -1;
}

/** Year of an archive key "YYYY" within the archive's range, or 0. */
export function parseArchiveYear(m: StatsModel, key: string): number {
  const y = /^20[0-9]{2}$/.test(key) ? Number(key) : 0;
  return y >= newsFirstYear(m) && y <= 2024 ? y : 0;
}

/** `/news?page=k` or `/news?tag=x&page=k`; ids newest first. */
export function newsListPage(s: HtmlSink, m: StatsModel, frame: Frame, tag: number | null, page: number): void {
  const ids = tag === null ? null : m.newsByTag[tag]!;
  const total = ids === null ? m.newsCount : ids.length;
  const pages = pageCount(total, NEWS_PER_PAGE);
  const tagName = tag === null ? null : m.tags[tag]!;
  const title = (tagName ? `News: ${tagName.name}` : "News") + (page > 1 ? ` (page ${page})` : "");
  const base = tagName ? `/news?tag=${tagName.slug}&` : "/news?";
  frame(s, { title, bodyClass: "page-news-list", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, title);
    s.open("div", "news-list", "news-list");
    for (let k = (page - 1) * NEWS_PER_PAGE; k < Math.min(total, page * NEWS_PER_PAGE); k++) {
      const id = ids === null ? m.newsCount - k : ids[k]!;
      s.open("article", "news-teaser");
      s.open("h2", "news-teaser__title");
      s.a(`/news/${id}`, newsTitle(m, id));
      s.close("h2");
      s.el("time", "news-teaser__date", newsDate(m, id));
      s.open("div", "news-teaser__tags");
      for (const t of newsTags(m.seed, id, m.tags.length)) s.a(`/news?tag=${m.tags[t]!.slug}`, m.tags[t]!.name, "tag");
      s.close("div");
      s.close("article");
    }
    s.close("div");
    numberedPager(s, page, pages, (p) => `${base}page=${p}`);
  }, () => newsSidebar(s, m));
}

export function newsPage(s: HtmlSink, m: StatsModel, frame: Frame, id: number): void {
  const r = new Rng(hash32(m.seed, 0x4f, id));
  const title = newsTitle(m, id);
  frame(s, { title, bodyClass: "page-news", crumbs: [["Home", "/"], ["News", "/news"]] }, () => {
    s.open("article", "news-article", "news-article");
    s.el("h1", undefined, title);
    s.el("time", "date", newsDate(m, id));
    const img = r.float();
    s.open("figure", "news-figure");
    if (img < 0.2) s.a(`/media/img/${NEWS_IMAGE_BASE + id}`, "View image", "image-link");
    else if (img < 0.5) s.a(`/media/news/${id}.jpg`, "View image", "image-link");
    s.close("figure");
    s.para(hash32(m.seed, 0x4a, id), 80);
    s.para(hash32(m.seed, 0x4b, id), 60);
    const ref = r.float();
    if (ref < 0.2) s.a(`/publications/${PUB_BASE_ID + r.int(m.pubCount)}`, "Read the publication", "inline-link");
    else if (ref < 0.3) s.a(`/old/pub/${PUB_BASE_ID + r.int(m.pubCount)}`, "Read the publication", "inline-link");
    else if (ref < 0.33) s.a(`/publications/${PUB_BASE_ID + r.int(m.pubCount)}/`, "See the study", "inline-link");
    if (r.chance(0.06)) {
      s.open("div", "press-kit");
      s.a(`/files/press/${id}.pdf`, "Press kit (PDF)", "file-link");
      s.close("div");
    }
    s.open("div", "tags");
    for (const t of newsTags(m.seed, id, m.tags.length)) s.a(`/news?tag=${m.tags[t]!.slug}`, m.tags[t]!.name, "tag");
    s.close("div");
    s.close("article");
    s.open("section", "related-news");
    s.el("h2", undefined, "Related news");
    s.open("ul", "related-news__list");
    for (let k = 0; k < 3; k++) {
      const other = 1 + ((id - 1 + m.newsCount + r.int(41) - 20) % m.newsCount);
      s.open("li");
      s.a(`/news/${other}`, newsTitle(m, other));
      s.close("li");
    }
    s.close("ul");
    s.close("section");
  }, () => newsSidebar(s, m));
}

