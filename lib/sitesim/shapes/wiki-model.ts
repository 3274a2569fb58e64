/**
 * Wiki (MediaWiki) data model: every page (articles in topical areas, glossary
 * entries, portals, categories, file description pages, talk and user pages, help,
 * project pages, templates, redirects), every revision (global ids in time order, the
 * `oldid`s), every uploaded file (format, versions, deleted or lost) and who links
 * what. Pages are added until the estimated number of finite URLs they bring (the page,
 * its talk tab, "View source", six history listings, page information, printable
 * version and the revision and diff pages) reaches the requested size. Small wikis cover
 * fewer areas and have fewer help pages and templates.
 */
import type { FormatName } from "../formats";
import { hash32, Rng } from "../random";
import {
  FIXED_USERS, fileName, glossaryTerm, HELP_PAGES, imageName, PROJECT_PAGES, SISTER_LANGUAGES, TEMPLATES, userName,
  WIKI_AREAS, wikiTopic,
} from "./wiki-text";
import { dbKey, NS, type WikiTitle } from "./wiki-urls";

export type PageKind =
  | "main" | "portal" | "article" | "glossary" | "file" | "category" | "help" | "project" | "template" | "user" | "talk" | "redirect";

/** How an article links one of its files. */
export type FileLink = "media" | "page" | "both" | "none";

export interface WikiPage {
  id: number;
  title: WikiTitle;
  /** DB key ("Talk:Foo_bar"). */
  key: string;
  kind: PageKind;
  /** Topical area (index in WIKI_AREAS); -1 outside the areas. */
  area: number;
  /** Revision indices (into the model's rev arrays), oldest first. */
  revs: number[];
  /** Talk page index, -1 when there is none (the tab is a red link); on a talk page its subject. */
  talk: number;
  /** Redirect pages: the page index they point to; -1 otherwise. */
  redirectTo: number;
  links: number[];
  redLinks: WikiTitle[];
  /** Files of the article, with how each is linked. */
  files: Array<{ file: number; link: FileLink }>;
  categories: number[];
  templates: number[];
  /** Bitmask over SISTER_LANGUAGES: interlanguage links. */
  langs: number;
  /** File description pages: the file; category pages: the category; user pages: the user. -1 otherwise. */
  ref: number;
  seed: number;
}

export interface WikiFile {
  /** DB key ("Housing_table_2019.xlsx"). */
  name: string;
  format: FormatName;
  page: number;
  /** Article that uses it; -1 for orphans (only categories and Special:ListFiles list them). */
  owner: number;
  /** ok; deleted: the description page stayed, the file is gone; lost: listed as present, 404 on disk. */
  status: "ok" | "deleted" | "lost";
  /** Upload times (minutes), oldest first; the last one is the current version. */
  uploads: number[];
  uploader: number;
  seed: number;
  image: boolean;
}

export interface WikiCategory {
  page: number;
  parent: number;
  /** Member pages (not files, not categories), in title order. */
  members: number[];
  /** File description pages, in title order. */
  files: number[];
  subcats: number[];
}

export interface WikiModel {
  seed: number;
  pages: WikiPage[];
  files: WikiFile[];
  categories: WikiCategory[];
  users: string[];
  /** User page index of each user, -1 when the user has none. */
  userPage: number[];
  userTalkPage: number[];
  byKey: Map<string, number>;
  fileByName: Map<string, number>;
  /** Per revision: page, time (minutes since 2011-01-01), author, size in bytes. */
  revPage: Int32Array;
  revMinute: Int32Array;
  revUser: Int32Array;
  revBytes: Int32Array;
  /** Page indices linking to each page (What links here). */
  backlinks: number[][];
  /** File usage: pages using each file. */
  usage: number[][];
  mainPage: number;
  portals: number[];
  /** Where Special:Random sends everyone, fixed per seed. */
  randomTarget: number;
}

