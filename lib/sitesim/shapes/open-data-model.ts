/**
 * Open data portal (data.gouv / CKAN-like): datasets with resources, organisations,
 * tags, formats, and the posting lists the faceted search needs.
 */
import { fileBytes, type FormatName } from "../formats";
import { hash32, Rng, scrambleId } from "../random";
import { headline, slugify } from "../text";
import type { FileRef } from "../types";
import { distinctTopics } from "./common";

export const DATASETS_PER_PAGE = 20;
export const FACET_FORMATS: FormatName[] = ["csv", "json", "xml", "zip", "xlsx", "pdf"];

export interface OpenDataModel {
  seed: number;
  datasetCount: number;
  orgs: Array<{ name: string; slug: string }>;
  tags: Array<{ name: string; slug: string }>;
  /** Org index of each dataset (index = id - 1). */
  dsOrg: Uint16Array;
  /** Bit f set when dataset id has a resource of FACET_FORMATS[f] (index = id - 1). */
  dsFormats: Uint8Array;
  /** Posting lists, dataset ids in descending order. */
  byOrg: Int32Array[];
  byTag: Int32Array[];
  byFormat: Int32Array[];
  /** Facet values shown per facet block ("top K"). */
  facetTop: number;
  reuseCount: number;
  postCount: number;
}

export function datasetTags(seed: number, id: number, tagCount: number): number[] {
  const h = hash32(seed, 0x7a6, id);
  const n = 1 + (h % 3);
  const out: number[] = [];
  for (let k = 0; k < n; k++) {
    const t = hash32(seed, 0x7a7, id, k) % tagCount;
    if (!out.includes(t)) out.push(t);
  }
  return out;
}

export interface OdResource {
  rid: number;
  title: string;
  format: FormatName;
  /** Download link as shown on the dataset page. */
  href: string;
  /** Final file URL when `href` redirects. */
  fileHref: string;
  style: "file" | "redirect" | "api";
  file: FileRef;
}

const FORMAT_WEIGHTS: FormatName[] = ["csv", "csv", "csv", "json", "xlsx", "xlsx", "zip", "xml", "pdf", "json"];

export function resourceUuid(rid: number): string {
  const h = hash32(rid, 0x0dd).toString(16).padStart(8, "0");
  return `${scrambleId(rid)}-${h.slice(0, 4)}-4${h.slice(5, 8)}-a${(rid % 4096).toString(16).padStart(3, "0")}-${h}0000`;
}

export function datasetTitle(m: OpenDataModel, id: number): string {
  return headline(hash32(m.seed, 0xd5, id));
}

export function datasetSlug(m: OpenDataModel, id: number): string {
  return `${slugify(datasetTitle(m, id)).split("-").slice(0, 4).join("-")}-${id}`;
}

/** Resources of dataset `id`: 1–5 files; download links come in three spellings. */
export function resources(m: OpenDataModel, id: number): OdResource[] {
  const r = new Rng(hash32(m.seed, 0x4e5, id));
  const roll = r.float();
  const n = roll < 0.35 ? 1 : roll < 0.7 ? 2 : roll < 0.88 ? 3 : 4 + r.int(2);
  const org = m.orgs[m.dsOrg[id - 1]!]!;
  const out: OdResource[] = [];
  for (let k = 0; k < n; k++) {
    const rid = id * 8 + k;
    const format = r.pick(FORMAT_WEIGHTS);
    const fseed = hash32(m.seed, 0x4e6, rid);
    const fileHref = `/files/${org.slug}/${rid}/${datasetSlug(m, id).slice(0, 24)}-${k + 1}.${format}`;
    const s = r.float();
    const style = s < 0.45 ? "file" : s < 0.75 ? "redirect" : "api";
    const href = style === "file" ? fileHref : style === "redirect" ? `/datasets/r/${resourceUuid(rid)}` : `/api/1/resources/${rid}/download`;
    const file: FileRef = { format, bytes: fileBytes(format, fseed), seed: fseed, ...(style === "api" ? { filename: `resource-${rid}.${format}` } : {}) };
    out.push({ rid, title: `${headline(fseed).split(":")[0]} (${format.toUpperCase()})`, format, href, fileHref, style, file });
  }
  return out;
}

export function buildOpenDataModel(seed: number, n: number): OpenDataModel {
  const datasetCount = Math.max(15, Math.round(n * 0.07));
  const orgCount = Math.min(80, Math.max(4, Math.round(datasetCount / 10)));
  const tagCount = Math.min(60, Math.max(6, Math.round(1.5 * Math.sqrt(datasetCount))));
  const rng = new Rng(hash32(seed, 0x0d9));
  const orgs = distinctTopics(rng, orgCount).map((t) => ({ name: `Agency for ${t.name}`, slug: `agency-${t.slug}` }));
  const tags = distinctTopics(new Rng(hash32(seed, 0x7a9)), tagCount);
  const dsOrg = new Uint16Array(datasetCount);
  // Skewed org sizes: a few producers publish most datasets, as on real portals.
  for (let i = 0; i < datasetCount; i++) dsOrg[i] = Math.floor(orgCount * Math.pow(rng.float(), 2.2));
  const partial: OpenDataModel = {
    seed, datasetCount, orgs, tags, dsOrg, dsFormats: new Uint8Array(datasetCount), byOrg: [], byTag: [], byFormat: [],
    facetTop: Math.min(10, Math.max(4, Math.round(Math.log2(n) - 5))),
    reuseCount: Math.max(5, Math.round(n * 0.08)),
    postCount: Math.max(3, Math.round(n * 0.015)),
  };
  const byOrg: number[][] = orgs.map(() => []);
  const byTag: number[][] = tags.map(() => []);
  const byFormat: number[][] = FACET_FORMATS.map(() => []);
  for (let id = datasetCount; id >= 1; id--) {
    byOrg[dsOrg[id - 1]!]!.push(id);
    for (const t of datasetTags(seed, id, tagCount)) byTag[t]!.push(id);
    const seen = new Set<number>();
    for (const res of resources(partial, id)) {
      const f = FACET_FORMATS.indexOf(res.format);
      if (f >= 0 && !seen.has(f)) {
        seen.add(f);
        partial.dsFormats[id - 1]! |= 1 << f;
        byFormat[f]!.push(id);
      }
    }
  }
  const toArr = (a: number[][]) => a.map((x) => Int32Array.from(x));
  return { ...partial, byOrg: toArr(byOrg), byTag: toArr(byTag), byFormat: toArr(byFormat) };
}
