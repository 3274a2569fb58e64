/** Ministry portal pages: home, next-only lists, item pages, topics, static pages. */
import { FORMATS, mimeOf } from "../formats";
import { linkList, nextOnlyPager, type Frame } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { hash32, Rng } from "../random";
import { humanBytes } from "../text";
import { pageCount } from "./common";
import { MINISTRY_PAGES } from "./ministry-layout";
import {
  attachments, imageMediaId, itemMonth, itemPath, itemTitle, PER_PAGE, releaseTopics,
  type Collection, type MinistryModel,
} from "./ministry-model";

function attachmentBlock(s: HtmlSink, m: MinistryModel, c: Collection, id: number): void {
  const files = attachments(m, c, id);
  if (files.length === 0) return;
  s.open("div", "field field--name-field-attachments field--type-file");
  for (const f of files) {
    s.open("div", "field__item");
    s.open("span", `file file--mime-${f.file.format} file--${f.file.format}`);
    s.a(f.href, f.label, undefined, `type="${mimeOf(FORMATS[f.file.format].contentType)}"`);
    s.close("span");
    s.el("span", "file-size", humanBytes(f.file.bytes));
    s.close("div");
  }
  s.close("div");
}

function teaser(s: HtmlSink, m: MinistryModel, c: Collection, id: number): void {
  s.open("div", "views-row");
  s.open("article", `node node--type-${c.key} node--view-mode-teaser`);
  s.open("h3", "node__title");
  s.a(itemPath(m, c, id), itemTitle(m, c, id), undefined, `rel="bookmark"`);
  s.close("h3");
  s.el("div", "field field--name-field-date", itemMonth(m, c, id));
  // Documents hang off list items: a crawler can harvest them from the list alone.
  if (c.key !== "speeches") attachmentBlock(s, m, c, id);
  s.close("article");
  s.close("div");
}

/**
 * A next-only list: page 0 at `base`, then `base?page=1`, … (Drupal counts from 0).
 * `ids` lists the items newest first (null: the whole collection).
 */
export function listPage(s: HtmlSink, m: MinistryModel, frame: Frame, c: Collection, page: number, base: string, title: string, ids: Int32Array | null): void {
  const total = ids === null ? c.count : ids.length;
  const pages = pageCount(total, PER_PAGE);
  frame(s, { title: page === 0 ? title : `${title} (page ${page + 1})`, bodyClass: `path-${c.key}`, crumbs: [["Home", "/"]] }, () => {
    s.el("h1", "page-title", title);
    s.open("div", `views-element-container`);
    s.open("div", `view view-${c.key} view-display-id-page_1`);
    s.open("div", "view-content");
    for (let k = page * PER_PAGE; k < Math.min(total, (page + 1) * PER_PAGE); k++) teaser(s, m, c, ids === null ? c.count - k : ids[k]!);
    s.close("div");
    nextOnlyPager(s, page + 1 < pages ? `${base}?page=${page + 1}` : null);
    s.close("div");
    s.close("div");
  });
}

export function itemPage(s: HtmlSink, m: MinistryModel, frame: Frame, c: Collection, id: number): void {
  const r = new Rng(hash32(m.seed, 0x1e + c.index, id));
  const title = itemTitle(m, c, id);
  frame(s, { title, bodyClass: `path-node page-node-type-${c.key}`, crumbs: [["Home", "/"], [c.label, `/${c.key}`]] }, () => {
    s.open("article", `node node--type-${c.key} node--view-mode-full`);
    s.el("h1", "page-title", title);
    s.el("div", "field field--name-field-date", itemMonth(m, c, id));
    const img = r.float();
    if (img < 0.1) s.a(`/media/${imageMediaId(c, id)}/download`, "Photo", "media-link");
    else if (img < 0.25) s.a(`/sites/default/files/styles/large/public/${itemMonth(m, c, id)}/photo-${id}.jpg?itok=${(hash32(id) % 0xfffff).toString(36)}`, "Photo", "media-link");
    s.open("div", "field field--name-body text-formatted");
    for (let k = 0; k < 3; k++) s.para(hash32(m.seed, 0xb0d + c.index, id, k), 70);
    s.close("div");
    attachmentBlock(s, m, c, id);
    if (c.key === "press-releases") {
      s.open("div", "field field--name-field-topics");
      for (const t of releaseTopics(m.seed, id, m.topics.length)) s.a(`/topics/${m.topics[t]!.slug}`, m.topics[t]!.name, "topic-tag");
      s.close("div");
    }
    s.close("article");
    s.open("div", "block block-related");
    s.el("h2", undefined, "Read also");
    s.open("ul", "related-list");
    for (let k = 0; k < 3; k++) {
      const other = 1 + ((id - 1 + c.count + r.int(31) - 15) % c.count);
      const roll = r.float();
      s.open("li");
      if (roll < 0.012) s.a(`/${c.key}/${c.count + 100 + r.int(999)}-archived`, "Archived item");
      else if (roll < 0.06 && c.key === "press-releases") s.a(`/actualites/${other}`, itemTitle(m, c, other));
      else s.a(itemPath(m, c, other), itemTitle(m, c, other));
      s.close("li");
    }
    s.close("ul");
    s.close("div");
  });
}

