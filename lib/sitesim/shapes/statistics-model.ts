/**
 * Statistics office (INSEE/ONS-like): the data model and file links. Everything here
 * is either a small array built once or a pure function of (seed, id).
 */
import { fileBytes, type FormatName } from "../formats";
import { hash32, Rng, scrambleId } from "../random";
import { slugify, topicPhrase } from "../text";
import type { FileRef } from "../types";
import { distinctTopics, unevenSplit } from "./common";

export const PUB_BASE_ID = 1000;
export const NEWS_IMAGE_BASE = 100_000;
export const NEWS_PER_PAGE = 12;
export const PUBS_PER_PAGE = 10;

export interface Theme { name: string; slug: string; subs: number[] }
export interface Subtheme { name: string; slug: string; theme: number; first: number; count: number }

export interface StatsModel {
  seed: number;
  themes: Theme[];
  subs: Subtheme[];
  /** Publications are numbered 0..pubCount-1, contiguous per subtheme. */
  pubCount: number;
  pubSub: Uint16Array;
  newsCount: number;
  /** Years of news archives (1–10), ending in 2024: about ten news a month. */
  newsYears: number;
  tags: Array<{ name: string; slug: string }>;
  /** News ids per tag, newest first. */
  newsByTag: Int32Array[];
  regions: Array<{ code: string; name: string }>;
}

const REGION_NAMES = ["North", "North-East", "East", "South-East", "South", "South-West", "West", "North-West", "Centre", "Capital", "Islands", "Highlands", "Coast"];

/** @param n approximate number of finite URLs wanted */
export function buildStatsModel(seed: number, n: number): StatsModel {
  const rng = new Rng(hash32(seed, 0x57a7));
  const themeCount = Math.min(12, Math.max(4, Math.round(2.2 * Math.log2(n / 100))));
  const topics = distinctTopics(rng, themeCount);
  const pubCount = Math.max(12, Math.round(n * 0.09));
  const subCounts = Array.from({ length: themeCount }, () => 2 + rng.int(5));
  const subTotal = subCounts.reduce((a, b) => a + b, 0);
  const perSub = unevenSplit(rng, pubCount, subTotal);
  const themes: Theme[] = [];
  const subs: Subtheme[] = [];
  let first = 0;
  topics.forEach((t, ti) => {
    const theme: Theme = { ...t, subs: [] };
    const used = new Set<string>();
    for (let k = 0; k < (subCounts[ti] as number); k++) {
      let name = topicPhrase(hash32(seed, 0x5b, ti, k));
      while (used.has(slugify(name))) name += " II";
      used.add(slugify(name));
      const count = perSub[subs.length] as number;
      theme.subs.push(subs.length);
      subs.push({ name, slug: slugify(name), theme: ti, first, count });
      first += count;
    }
    themes.push(theme);
  });
  const pubSub = new Uint16Array(pubCount);
  subs.forEach((s, si) => pubSub.fill(si, s.first, s.first + s.count));

  const newsCount = Math.max(20, Math.round(n * 0.34));
  const tags = distinctTopics(new Rng(hash32(seed, 0x7a9)), 8);
  const byTag: number[][] = tags.map(() => []);
  for (let id = newsCount; id >= 1; id--) for (const t of newsTags(seed, id, tags.length)) byTag[t]!.push(id);
  const regionCount = n < 1000 ? 5 : REGION_NAMES.length;
  const regions = REGION_NAMES.slice(0, regionCount).map((name, i) => ({ code: `r${String(i + 1).padStart(2, "0")}`, name }));
  const newsYears = Math.min(10, Math.max(1, Math.round(newsCount / 120)));
  return { seed, themes, subs, pubCount, pubSub, newsCount, newsYears, tags, newsByTag: byTag.map((a) => Int32Array.from(a)), regions };
}

/** Month index (0 = January of `newsFirstYear`) of news `id`; ids are in date order. */
export function newsMonth(m: StatsModel, id: number): number {
  return Math.floor(((id - 1) * m.newsYears * 12) / m.newsCount);
}

/** First and last news id of month index `k` (first > last when the month is empty). */
export function newsOfMonth(m: StatsModel, k: number): [number, number] {
  const months = m.newsYears * 12;
  return [Math.ceil((k * m.newsCount) / months) + 1, Math.ceil(((k + 1) * m.newsCount) / months)];
}