/** First revision id: oldids start here. */
export const REV_BASE = 1200;
/** Category listing size (pages, files and subcategories each). */
export const CATEGORY_PAGE_SIZE = 200;
/** Revisions a page can have: history listings never need an "older" link. */
export const MAX_REVS = 20;
const SPAN_MINUTES = 13 * 336 * 1440;

/**
 * Finite URLs one title brings, for sizing: the view, its talk tab (a red link: 302 and
 * 404), View source, history, page information, printable version and permanent link,
 * then per older revision its view, two `direction` and three `diff` spellings, the two
 * history diffs and its View source.
 */
function titleCost(revs: number): number {
  return 8 + 9 * (revs - 1);
}

export function revId(rev: number): number {
  return REV_BASE + rev;
}

export function latestRev(p: WikiPage): number {
  return p.revs[p.revs.length - 1]!;
}

/** @param n approximate number of finite URLs wanted */
export function buildWikiModel(seed: number, n: number): WikiModel {
  const rng = new Rng(hash32(seed, 0x3141));
  const pages: WikiPage[] = [];
  const files: WikiFile[] = [];
  const categories: WikiCategory[] = [];
  const byKey = new Map<string, number>();
  const fileByName = new Map<string, number>();
  let cost = 0;

  const drawRevs = (p: number, max = MAX_REVS) => {
    let r = 1;
    while (r < max && rng.chance(p)) r++;
    return r;
  };
  const revCount: number[] = [];
  function addPage(title: WikiTitle, kind: PageKind, area: number, revs: number, ref = -1): number {
    const key = dbKey(title);
    const existing = byKey.get(key);
    if (existing !== undefined) return -1;
    const i = pages.length;
    pages.push({
      id: 1 + i, title, key, kind, area, revs: [], talk: -1, redirectTo: -1, links: [], redLinks: [], files: [], categories: [], templates: [],
      langs: 0, ref, seed: hash32(seed, 0x9a6e, i),
    });
    byKey.set(key, i);
    revCount.push(revs);
    cost += titleCost(revs);
    return i;
  }
  function addCategory(name: string, parent: number): number {
    const page = addPage({ ns: NS.category, text: name }, "category", -1, drawRevs(0.15, 3), categories.length);
    categories.push({ page, parent, members: [], files: [], subcats: [] });
    if (parent >= 0) categories[parent]!.subcats.push(categories.length - 1);
    return categories.length - 1;
  }

  // Users: a few regulars, a bot, the administrator.
  const users = [...FIXED_USERS];
  const userCount = Math.min(60, Math.max(5, Math.round(Math.sqrt(n) / 3)));
  while (users.length < userCount) {
    const u = userName(rng);
    if (!users.includes(u)) users.push(u);
  }
  const userPage = users.map(() => -1);
  const userTalkPage = users.map(() => -1);
  /** Editors, most edits by a few (Zipf-like). */
  const pickUser = (r: Rng) => Math.min(users.length - 1, Math.floor(users.length * Math.pow(r.float(), 2.2)));

  // The fixed part: main page, portals, help, project pages, templates, categories.
  const mainPage = addPage({ ns: 0, text: "Main Page" }, "main", -1, Math.min(MAX_REVS, 2 + Math.round(n / 2500)));
  // Small wikis cover fewer areas and have written fewer help pages and templates.
  const tier = n < 600 ? 0 : n < 3000 ? 1 : 2;
  const areas = WIKI_AREAS.slice(0, [4, 7, WIKI_AREAS.length][tier]);
  const templateCount = [2, 6, TEMPLATES.length][tier]!;
  const portals = areas.map((a, k) => addPage({ ns: 0, text: a.name }, "portal", k, drawRevs(tier === 0 ? 0.2 : 0.5)));
  for (const h of HELP_PAGES.slice(0, [1, 4, HELP_PAGES.length][tier])) addPage({ ns: NS.help, text: h }, "help", -1, drawRevs(0.25));
  for (const p of PROJECT_PAGES.slice(0, [3, 5, PROJECT_PAGES.length][tier])) addPage({ ns: NS.project, text: p }, "project", -1, drawRevs(0.25));
  for (const t of TEMPLATES.slice(0, templateCount)) addPage({ ns: NS.template, text: t }, "template", -1, drawRevs(0.3, 6));
  const areaCats = areas.map((a) => addCategory(a.name, -1));
  const glossaryCat = addCategory("Glossary", -1);
  const stubCat = addCategory("Stubs", -1);
  const filesCat = addCategory("Uploaded files", -1);
  // Topics per area; medium and larger wikis split each area into topic subcategories.
  const subcatCount = n < 4000 ? 0 : Math.min(10, 1 + Math.round(n / 5000));
  const areaTopics = areas.map(() => {
    const topics: string[] = [];
    for (let tries = 0; topics.length < Math.max(4, subcatCount) && tries < 200; tries++) {
      const t = wikiTopic(rng);
      if (!topics.includes(t)) topics.push(t);
    }
    return topics;
  });
  const topicCats = areas.map((a, k) =>
    areaTopics[k]!.slice(0, subcatCount).map((t) => addCategory(`${t} (${a.name.toLowerCase()})`, areaCats[k]!)));
  for (let u = 3; u < users.length; u++) {
    if (rng.chance(0.45)) userPage[u] = addPage({ ns: NS.user, text: users[u]! }, "user", -1, drawRevs(0.3, 5), u);
    if (rng.chance(0.2)) userTalkPage[u] = addPage({ ns: NS.userTalk, text: users[u]! }, "talk", -1, drawRevs(0.5, 8), u);
  }
  userPage[0] = addPage({ ns: NS.user, text: users[0]! }, "user", -1, 2, 0);
  users.forEach((_, u) => {
    // Signatures and histories link every user's page and talk page: red links (302, 404) when missing.
    cost += (userPage[u]! < 0 ? 2 : 0) + (userTalkPage[u]! < 0 ? 2 : 0);
    if (userPage[u]! >= 0 && userTalkPage[u]! >= 0) {
      pages[userPage[u]!]!.talk = userTalkPage[u]!;
      pages[userTalkPage[u]!]!.talk = userPage[u]!;
    }
  });

  // Articles until the budget is spent: each brings its files, red links, sometimes a glossary entry.
  const weights = areas.map((a) => a.weight);
  const totalWeight = weights.reduce((x, y) => x + y, 0);
  const articles: number[] = [];
  const glossary: number[] = [];
  const areaArticles: number[][] = areas.map(() => []);
  const newFile = (name: string, format: FormatName, owner: number, image: boolean, r: Rng): number => {
    const key = name.replace(/ /g, "_");
    if (fileByName.has(key)) return -1;
    const status = image ? "ok" : r.chance(0.04) ? "deleted" : r.chance(0.015) ? "lost" : "ok";
    // Data tables are re-uploaded under the same name at each release; documents now and then.
    const series = owner >= 0 && pages[owner]!.area === 0 && !image && format !== "txt";
    const versions = status === "ok" && r.chance(image ? 0.08 : series ? 0.35 : 0.12) ? 2 + r.int(series ? 6 : 2) : 1;
    const k = files.length;
    const page = addPage({ ns: NS.file, text: name }, "file", owner >= 0 ? pages[owner]!.area : -1, r.chance(0.15) ? 2 : 1, k);
    files.push({ name: key, format, page, owner, status, uploads: new Array<number>(versions).fill(0), uploader: pickUser(r), seed: hash32(seed, 0xf17e, k), image });
    fileByName.set(key, k);
    cost += (status === "deleted" ? 0 : 1) + (versions - 1);
    return k;
  };

  // Tiny wikis: the fixed part brings more red links than the estimate counts.
  for (let guard = 0; (cost < n * (tier === 0 ? 0.85 : 1) || articles.length < 2) && guard < 100_000; guard++) {
    const r = new Rng(hash32(seed, 0xa271, guard));
    if (articles.length >= 3 && r.chance(0.1)) {
      const g = addPage({ ns: NS.glossary, text: glossaryTerm(r) }, "glossary", -1, drawRevs(0.3, 6));
      if (g >= 0) {
        glossary.push(g);
        pages[g]!.categories.push(categories[glossaryCat]!.page);
      }
      continue;
    }
    // The wiki was started to share data: its first articles are datasets, all with files.
    const founding = articles.length < 2;
    let x = r.float() * totalWeight;
    let area = 0;
    while (!founding && x >= weights[area]! && area < weights.length - 1) x -= weights[area++]!;
    const a = areas[area]!;
    const topicIndex = r.int(areaTopics[area]!.length);
    const topic = areaTopics[area]![topicIndex]!;
    const title = a.title(r, topic, 2008 + r.int(16));
    const p = addPage({ ns: 0, text: title }, "article", area, drawRevs(0.52));
    if (p < 0) continue;
    articles.push(p);
    areaArticles[area]!.push(p);
    const page = pages[p]!;
    const cats = topicCats[area]!;
    page.categories.push(categories[topicIndex < cats.length ? cats[topicIndex]! : areaCats[area]!]!.page);
    if (r.chance(0.08)) page.categories.push(categories[stubCat]!.page);
    if (founding || r.chance(a.fileRate)) {
      // Long file series belong to established wikis.
      const count = (founding ? 3 : 1) + Math.floor(Math.min(a.maxFiles, 2 + n / 250) * Math.pow(r.float(), 1.6));
      for (let k = 0; k < count; k++) {
        let fx = r.float() * a.formats.reduce((s, [, w]) => s + w, 0);
        let fi = 0;
        while (fx >= a.formats[fi]![1] && fi < a.formats.length - 1) fx -= a.formats[fi++]![1];
        const format = a.formats[fi]![0];
        const f = newFile(fileName(r, title, format, k), format, p, false, r);
        if (f < 0) continue;
        const link: FileLink = r.chance(0.05) ? "none" : area === 0 ? (r.chance(0.7) ? "media" : r.chance(0.5) ? "page" : "both") : r.chance(0.45) ? "media" : r.chance(0.6) ? "page" : "both";
        page.files.push({ file: f, link });
      }
    }
    if (r.chance(a.imageRate)) {
      for (let k = 0, count = 1 + (r.chance(0.3) ? 1 : 0); k < count; k++) {
        const name = imageName(r, title, k);
        const f = newFile(name, name.endsWith(".jpg") ? "jpg" : "png", p, true, r);
        if (f >= 0) page.files.push({ file: f, link: "page" });
      }
    }
    // Templates (those the wiki has): infoboxes on datasets and publications, citations, stubs, navboxes.
    const use = (t: number, yes: boolean) => yes && t < templateCount && page.templates.push(t);
    use(0, area === 0);
    use(1, area === 1);
    use(2, r.chance(0.5));
    use(3, page.categories.length > 1);
    use(4, r.chance(0.3));
    use(7, r.chance(0.1));
    // Red links: pages someone meant to write.
    for (let k = 0, count = r.chance(0.35) ? 1 + r.int(2) : 0; k < count; k++) {
      const missing: WikiTitle = { ns: 0, text: `${topic} ${r.pick(["statistics", "data", "indicators", "overview", "notes"])}${r.chance(0.5) ? ` (${2010 + r.int(14)})` : ""}` };
      if (!byKey.has(dbKey(missing))) {
        page.redLinks.push(missing);
        cost += 2;
      }
    }
    if (r.chance(0.15)) page.langs = 1 + r.int((1 << SISTER_LANGUAGES.length) - 1);
    cost += 1;
  }

  // Orphan uploads: files nobody links (only Special:ListFiles and their category list them).
  for (let k = 0, count = Math.round(files.length * 0.05); k < count; k++) {
    const r = new Rng(hash32(seed, 0x0f4, k));
    const format = r.pick(["pdf", "xlsx", "csv", "docx"] as const);
    newFile(`Scan ${1000 + r.int(9000)} ${r.pick(["upload", "draft", "copy"])}.${format}`, format, -1, false, r);
  }

  // Links between pages: within the area mostly, to the portal, to glossary entries.
  for (const p of articles) {
    const page = pages[p]!;
    const r = new Rng(hash32(seed, 0x11c, p));
    const same = areaArticles[page.area]!;
    const want = 2 + r.int(6);
    for (let k = 0; k < want; k++) {
      const q = r.chance(0.7) ? r.pick(same) : r.pick(articles);
      if (q !== p && !page.links.includes(q)) page.links.push(q);
    }
    page.links.push(portals[page.area]!);
    if (glossary.length > 0) for (let k = 0, g = r.int(3); k < g; k++) {
      const q = r.pick(glossary);
      if (!page.links.includes(q)) page.links.push(q);
    }
  }
  for (const g of glossary) {
    const r = new Rng(hash32(seed, 0x6105, g));
    if (articles.length > 0 && r.chance(0.6)) pages[g]!.links.push(r.pick(articles));
    if (5 < templateCount) pages[g]!.templates.push(5);
  }

  // Redirects: old names of some articles, still linked from other articles.
  for (const p of [...articles]) {
    const r = new Rng(hash32(seed, 0x4ed, p));
    if (!r.chance(0.07)) continue;
    const t = pages[p]!.title.text;
    const alias = t.replace(/ ([a-z])/g, (_, c: string) => " " + c.toUpperCase());
    const text = alias !== t ? alias : `${t} (${areas[pages[p]!.area]!.name.toLowerCase()})`;
    const q = addPage({ ns: 0, text }, "redirect", pages[p]!.area, 1);
    if (q < 0) continue;
    pages[q]!.redirectTo = p;
    const from = r.pick(articles);
    if (from !== p) pages[from]!.links.push(q);
  }

  // Talk pages: some articles, files and portals are discussed.
  const discussed = [mainPage, ...portals, ...articles, ...files.map((f) => f.page)];
  for (const p of discussed) {
    const page = pages[p]!;
    const r = new Rng(hash32(seed, 0x7a1c, p));
    if (!(p === mainPage || r.chance(page.kind === "file" ? 0.03 : page.kind === "portal" ? 0.5 : 0.12))) continue;
    const t = addPage({ ns: page.title.ns + 1, text: page.title.text }, "talk", page.area, drawRevs(0.45, 10));
    if (t < 0) continue;
    page.talk = t;
    pages[t]!.talk = p;
    cost -= 2;
  }

  // Categories: members in title order (MediaWiki's "uppercase" collation).
  const byTitle = (a: number, b: number) => {
    const x = pages[a]!.title.text.toUpperCase();
    const y = pages[b]!.title.text.toUpperCase();
    return x < y ? -1 : x > y ? 1 : a - b;
  };
  pages.forEach((page, i) => {
    for (const c of page.categories) categories[pages[c]!.ref]!.members.push(i);
  });
  files.forEach((f, k) => {
    const r = new Rng(hash32(seed, 0xca7, k));
    const owner = f.owner >= 0 ? pages[f.owner]! : null;
    const cat = owner && r.chance(0.7) ? pages[owner.categories[0]!]!.ref : filesCat;
    pages[f.page]!.categories.push(categories[cat]!.page);
    categories[cat]!.files.push(f.page);
  });
  for (const c of categories) {
    c.members.sort(byTitle);
    c.files.sort(byTitle);
    c.subcats.sort((a, b) => byTitle(categories[a]!.page, categories[b]!.page));
  }
  for (let k = 0; k < areas.length; k++) pages[portals[k]!]!.categories.push(categories[areaCats[k]!]!.page);
  for (const k of areaCats) {
    const portal = portals[areaCats.indexOf(k)]!;
    categories[k]!.members.push(portal);
    categories[k]!.members.sort(byTitle);
  }

  // Revisions: each page created at a time that grows with its index, edited later; ids in time order.
  const created = pages.map((_, i) => Math.floor(((i + rng.float()) / pages.length) * SPAN_MINUTES * 0.85));
  files.forEach((f) => {
    const r = new Rng(hash32(seed, 0x0b1, f.page));
    const start = f.owner >= 0 ? created[f.owner]! + r.int(1440 * 20) : created[f.page]!;
    created[f.page] = start;
    let t = start;
    for (let v = 0; v < f.uploads.length; v++) {
      f.uploads[v] = t;
      t += 1440 * (30 + r.int(600));
      t = Math.min(t, SPAN_MINUTES - 1);
    }
  });
  const all: Array<{ page: number; minute: number; user: number; bytes: number }> = [];
  pages.forEach((page, i) => {
    const r = new Rng(hash32(seed, 0x7e5, i));
    const count = revCount[i]!;
    let t = created[i]!;
    let bytes = 300 + r.int(6000);
    for (let k = 0; k < count; k++) {
      const user = page.kind === "user" && k === 0 ? page.ref : page.kind === "file" && k === 0 ? files[page.ref]!.uploader : pickUser(r);
      all.push({ page: i, minute: t, user, bytes });
      t = Math.min(SPAN_MINUTES - 1, t + 1 + Math.floor(Math.pow(r.float(), 2) * (SPAN_MINUTES - t) * 0.5));
      bytes = Math.max(40, bytes + r.int(1600) - 500);
    }
  });
  all.sort((a, b) => a.minute - b.minute || a.page - b.page);
  const revPage = new Int32Array(all.length);
  const revMinute = new Int32Array(all.length);
  const revUser = new Int32Array(all.length);
  const revBytes = new Int32Array(all.length);
  all.forEach((v, k) => {
    revPage[k] = v.page;
    revMinute[k] = v.minute;
    revUser[k] = v.user;
    revBytes[k] = v.bytes;
    pages[v.page]!.revs.push(k);
  });

  // Who links what (What links here, File usage).
  const backlinks: number[][] = pages.map(() => []);
  const usage: number[][] = files.map(() => []);
  pages.forEach((page, i) => {
    for (const q of page.links) if (!backlinks[q]!.includes(i)) backlinks[q]!.push(i);
    if (page.redirectTo >= 0) backlinks[page.redirectTo]!.push(i);
    for (const { file, link } of page.files) if (link !== "none") usage[file]!.push(i);
  });
  const randomPool = articles.length > 0 ? articles : [mainPage];
  return {
    seed, pages, files, categories, users, userPage, userTalkPage, byKey, fileByName,
    revPage, revMinute, revUser, revBytes, backlinks, usage, mainPage, portals,
    randomTarget: randomPool[hash32(seed, 0x7a4d) % randomPool.length]!,
  };
}

/** "14:02, 3 May 2021" from minutes since 2011-01-01 (12 months of 28 days: a simulated calendar). */
export function formatMinute(minute: number): string {
  const { y, mo, d, h, mi } = splitMinute(minute);
  return `${String(h).padStart(2, "0")}:${String(mi).padStart(2, "0")}, ${d} ${MONTHS[mo - 1]} ${y}`;
}

/** MediaWiki timestamp "20210503140200". */
export function mwTimestamp(minute: number): string {
  const { y, mo, d, h, mi } = splitMinute(minute);
  const p = (x: number) => String(x).padStart(2, "0");
  return `${y}${p(mo)}${p(d)}${p(h)}${p(mi)}00`;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function splitMinute(minute: number): { y: number; mo: number; d: number; h: number; mi: number } {
  const day = Math.floor(minute / 1440);
  const y = 2011 + Math.floor(day / 336);
  const mo = 1 + Math.floor((day % 336) / 28);
  return { y, mo, d: 1 + (day % 28), h: Math.floor((minute % 1440) / 60), mi: minute % 60 };
}
