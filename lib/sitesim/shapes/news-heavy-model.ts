/** News-heavy site: thousands of articles, a small data-journalism desk holding most targets. */
import { fileBytes, type FormatName } from "../formats";
import { hash32, Rng } from "../random";
import { headline, slugify } from "../text";
import type { FileRef } from "../types";
import { distinctTopics } from "./common";

export const SECTIONS = ["politics", "economy", "world", "sport", "culture", "tech"];
export const PER_PAGE = 20;
/** Articles span 2019-01-01 … 2024-06-30. */
export const FIRST_DAY = Date.UTC(2019, 0, 1) / 86_400_000;
export const DAYS = Date.UTC(2024, 5, 30) / 86_400_000 - FIRST_DAY + 1;

export interface NewsModel {
  seed: number;
  articleCount: number;
  storyCount: number;
  tags: Array<{ name: string; slug: string }>;
  /** Article ids per section and per tag, newest first. */
  bySection: Int32Array[];
  byTag: Int32Array[];
  /** Article paths, filled lazily: every page links dozens of articles. */
  pathCache: Array<string | undefined>;
}

export function articleSection(seed: number, id: number): number {
  return hash32(seed, 0x5ec, id) % SECTIONS.length;
}

export function articleTags(seed: number, id: number, tagCount: number): number[] {
  const h = hash32(seed, 0x7a6, id);
  const a = h % tagCount;
  const b = (h >>> 12) % tagCount;
  return a === b ? [a] : [a, b];
}

export function buildNewsModel(seed: number, n: number): NewsModel {
  const articleCount = Math.max(50, Math.round(n * 0.6));
  const storyCount = Math.max(3, Math.round(n * 0.015));
  const tags = distinctTopics(new Rng(hash32(seed, 0x7a9)), Math.min(40, Math.max(8, Math.round(n / 300))));
  const bySection: number[][] = SECTIONS.map(() => []);
  const byTag: number[][] = tags.map(() => []);
  for (let id = articleCount; id >= 1; id--) {
    bySection[articleSection(seed, id)]!.push(id);
    for (const t of articleTags(seed, id, tags.length)) byTag[t]!.push(id);
  }
  const arr = (a: number[][]) => a.map((x) => Int32Array.from(x));
  return { seed, articleCount, storyCount, tags, bySection: arr(bySection), byTag: arr(byTag), pathCache: [] };
}

export function articleDay(m: NewsModel, id: number): number {
  return FIRST_DAY + Math.floor(((id - 1) * DAYS) / m.articleCount);
}

/** First and last article id of a day number (first > last when none). */
export function articlesOfDay(m: NewsModel, day: number): [number, number] {
  const d = day - FIRST_DAY;
  if (d < 0 || d >= DAYS) return [1, 0];
  return [Math.ceil((d * m.articleCount) / DAYS) + 1, Math.ceil(((d + 1) * m.articleCount) / DAYS)];
}

export function dayKey(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

export function articleTitle(m: NewsModel, id: number): string {
  return headline(hash32(m.seed, 0xa27, id));
}

export function articlePath(m: NewsModel, id: number): string {
  const cached = m.pathCache[id];
  if (cached !== undefined) return cached;
  const [y, mo] = dayKey(articleDay(m, id)).split("-");
  const p = `/${SECTIONS[articleSection(m.seed, id)]}/${y}/${mo}/${slugify(articleTitle(m, id)).split("-").slice(0, 4).join("-")}-${id}`;
  if (id >= 1 && id <= m.articleCount) m.pathCache[id] = p;
  return p;
}

export function storyTitle(m: NewsModel, id: number): string {
  return `Data: ${headline(hash32(m.seed, 0x570, id))}`;
}

export interface DataFile {
  href: string;
  label: string;
  file: FileRef;
}

const STORY_FORMATS: FormatName[] = ["csv", "csv", "xlsx", "json", "zip", "pdf"];

/** Downloads of data story `id` (2–5 files). */
export function storyFiles(m: NewsModel, id: number): DataFile[] {
  const r = new Rng(hash32(m.seed, 0x571, id));
  const n = 2 + r.int(4);
  const out: DataFile[] = [];
  for (let k = 0; k < n; k++) {
    const format = r.pick(STORY_FORMATS);
    const fseed = hash32(m.seed, 0x572, id, k);
    out.push({
      href: `/data/files/${id}/${k + 1}.${format}`,
      label: `Dataset ${k + 1} (${format.toUpperCase()})`,
      file: { format, bytes: fileBytes(format, fseed), seed: fseed },
    });
  }
  return out;
}