export function monthLabel(m: StatsModel, k: number): string {
  return `${newsFirstYear(m) + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, "0")}`;
}

/** News run from January of this year to December 2024. */
export function newsFirstYear(m: StatsModel): number {
  return 2025 - m.newsYears;
}

/** Tag indices of a news item (one or two). */
export function newsTags(seed: number, id: number, tagCount: number): number[] {
  const h = hash32(seed, 0x7a6, id);
  const a = h % tagCount;
  const b = (h >>> 8) % tagCount;
  return (h >>> 16) % 2 === 0 || a === b ? [a] : [a, b];
}

export type FileStyle = "path" | "download" | "opaque" | "documents";

/** One download link of a publication. */
export interface PubFile {
  href: string;
  label: string;
  state: "ok" | "broken" | "soft404";
  file: FileRef;
}

const EXTRA_FORMATS: FormatName[] = ["xlsx", "csv", "zip", "csv", "xlsx", "xls", "ods", "json", "csv", "txt"];

/**
 * The download links of publication `i`. URL spellings vary on purpose: a path with
 * an extension, `/download?id=…&format=…`, an opaque `/file/<hex>` and an upper-case
 * `/documents/<year>/<NAME>.XLSX`; for the last three only Content-Type tells the type.
 */
export function pubFiles(seed: number, i: number): PubFile[] {
  const r = new Rng(hash32(seed, 0xf11e, i));
  const roll = r.float();
  const n = roll < 0.15 ? 1 : roll < 0.45 ? 2 : roll < 0.75 ? 3 : roll < 0.9 ? 4 : 5 + r.int(2);
  const pubId = PUB_BASE_ID + i;
  const out: PubFile[] = [];
  for (let k = 0; k < n; k++) {
    const format: FormatName = k === 0 ? (r.chance(0.8) ? "pdf" : "xlsx") : r.pick(EXTRA_FORMATS);
    const fileId = i * 8 + k;
    const fseed = hash32(seed, 0xf1, fileId);
    const ext = format === "txt" ? "txt" : format;
    const slug = `${k === 0 ? "publication" : "data"}-${pubId}-${k + 1}`;
    const s = r.float();
    const style: FileStyle = s < 0.55 ? "path" : s < 0.75 ? "download" : s < 0.87 ? "opaque" : s < 0.95 ? "documents" : "path";
    const q = r.float();
    const state = q < 0.015 ? "broken" : q < 0.025 ? "soft404" : "ok";
    let href: string;
    if (style === "download") href = `/download?id=${fileId}&format=${ext}`;
    else if (style === "opaque") href = `/file/${scrambleId(fileId)}`;
    else if (style === "documents") href = `/documents/${2015 + (fseed % 10)}/${slug.toUpperCase()}-${fileId}.${ext.toUpperCase()}`;
    else href = `/files/${pubId}/${slug}.${ext}`;
    if (state === "broken") href = `/files/${pubId}/${slug}-v0.${ext}`;
    const extless = style === "download" || style === "opaque";
    const file: FileRef = { format, bytes: fileBytes(format, fseed), seed: fseed, ...(extless ? { filename: `${slug}.${ext}` } : {}) };
    const label = `${k === 0 ? "Full publication" : "Data"} (${ext.toUpperCase()})`;
    out.push({ href, label, state, file });
  }
  return out;
}

/**
 * Whether publication `i` keeps its data files on a separate "Data" tab page
 * (`/publications/<id>/data`), as INSEE does: one more hop between lists and targets.
 */
export function hasDataTab(seed: number, i: number, fileCount: number): boolean {
  return fileCount > 1 && hash32(seed, 0xda7a, i) % 10 < 6;
}

/** Shared files: linked from many pages (dedup matters) — theme key figures, subtheme methodology, etc. */
export function sharedFile(seed: number, kind: string, key: string, format: FormatName): FileRef {
  const fseed = hash32(seed, 0x5f, (kind.length << 16) ^ key.length, [...key].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7));
  return { format, bytes: fileBytes(format, fseed), seed: fseed };
}
