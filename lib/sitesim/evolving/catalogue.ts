/**
 * An evolving site: a statistics publication catalogue that exists in versions, for re-crawls.
 * Version 1 publishes `items` publications in a few sections; version 2 publishes new ones,
 * adds a file to some old ones, revises a few files (same URL, new bytes) and removes a few.
 * Listings show the most recently updated publications first, as data portals do, so every
 * listing page shifts between versions, and each entry is a link card with the publication's
 * date of last update in it ("Publication 5 · updated 1 Feb 2026"), in every version alike.
 * With `marksUpdates` false the site says nothing of what changed: no dates in entries, and
 * listings show the newest publications first, an updated old one staying where it was; with
 * `addsToOldUnmarked` a further share of old publications gains a file without any sign of it.
 * Deterministic: same options, same site.
 */
import { hash32 } from "../random";

export interface CatalogueOptions {
  /** Publications in version 1. @default 120 */
  items?: number;
  /** Publications per listing page. @default 10 */
  pageSize?: number;
  seed?: number;
  /**
   * Whether the site shows what changed: the "updated <date>" in listing entries and an updated
   * publication moving to the top of its listing (pages then also carry ETags: server.ts).
   * False: entries show only the title, listings are newest publication first. @default true
   */
  marksUpdates?: boolean;
  /** Share of old publications that gain a file in a new version with no marker at all (not listed as updated). @default 0 */
  addsToOldUnmarked?: number;
}

export interface CatalogueFile {
  url: string;
  /** Content revision: a revised file has revision 2. */
  revision: number;
  mime: string;
}

interface Item {
  id: number;
  section: number;
  /** The version that last changed it (listing order: most recent first). */
  updatedIn: number;
  /** The date its listing entry shows ("1 Feb 2026"): when it was published or last changed. */
  updatedOn: string;
  files: CatalogueFile[];
}

/** The files of two versions compared, by URL: what a re-crawl should report. */
export interface CatalogueChanges {
  new: string[];
  changed: string[];
  unchanged: string[];
  gone: string[];
}

