/** News-heavy site: frame and pages. */
import {
  accessibilityLinks, breadcrumb, docEnd, docStart, footerColumns, languageSwitcher, linkList, numberedPager, socialLinks,
  type Frame,
} from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { topicName } from "../text";
import { pageCount } from "./common";
import {
  articleDay, articlePath, articlesOfDay, articleTags, articleTitle, dayKey, PER_PAGE, SECTIONS, storyFiles, storyTitle,
  type NewsModel,
} from "./news-heavy-model";

export const NEWS_SITE_NAME = "The Daily Courier";
const sectionName = (k: number) => SECTIONS[k]!.charAt(0).toUpperCase() + SECTIONS[k]!.slice(1);

export function newsFrame(m: NewsModel): Frame {
  return (s, meta, main, sidebar) => {
    docStart(s, NEWS_SITE_NAME, meta);
    accessibilityLinks(s);
    s.open("header", "masthead");
    s.siteA("/", NEWS_SITE_NAME, "absolute", "masthead__logo");
    languageSwitcher(s);
    s.open("nav", "masthead__sections");
    linkList(s, [...SECTIONS.map((sec, k) => [sectionName(k), `/${sec}`] as const), ["Data", "/data"], ["Today", `/archive/${dayKey(articleDay(m, m.articleCount))}`]], "sections");
    s.close("nav");
    s.close("header");
    s.open("div", "page-body");
    if (meta.crumbs) breadcrumb(s, meta.crumbs, meta.title);
    s.open("main", "main-column", "main");
    main();
    s.close("main");
    if (sidebar) {
      s.open("aside", "side-column");
      sidebar();
      s.close("aside");
    }
    s.close("div");
    s.open("footer", "site-footer");
    footerColumns(s, [
      { title: "The Courier", links: [["About us", "/about"], ["Contact", "/contact"], ["Jobs", "/jobs"], ["Subscribe", "/subscribe"]] },
      { title: "Topics", links: m.tags.slice(0, 8).map((t) => [t.name, `/tag/${t.slug}`] as const) },
    ]);
    socialLinks(s, "dailycourier");
    s.close("footer");
    docEnd(s);
  };
}

function teaserList(s: HtmlSink, m: NewsModel, ids: ArrayLike<number>, from: number, to: number): void {
  s.open("ul", "teaser-list");
  for (let k = from; k < Math.min(ids.length, to); k++) {
    s.open("li", "teaser");
    s.a(articlePath(m, ids[k]!), articleTitle(m, ids[k]!), "teaser__link");
    s.close("li");
  }
  s.close("ul");
}

/** A section front or a tag page, numbered pagination. */
export function listPage(s: HtmlSink, m: NewsModel, frame: Frame, title: string, base: string, ids: Int32Array, page: number): void {
  frame(s, { title: page > 1 ? `${title} (page ${page})` : title, bodyClass: "front", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, title);
    teaserList(s, m, ids, (page - 1) * PER_PAGE, page * PER_PAGE);
    numberedPager(s, page, pageCount(ids.length, PER_PAGE), (p) => `${base}?page=${p}`);
  });
}

export function homePage(s: HtmlSink, m: NewsModel, frame: Frame): void {
  frame(s, { title: "Home", bodyClass: "home" }, () => {
    SECTIONS.forEach((_, k) => {
      s.open("section", "home-section");
      s.el("h2", undefined, sectionName(k));
      teaserList(s, m, m.bySection[k]!, 0, 5);
      s.close("section");
    });
    s.open("section", "home-data");
    s.a("/data", "Data desk", "home-data__link");
    s.close("section");
  });
}

