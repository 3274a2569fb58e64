/**
 * Where things live on a family site, and which items hold which files: pure functions of the
 * parameters and ids, shared by routing and rendering so both always agree.
 */
import type { FormatName } from "../files";
import { fileBytes, FORMATS } from "../formats";
import { hash32, scrambleId } from "../random";
import { headline, slugify } from "../text";
import type { FileRef } from "../types";
import type { EvolvedItem } from "./evolved-site";
import type { FamilyParams, SectionParams } from "./params";

/** A listing's filters: facet topic / year, sort order, page (1-based). */
export interface ListQuery {
  topic?: number;
  year?: number;
  sort?: "title" | "date";
  page: number;
}

export const FACET_FIRST_YEAR = 2018;

/** Seed of one item's text and choices. */
export function itemSeed(p: FamilyParams, section: number, n: number): number {
  return hash32(p.seed, 0x17e4, section, n);
}

export function itemTitle(p: FamilyParams, section: number, n: number): string {
  return headline(itemSeed(p, section, n));
}

/** Canonical URL of item `n`'s detail page (depth 2 and 3 sections). */
export function itemPath(p: FamilyParams, section: number, n: number): string {
  const s = p.sections[section]!;
  switch (s.itemUrl) {
    case "id":
      return `/${s.slug}/${n}`;
    case "slug":
      return `/${s.slug}/${slugify(itemTitle(p, section, n)).slice(0, 40)}-${n}`;
    case "query":
      return `/${s.slug}/view?id=${n}`;
  }
}

/** Group (1-based) of item `n` in a depth-3 section; 0 otherwise. */
export function groupOf(s: SectionParams, n: number): number {
  return s.depth === 3 ? ((n - 1) % s.groups) + 1 : 0;
}

export function facetTopic(p: FamilyParams, section: number, n: number): number {
  return hash32(p.seed, 0xfac1, section, n) % p.sections[section]!.facetTopics;
}

export function facetYear(p: FamilyParams, section: number, n: number): number {
  return FACET_FIRST_YEAR + (hash32(p.seed, 0xfac2, section, n) % p.sections[section]!.facetYears);
}

/** The item's state in a later version, when it is no longer version 1's draw. */
export function evolvedItem(p: FamilyParams, section: number, n: number): EvolvedItem | undefined {
  return p.evolved?.items[section]?.get(n);
}

/** Whether item `n` exists in this version of the site (removed items do not). */
export function itemExists(p: FamilyParams, section: number, n: number): boolean {
  return n >= 1 && n <= p.sections[section]!.items && evolvedItem(p, section, n)?.removed !== true;
}

/** The section's item count when it first appeared: what related links, hubs and calendars draw among. */
export function stableItemCount(p: FamilyParams, section: number): number {
  return p.evolved?.stableItems[section] ?? p.sections[section]!.items;
}

/** Sections of version 1 (hubs draw among them). */
export function stableSectionCount(p: FamilyParams): number {
  return p.evolved?.firstSections ?? p.sections.length;
}

/**
 * Whether item `n` holds files in version 1's draw: the items are permuted, then every
 * (1/share)-th one is taken, so a section holds round(items × share) of them, spread over its pages.
 */
function drawnWithFiles(p: FamilyParams, section: number, n: number): boolean {
  const s = p.sections[section]!;
  const items = stableItemCount(p, section);
  if (s.fileShare <= 0) return false;
  if (s.fileShare >= 1) return true;
  const h = hash32(p.seed, 0xf11e, section);
  let a = 1 + 2 * (h % 97);
  while (gcd(a, items) !== 1) a += 2;
  const pos = (Math.imul(n - 1, a) + (h >>> 8)) % items;
  const off = ((h >>> 16) % 1000) / 1000;
  return Math.floor((pos + 1) * s.fileShare + off) > Math.floor(pos * s.fileShare + off);
}

/** Files of item `n` in version 1's draw (0 to maxFilesPerItem). */
export function drawnFileCount(p: FamilyParams, section: number, n: number): number {
  if (!drawnWithFiles(p, section, n)) return 0;
  return 1 + (hash32(p.seed, 0xf1c0, section, n) % p.sections[section]!.maxFilesPerItem);
}

/** The indexes k of item `n`'s files in this version, ascending. */
export function fileIndexes(p: FamilyParams, section: number, n: number): number[] {
  const evolved = evolvedItem(p, section, n);
  if (evolved) return evolved.removed ? [] : [...evolved.files.keys()].sort((a, b) => a - b);
  return Array.from({ length: drawnFileCount(p, section, n) }, (_, i) => i + 1);
}