export const SECTIONS = ["population", "economy", "environment"] as const;
const FORMATS = [
  { ext: "csv", mime: "text/csv" },
  { ext: "pdf", mime: "application/pdf" },
  { ext: "xlsx", mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
] as const;
/** News articles: pages without files (the part of the site a re-crawl should not need). */
const NEWS_ARTICLES = 30;

export class EvolvingCatalogue {
  readonly itemsV1: number;
  readonly pageSize: number;
  readonly seed: number;
  readonly marksUpdates: boolean;
  readonly addsToOldUnmarked: number;
  private readonly versions = new Map<number, Map<number, Item>>();

  constructor(options: CatalogueOptions = {}) {
    this.itemsV1 = options.items ?? 120;
    this.pageSize = options.pageSize ?? 10;
    this.seed = options.seed ?? 1;
    this.marksUpdates = options.marksUpdates ?? true;
    this.addsToOldUnmarked = options.addsToOldUnmarked ?? 0;
    if (!(this.addsToOldUnmarked >= 0 && this.addsToOldUnmarked <= 1)) throw new RangeError(`addsToOldUnmarked must be a share between 0 and 1, not ${String(options.addsToOldUnmarked)}`);
  }

  /** The publications of a version (1 or 2), by id. */
  items(version: number): Map<number, Item> {
    const cached = this.versions.get(version);
    if (cached) return cached;
    const built = version <= 1 ? this.buildV1() : this.evolve(this.items(version - 1), version);
    this.versions.set(version, built);
    return built;
  }

  private rand(a: number, b = 0): number {
    return hash32(this.seed, a, b) / 2 ** 32;
  }

  private fileOf(id: number, k: number, revision: number): CatalogueFile {
    const format = FORMATS[(id + k) % FORMATS.length]!;
    return { url: `/files/${id}/table-${k}.${format.ext}`, revision, mime: format.mime };
  }

  /** Version 1's publications appeared one every other day up to the end of 2025, oldest first. */
  private firstPublished(id: number): string {
    return listingDate(Date.UTC(2025, 11, 31) - Math.floor((this.itemsV1 - id) / 2) * 86_400_000);
  }

  private buildV1(): Map<number, Item> {
    const items = new Map<number, Item>();
    for (let id = 1; id <= this.itemsV1; id++) {
      const count = 1 + Math.floor(this.rand(id, 1) * 3);
      const files = Array.from({ length: count }, (_, k) => this.fileOf(id, k + 1, 1));
      items.set(id, { id, section: id % SECTIONS.length, updatedIn: 1, updatedOn: this.firstPublished(id), files });
    }
    return items;
  }

  /**
   * Version n+1: 12 % new publications (ids after the last), 5 % of the old ones gain a file,
   * 4 % have a file revised, 3 % lose one (the publication keeps at least one file), and
   * `addsToOldUnmarked` of them gain a file that leaves their date and place as they were.
   */
  private evolve(previous: Map<number, Item>, version: number): Map<number, Item> {
    const items = new Map<number, Item>();
    for (const [id, item] of previous) items.set(id, { ...item, files: item.files.map((file) => ({ ...file })) });
    const oldIds = [...previous.keys()];
    const pick = (salt: number, share: number) => oldIds.filter((id) => this.rand(id, version * 100 + salt) < share);
    // Every change of a version is published on its first day (version 2: 1 Feb 2026).
    const updatedOn = listingDate(Date.UTC(2026, version - 1, 1));
    for (const id of pick(1, 0.05)) {
      const item = items.get(id)!;
      const next = Math.max(...item.files.map((file) => Number(/table-(\d+)/.exec(file.url)![1]))) + 1;
      item.files.push(this.fileOf(id, next, 1));
      Object.assign(item, { updatedIn: version, updatedOn });
    }
    for (const id of pick(2, 0.04)) {
      const item = items.get(id)!;
      item.files[0] = { ...item.files[0]!, revision: item.files[0]!.revision + 1 };
      Object.assign(item, { updatedIn: version, updatedOn });
    }
    for (const id of pick(3, 0.03)) {
      const item = items.get(id)!;
      if (item.files.length < 2) continue;
      item.files.pop();
      Object.assign(item, { updatedIn: version, updatedOn });
    }
    for (const id of pick(4, this.addsToOldUnmarked)) {
      const item = items.get(id)!;
      const next = Math.max(...item.files.map((file) => Number(/table-(\d+)/.exec(file.url)![1]))) + 1;
      item.files.push(this.fileOf(id, next, 1));
    }
    const firstNew = Math.max(...oldIds) + 1;
    const added = Math.max(1, Math.round(oldIds.length * 0.12));
    for (let id = firstNew; id < firstNew + added; id++) {
      const count = 1 + Math.floor(this.rand(id, 1) * 3);
      items.set(id, { id, section: id % SECTIONS.length, updatedIn: version, updatedOn, files: Array.from({ length: count }, (_, k) => this.fileOf(id, k + 1, 1)) });
    }
    return items;
  }

  /** Every file of a version, by URL. */
  files(version: number): Map<string, CatalogueFile> {
    const files = new Map<string, CatalogueFile>();
    for (const item of this.items(version).values()) for (const file of item.files) files.set(file.url, file);
    return files;
  }

  /** Ground truth of a re-crawl of `to` after a crawl of `from` that collected every file. */
  changes(from: number, to: number): CatalogueChanges {
    const before = this.files(from);
    const after = this.files(to);
    const result: CatalogueChanges = { new: [], changed: [], unchanged: [], gone: [] };
    for (const [url, file] of after) {
      const old = before.get(url);
      if (!old) result.new.push(url);
      else if (old.revision !== file.revision) result.changed.push(url);
      else result.unchanged.push(url);
    }
    for (const url of before.keys()) if (!after.has(url)) result.gone.push(url);
    for (const list of Object.values(result) as string[][]) list.sort();
    return result;
  }

  /** A section's publications, most recently updated first (newest id first among equals); newest id first when the site marks no updates. */
  listing(version: number, section: number): Item[] {
    return [...this.items(version).values()]
      .filter((item) => item.section === section)
      .sort((a, b) => (this.marksUpdates ? b.updatedIn - a.updatedIn : 0) || b.id - a.id);
  }

  /** Routes a path of a version: a page's HTML, a file, or null (404). */
  route(version: number, path: string, query: URLSearchParams): { kind: "page"; html: string } | { kind: "file"; file: CatalogueFile; body: Buffer } | null {
    if (path === "/") return { kind: "page", html: this.home() };
    let match = /^\/section\/([a-z]+)$/.exec(path);
    if (match) {
      const section = SECTIONS.indexOf(match[1] as (typeof SECTIONS)[number]);
      if (section < 0) return null;
      const page = Number(query.get("page") ?? "1");
      const list = this.listing(version, section);
      const pages = Math.max(1, Math.ceil(list.length / this.pageSize));
      if (!Number.isInteger(page) || page < 1 || page > pages) return null;
      return { kind: "page", html: this.listingPage(section, page, pages, list.slice((page - 1) * this.pageSize, page * this.pageSize)) };
    }
    match = /^\/publication\/(\d+)$/.exec(path);
    if (match) {
      const item = this.items(version).get(Number(match[1]));
      return item ? { kind: "page", html: this.itemPage(item, version) } : null;
    }
    match = /^\/news\/(\d+)$/.exec(path);
    if (match) {
      const n = Number(match[1]);
      return n >= 1 && n <= NEWS_ARTICLES ? { kind: "page", html: this.newsPage(n) } : null;
    }
    if (path === "/news") return { kind: "page", html: this.newsIndex() };
    const file = this.files(version).get(path);
    if (file) return { kind: "file", file, body: fileBody(file, this.seed) };
    return null;
  }

  private frame(title: string, body: string): string {
    const nav = SECTIONS.map((s) => `<li><a href="/section/${s}">${s}</a></li>`).join("");
    return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body><header><nav><ul class="menu"><li><a href="/">Home</a></li>${nav}<li><a href="/news">News</a></li></ul></nav></header><main>${body}</main><footer><p>Statistics catalogue</p></footer></body></html>`;
  }

  private home(): string {
    return this.frame("Catalogue", `<h1>Catalogue</h1><ul class="sections">${SECTIONS.map((s) => `<li><a href="/section/${s}">${s}</a></li>`).join("")}</ul>`);
  }

  private listingPage(section: number, page: number, pages: number, items: Item[]): string {
    const updated = (item: Item) => (this.marksUpdates ? ` <span class="updated">· updated ${item.updatedOn}</span>` : "");
    const rows = items.map((item) => `<li class="result"><h2><a href="/publication/${item.id}">Publication ${item.id}${updated(item)}</a></h2></li>`).join("");
    const pager = Array.from({ length: pages }, (_, i) => `<a class="page" href="/section/${SECTIONS[section]}?page=${i + 1}">${i + 1}</a>`).join(" ");
    return this.frame(`${SECTIONS[section]} ${page}`, `<h1>${SECTIONS[section]}</h1><ol class="results">${rows}</ol><div class="pager">${pager}</div>`);
  }

  private itemPage(item: Item, version: number): string {
    const files = item.files.map((file) => `<li class="download"><a href="${file.url}">${file.url.split("/").pop()}</a></li>`).join("");
    const related = [item.id + 7, item.id + 13]
      .filter((id) => this.items(version).has(id))
      .map((id) => `<li><a href="/publication/${id}">Publication ${id}</a></li>`)
      .join("");
    return this.frame(`Publication ${item.id}`, `<article><h1>Publication ${item.id}</h1><ul class="downloads">${files}</ul><aside><ul class="related">${related}</ul></aside></article>`);
  }

  private newsIndex(): string {
    const rows = Array.from({ length: NEWS_ARTICLES }, (_, i) => `<li><a href="/news/${i + 1}">News ${i + 1}</a></li>`).join("");
    return this.frame("News", `<h1>News</h1><ul class="news">${rows}</ul>`);
  }

  private newsPage(n: number): string {
    const next = n < NEWS_ARTICLES ? `<a href="/news/${n + 1}">Next</a>` : "";
    return this.frame(`News ${n}`, `<article class="news"><h1>News ${n}</h1><p>Text.</p>${next}</article>`);
  }
}

/** "1 Feb 2026", as listings print dates. */
function listingDate(ms: number): string {
  return new Date(ms).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });
}

/** A file's bytes: its URL, revision and the site's seed decide them. */
export function fileBody(file: CatalogueFile, seed: number): Buffer {
  const lines = [`file,${file.url},revision,${file.revision}`];
  for (let row = 0; row < 40; row++) lines.push(`${row},${hash32(seed, row, file.revision, file.url.length)}`);
  return Buffer.from(lines.join("\n") + "\n", "utf8");
}