export function articlePage(s: HtmlSink, m: NewsModel, frame: Frame, id: number): void {
  const r = new Rng(hash32(m.seed, 0xa28, id));
  frame(s, { title: articleTitle(m, id), bodyClass: "article", crumbs: [["Home", "/"]] }, () => {
    s.open("article", "story", "story", `data-id="${id}"`);
    s.el("h1", "story__title", articleTitle(m, id));
    s.a(`/archive/${dayKey(articleDay(m, id))}`, dayKey(articleDay(m, id)), "story__date");
    const img = r.float();
    if (img < 0.15) s.a(`/img/${id}`, "Photo", "story__photo");
    else if (img < 0.55) s.a(`/img/${id}.jpg`, "Photo", "story__photo");
    for (let k = 0; k < 4; k++) s.para(hash32(m.seed, 0xa29, id, k), 70);
    if (r.chance(0.03)) s.a(`/data/${1 + r.int(m.storyCount)}`, "Explore the data", "story__data");
    s.open("div", "story__tags");
    for (const t of articleTags(m.seed, id, m.tags.length)) s.a(`/tag/${m.tags[t]!.slug}`, m.tags[t]!.name, "tag");
    s.close("div");
    s.close("article");
    s.open("section", "related");
    for (let k = 0; k < 4; k++) {
      const o = 1 + ((id - 1 + m.articleCount + r.int(61) - 30) % m.articleCount);
      const roll = r.float();
      if (roll < 0.004) s.a(`/a/${m.articleCount + 1 + r.int(999)}`, "Removed article", "related__link");
      else if (roll < 0.05) s.a(`/a/${o}`, articleTitle(m, o), "related__link");
      else s.a(articlePath(m, o), articleTitle(m, o), "related__link");
    }
    s.close("section");
  }, () => {
    s.el("h2", undefined, "Most read");
    const r2 = new Rng(hash32(m.seed, 0x3ead, Math.floor(id / 50)));
    const ids = Array.from({ length: 5 }, () => 1 + r2.int(m.articleCount));
    linkList(s, ids.map((o) => [articleTitle(m, o), articlePath(m, o)] as const), "most-read");
  });
}

/** Daily archive: prev/next day for ever (an infinite trap around a finite range of dates). */
export function dayPage(s: HtmlSink, m: NewsModel, frame: Frame, day: number): void {
  const [a, b] = articlesOfDay(m, day);
  frame(s, { title: `Archive ${dayKey(day)}`, bodyClass: "archive", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, `Archive ${dayKey(day)}`);
    s.open("nav", "archive-nav");
    s.a(`/archive/${dayKey(day - 1)}`, "‹ Previous day", "archive-nav__prev");
    s.a(`/archive/${dayKey(day + 1)}`, "Next day ›", "archive-nav__next");
    s.close("nav");
    const ids: number[] = [];
    for (let id = b; id >= a; id--) ids.push(id);
    if (ids.length) teaserList(s, m, ids, 0, ids.length);
    else s.el("p", undefined, "No articles this day.");
  });
}

export function dataDeskPage(s: HtmlSink, m: NewsModel, frame: Frame, page: number): void {
  const pages = pageCount(m.storyCount, PER_PAGE);
  frame(s, { title: "Data desk", bodyClass: "data-desk", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", undefined, "Data desk");
    const items: Array<[string, string]> = [];
    for (let k = (page - 1) * PER_PAGE; k < Math.min(m.storyCount, page * PER_PAGE); k++) items.push([storyTitle(m, m.storyCount - k), `/data/${m.storyCount - k}`]);
    linkList(s, items, "data-stories", "data-story", "data-story__link");
    numberedPager(s, page, pages, (p) => `/data?page=${p}`);
  });
}

export function storyPage(s: HtmlSink, m: NewsModel, frame: Frame, id: number): void {
  frame(s, { title: storyTitle(m, id), bodyClass: "data-story", crumbs: [["Home", "/"], ["Data desk", "/data"]] }, () => {
    s.el("h1", undefined, storyTitle(m, id));
    s.para(hash32(m.seed, 0x573, id), 90);
    s.open("section", "downloads", "downloads");
    linkList(s, storyFiles(m, id).map((f) => [f.label, f.href] as const), "downloads__list", "downloads__item", "downloads__link");
    s.close("section");
    s.a(`/${SECTIONS[id % SECTIONS.length]}`, `More ${topicName(id)}`, "more");
  });
}