/** Whether item `n` holds file `k` in this version. */
export function hasFile(p: FamilyParams, section: number, n: number, k: number): boolean {
  const evolved = evolvedItem(p, section, n);
  if (evolved) return !evolved.removed && evolved.files.has(k);
  return k >= 1 && k <= drawnFileCount(p, section, n);
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

export function fileCount(p: FamilyParams, section: number, n: number): number {
  return fileIndexes(p, section, n).length;
}

export function fileFormat(p: FamilyParams, section: number, n: number, k: number): FormatName {
  const formats = p.sections[section]!.formats;
  return formats[hash32(p.seed, 0xf0f0, section, n * 8 + k) % formats.length]!;
}

/** The file's own URL (with its extension); redirects point here. */
export function directFilePath(p: FamilyParams, section: number, n: number, k: number): string {
  return `/files/${p.sections[section]!.slug}/${n}-${k}.${FORMATS[fileFormat(p, section, n, k)].ext}`;
}

/** Number packing section, item and file index, for opaque URLs. */
export function fileId(section: number, n: number, k: number): number {
  return (section * 100_000 + n) * 8 + k;
}

export function unpackFileId(id: number): { section: number; n: number; k: number } {
  const k = id % 8;
  const rest = (id - k) / 8;
  return { section: Math.floor(rest / 100_000), n: rest % 100_000, k };
}

/** What a page links for file `k` of item `n` (the download page is linked once per item instead). */
export function fileLinkPath(p: FamilyParams, section: number, n: number, k: number): string {
  switch (p.sections[section]!.fileLink) {
    case "direct":
    case "download-page":
      return directFilePath(p, section, n, k);
    case "redirect":
      return `/get/${scrambleId(fileId(section, n, k))}`;
    case "extensionless":
      return `/file/${scrambleId(fileId(section, n, k))}`;
    case "view-page":
      return fileViewPath(p, section, n, k);
  }
}

/** The HTML page showing file `k` of item `n`, named like the file ("view-page" sections). */
export function fileViewPath(p: FamilyParams, section: number, n: number, k: number): string {
  return `/${p.sections[section]!.slug}/src/${n}-${k}.${FORMATS[fileFormat(p, section, n, k)].ext}`;
}

/** An auxiliary view of item `n`'s page (`SectionParams.views`): the view's name after the section's. */
export function itemViewPath(p: FamilyParams, section: number, n: number, view: string): string {
  const slug = p.sections[section]!.slug;
  return `/${slug}/${view}${itemPath(p, section, n).slice(slug.length + 1)}`;
}

export function downloadPagePath(p: FamilyParams, section: number, n: number): string {
  return `/${p.sections[section]!.slug}/download/${n}`;
}

export function fileRef(p: FamilyParams, section: number, n: number, k: number, withName: boolean): FileRef {
  const format = fileFormat(p, section, n, k);
  const first = hash32(p.seed, 0xf17e, fileId(section, n, k));
  // A revised file keeps its URL and gets new bytes.
  const revision = evolvedItem(p, section, n)?.files.get(k)?.revision ?? 1;
  const seed = revision > 1 ? hash32(first, 0x5e71, revision) : first;
  const ref: FileRef = { format, bytes: fileBytes(format, seed), seed };
  if (withName) ref.filename = `${p.sections[section]!.slug}-${n}-${k}.${FORMATS[format].ext}`;
  return ref;
}

/** Canonical listing URL: base path, then topic, year, sort, page (page 1 omitted). */
export function listPath(base: string, q: ListQuery): string {
  const parts: string[] = [];
  if (q.topic !== undefined) parts.push(`topic=${q.topic}`);
  if (q.year !== undefined) parts.push(`year=${q.year}`);
  if (q.sort !== undefined) parts.push(`sort=${q.sort}`);
  if (q.page > 1) parts.push(`page=${q.page}`);
  return parts.length ? `${base}?${parts.join("&")}` : base;
}

export function sectionBase(s: SectionParams): string {
  return `/${s.slug}/`;
}

export function groupBase(s: SectionParams, g: number): string {
  return `/${s.slug}/g/${g}`;
}

/**
 * Items of a listing (a whole section, or one group of a depth-3 section), filtered by facets. In a
 * later version removed items are gone and new ones are listed first (newest first) or appended.
 */
export function listItems(p: FamilyParams, section: number, group: number, q: ListQuery): number[] {
  const s = p.sections[section]!;
  const out: number[] = [];
  const keep = (n: number) => {
    if (q.topic !== undefined && facetTopic(p, section, n) !== q.topic) return;
    if (q.year !== undefined && facetYear(p, section, n) !== q.year) return;
    if (p.evolved && !itemExists(p, section, n)) return;
    out.push(n);
  };
  if (p.evolved?.newFirst[section]) {
    const stable = stableItemCount(p, section);
    for (let n = s.items; n > stable; n--) if (group === 0 || groupOf(s, n) === group) keep(n);
    for (let n = 1; n <= stable; n++) if (group === 0 || groupOf(s, n) === group) keep(n);
  } else {
    for (let n = group > 0 ? group : 1; n <= s.items; n += group > 0 ? s.groups : 1) keep(n);
  }
  if (q.sort === "title") out.sort((a, b) => itemTitle(p, section, a).localeCompare(itemTitle(p, section, b)) || a - b);
  else if (q.sort === "date") out.reverse();
  return out;
}
