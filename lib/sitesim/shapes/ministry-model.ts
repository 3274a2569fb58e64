/**
 * Ministry portal: the data model. Four "collections" (press releases, decisions,
 * reports, speeches), each walked through a Drupal-style next-only pager; documents
 * hang off list teasers and item pages.
 */
import { fileBytes, type FormatName } from "../formats";
import { hash32, Rng } from "../random";
import { headline, slugify } from "../text";
import type { FileRef } from "../types";
import { distinctTopics } from "./common";

export const PER_PAGE = 10;

export interface Collection {
  key: "press-releases" | "decisions" | "reports" | "speeches";
  index: number;
  label: string;
  /** Items are numbered 1..count, newest = count. */
  count: number;
}

export interface MinistryModel {
  seed: number;
  collections: Collection[];
  topics: Array<{ name: string; slug: string }>;
  /** Press-release ids per topic, newest first. */
  releasesByTopic: Int32Array[];
}

export function buildMinistryModel(seed: number, n: number): MinistryModel {
  const mk = (index: number, key: Collection["key"], label: string, share: number, min: number): Collection => ({
    key, index, label, count: Math.max(min, Math.round(n * share)),
  });
  const collections = [
    mk(0, "press-releases", "Press releases", 0.3, 40),
    mk(1, "decisions", "Decisions and orders", 0.1, 15),
    mk(2, "reports", "Reports", 0.045, 8),
    mk(3, "speeches", "Speeches", 0.09, 10),
  ];
  const topicCount = Math.min(40, Math.max(6, Math.round(n / 60)));
  const topics = distinctTopics(new Rng(hash32(seed, 0x70b)), topicCount);
  const byTopic: number[][] = topics.map(() => []);
  for (let id = collections[0]!.count; id >= 1; id--) for (const t of releaseTopics(seed, id, topicCount)) byTopic[t]!.push(id);
  return { seed, collections, topics, releasesByTopic: byTopic.map((a) => Int32Array.from(a)) };
}

export function releaseTopics(seed: number, id: number, topicCount: number): number[] {
  const h = hash32(seed, 0x70c, id);
  const a = h % topicCount;
  const b = (h >>> 10) % topicCount;
  return (h >>> 20) % 3 === 0 && a !== b ? [a, b] : [a];
}

export function itemTitle(m: MinistryModel, c: Collection, id: number): string {
  return headline(hash32(m.seed, 0x171 + c.index, id));
}

/** `/press-releases/123-regional-housing-statistics-2019`: Drupal path aliases carry the title. */
export function itemPath(m: MinistryModel, c: Collection, id: number): string {
  return `/${c.key}/${id}-${slugify(itemTitle(m, c, id)).split("-").slice(0, 5).join("-")}`;
}

export function itemMonth(m: MinistryModel, c: Collection, id: number): string {
  // Newest items in 2024-06, going back one month per ~(count / 96) items.
  const back = Math.floor(((c.count - id) * 96) / Math.max(1, c.count));
  const idx = 2024 * 12 + 5 - back;
  return `${Math.floor(idx / 12)}-${String((idx % 12) + 1).padStart(2, "0")}`;
}

export interface Attachment {
  href: string;
  label: string;
  file: FileRef;
}

const ATTACH_PLAN: Record<Collection["key"], (r: Rng) => FormatName[]> = {
  "press-releases": (r) => (r.chance(0.3) ? (r.chance(0.1) ? ["pdf", r.chance(0.5) ? "xlsx" : "ods"] : ["pdf"]) : []),
  decisions: (r) => (r.chance(0.75) ? (r.chance(0.12) ? ["pdf", r.chance(0.5) ? "docx" : "odt"] : ["pdf"]) : []),
  reports: (r) => {
    const f: FormatName[] = ["pdf"];
    if (r.chance(0.4)) f.push(r.chance(0.6) ? "ods" : "xlsx");
    if (r.chance(0.15)) f.push("csv");
    if (r.chance(0.1)) f.push("zip");
    return f;
  },
  speeches: (r) => (r.chance(0.05) ? ["pdf"] : []),
};

/** Media ids: even = document, odd = image; both served at the extension-less `/media/<mid>/download`. */
export function docMediaId(c: Collection, id: number, k: number): number {
  return ((c.index * 0x100000 + id) * 8 + k) * 2;
}

export function imageMediaId(c: Collection, id: number): number {
  return (c.index * 0x100000 + id) * 2 + 1;
}

export function attachments(m: MinistryModel, c: Collection, id: number): Attachment[] {
  const r = new Rng(hash32(m.seed, 0xa77 + c.index, id));
  const month = itemMonth(m, c, id);
  return ATTACH_PLAN[c.key](r).map((format, k) => {
    const fseed = hash32(m.seed, 0xa78 + c.index, id, k);
    const name = `${c.key.slice(0, 3)}-${id}-${k + 1}.${format}`;
    const viaMedia = r.chance(0.3);
    const href = viaMedia ? `/media/${docMediaId(c, id, k)}/download` : `/sites/default/files/${month}/${name}`;
    const file: FileRef = { format, bytes: fileBytes(format, fseed), seed: fseed, ...(viaMedia ? { filename: name } : {}) };
    const label = k === 0 ? `Download (${format.toUpperCase()})` : `Annex (${format.toUpperCase()})`;
    return { href, label, file };
  });
}