export function topicsIndex(s: HtmlSink, m: MinistryModel, frame: Frame): void {
  frame(s, { title: "All topics", bodyClass: "path-topics", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", "page-title", "All topics");
    linkList(s, m.topics.map((t) => [t.name, `/topics/${t.slug}`] as const), "topic-list", "topic-list__item");
  });
}

export function topicPage(s: HtmlSink, m: MinistryModel, frame: Frame, t: number): void {
  const topic = m.topics[t]!;
  const ids = m.releasesByTopic[t]!;
  const c = m.collections[0]!;
  frame(s, { title: topic.name, bodyClass: "path-topic", crumbs: [["Home", "/"], ["Topics", "/topics"]] }, () => {
    s.el("h1", "page-title", topic.name);
    s.para(hash32(m.seed, 0x70d, t), 80);
    s.open("div", "block block-topic-news");
    s.el("h2", undefined, "Latest press releases");
    s.open("ul", "topic-news");
    for (let k = 0; k < Math.min(5, ids.length); k++) {
      s.open("li");
      s.a(itemPath(m, c, ids[k]!), itemTitle(m, c, ids[k]!));
      s.close("li");
    }
    s.close("ul");
    s.a(`/topics/${topic.slug}/press-releases`, "All press releases on this topic", "more-link");
    s.a(`/search?keys=${topic.slug}`, "Search this topic", "more-link");
    s.close("div");
  });
}

export function ministryStaticPage(s: HtmlSink, m: MinistryModel, frame: Frame, path: string): void {
  const title = MINISTRY_PAGES[path] ?? (path === "/newsletter/subscribe" ? "Newsletter" : "Page");
  frame(s, { title, bodyClass: "path-page", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", "page-title", title);
    for (let k = 0; k < 4; k++) s.para(hash32(m.seed, path.length * 7 + k), 80);
    if (path === "/sitemap") {
      linkList(s, Object.entries(MINISTRY_PAGES).map(([p, t]) => [t, p] as const), "sitemap");
      linkList(s, m.collections.map((c) => [c.label, `/${c.key}`] as const), "sitemap");
    }
    if (path === "/contact") s.iframe("https://www.openstreetmap.org/export/embed.html?bbox=2.31,48.85,2.32,48.86", "Map");
  });
}

export function ministryHome(s: HtmlSink, m: MinistryModel, frame: Frame): void {
  frame(s, { title: "Home", bodyClass: "path-frontpage" }, () => {
    s.open("div", "block block-hero");
    s.el("h1", undefined, "Ministry of Territorial Cohesion");
    s.para(m.seed, 40);
    s.close("div");
    for (const c of m.collections) {
      s.open("section", `block block-latest block-latest--${c.key}`);
      s.el("h2", undefined, c.label);
      s.open("ul", "latest-list");
      for (let id = c.count; id > Math.max(0, c.count - 3); id--) {
        s.open("li");
        s.a(itemPath(m, c, id), itemTitle(m, c, id));
        s.close("li");
      }
      s.close("ul");
      s.a(`/${c.key}`, `All ${c.label.toLowerCase()}`, "more-link");
      s.close("section");
    }
    s.open("section", "block block-agenda");
    s.a("/agenda", "The minister's agenda", "more-link");
    s.close("section");
  });
}
