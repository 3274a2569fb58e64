/**
 * The catalogue of a simulated CKAN 2.10 portal: organizations, groups, datasets and their
 * resources, built eagerly (≈ 1,500 datasets and 5,400 files at size "large": a few ms).
 * Uploaded resources live where CKAN's filestore serves them,
 * `/dataset/<package id>/resource/<resource id>/download/<file name>`; "HTML" and "API" resources
 * are links to other sites, as on real portals.
 */
import type { FormatName } from "../formats";
import { fileBytes } from "../formats";
import { hash32, Rng } from "../random";
import { headline, slugify, topicName, TOPIC_COUNT } from "../text";
import type { FileRef } from "../types";
import { isoSeconds, uuidOf, weighted } from "./app-common";

export interface CkanResource {
  id: string;
  name: string;
  /** CKAN's `format` field: "CSV", "XLSX", … "HTML", "API". */
  format: string;
  /** null when the resource is a link to another site. */
  file: FileRef | null;
  mimetype: string | null;
  /** Absolute URL for links and harvested files, path (under the app base) for uploads. */
  url: string;
  onSite: boolean;
  /** A data file (on this site or, harvested, on another); false for "HTML" and "API" links. */
  isFile: boolean;
  created: string;
  lastModified: string;
}

export interface CkanDataset {
  index: number;
  id: string;
  name: string;
  title: string;
  org: number;
  groups: number[];
  created: string;
  modified: string;
  resources: CkanResource[];
}

export interface CkanGroup {
  name: string;
  title: string;
}

export interface CkanModel {
  datasets: CkanDataset[];
  /** Dataset indexes, newest metadata_modified first (CKAN's default order). */
  newestFirst: number[];
  orgs: CkanGroup[];
  groups: CkanGroup[];
  /** Dataset index by name and by id. */
  byName: Map<string, number>;
  resourceById: Map<string, { dataset: number; k: number }>;
}

/** [format, sim format, mimetype, weight]: the mix of a national statistics portal. */
const FORMATS: ReadonlyArray<readonly [string, FormatName | null, string | null, number]> = [
  ["CSV", "csv", "text/csv", 34],
  ["XLSX", "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", 14],
  ["PDF", "pdf", "application/pdf", 14],
  ["JSON", "json", "application/json", 7],
  ["ZIP", "zip", "application/zip", 8],
  ["XLS", "xls", "application/vnd.ms-excel", 4],
  ["XML", "xml", "application/xml", 3],
  ["ODS", "ods", "application/vnd.oasis.opendocument.spreadsheet", 3],
  ["HTML", null, "text/html", 8],
  ["API", null, null, 3],
];

/** Datasets per URL of the size: 1,500 at 40,000. */
export function ckanDatasetCount(urlCount: number): number {
  return Math.max(6, Math.round((urlCount * 1500) / 40_000));
}

export function buildCkanModel(seed: number, urlCount: number, harvestedOffSite: boolean): CkanModel {
  const rng = new Rng(hash32(seed, 0xc4a9));
  const n = ckanDatasetCount(urlCount);
  const orgCount = Math.min(30, Math.max(3, Math.round(Math.sqrt(n) / 1.5)));
  const topicOffset = rng.int(TOPIC_COUNT);
  const orgs = Array.from({ length: orgCount }, (_, i) => {
    const title = `${topicName(topicOffset + i)} Agency${i >= TOPIC_COUNT ? ` ${i}` : ""}`;
    return { name: slugify(title), title };
  });
  const groups = Array.from({ length: Math.min(8, 3 + Math.floor(n / 200)) }, (_, i) => {
    const title = topicName(topicOffset + orgCount + 3 * i);
    return { name: slugify(title) + (i >= TOPIC_COUNT ? `-${i}` : ""), title };
  });
  const byName = new Map<string, number>();
  const resourceById = new Map<string, { dataset: number; k: number }>();
  const datasets: CkanDataset[] = [];
  // Eight years of activity; newer datasets tend to be edited more recently.
  const span = 8 * 365 * 86_400;
  for (let i = 0; i < n; i++) {
    const h = hash32(seed, 0xda7a, i);
    const title = headline(h);
    let name = slugify(title);
    for (let k = 2; byName.has(name); k++) name = `${slugify(title)}-${k}`;
    const org = Math.floor(orgCount * ((h % 1000) / 1000) ** 1.6);
    const createdAt = Math.floor((i / n) * span * 0.9) + (h % 86_400);
    const modifiedAt = createdAt + (hash32(h, 1) % (span - createdAt));
    const id = uuidOf(seed, 0xd5, i);
    const resourceCount = 1 + (hash32(h, 2) % 7);
    const harvested = harvestedOffSite && org % 3 === 2;
    const resources: CkanResource[] = [];
    for (let k = 0; k < resourceCount; k++) {
      const rh = hash32(h, 3, k);
      const [format, sim, mime] = FORMATS[weighted(FORMATS.map((f) => f[3]), rh)]!;
      const rid = uuidOf(seed, 0x7e5, i * 8 + k);
      const rname = k === 0 ? title : `${title} (${format}, part ${k + 1})`;
      const fileName = `${slugify(rname).slice(0, 60)}.${sim === null ? "html" : sim}`;
      const fseed = hash32(seed, 0xf11e, i * 8 + k);
      const file: FileRef | null = sim === null ? null : { format: sim, bytes: fileBytes(sim, fseed), seed: fseed };
      const url =
        sim === null ? `https://www.${orgs[org]!.name}.invalid/${format === "API" ? "api/v1" : "statistics"}/${slugify(rname)}`
        : harvested ? `https://opendata.${orgs[org]!.name}.invalid/files/${rid}/${fileName}`
        : `dataset/${id}/resource/${rid}/download/${fileName}`;
      const modified = createdAt + (hash32(rh, 4) % (modifiedAt - createdAt + 1));
      resources.push({
        id: rid, name: rname, format, file: harvested ? null : file, url, onSite: sim !== null && !harvested, isFile: sim !== null,
        mimetype: hash32(rh, 5) % 5 === 0 ? null : mime, created: isoSeconds(createdAt), lastModified: isoSeconds(modified),
      });
      resourceById.set(rid, { dataset: i, k });
    }
    const g = hash32(h, 6) % (groups.length + 2);
    datasets.push({
      index: i, id, name, title, org, groups: g < groups.length ? [g, (g + 1 + (h % 2)) % groups.length].slice(0, 1 + (h % 2)) : [],
      created: isoSeconds(createdAt), modified: isoSeconds(modifiedAt), resources,
    });
    byName.set(name, i);
    byName.set(id, i);
  }
  const newestFirst = datasets.map((d) => d.index).sort((a, b) => (datasets[b]!.modified.localeCompare(datasets[a]!.modified)) || a - b);
  return { datasets, newestFirst, orgs, groups, byName, resourceById };
}

/** `2019-03-04T10:22:31` → CKAN's `2019-03-04T10:22:31.000000` (Python isoformat with microseconds). */
export function ckanTime(iso: string): string {
  return `${iso}.${String(hash32(iso.length, iso.charCodeAt(18)) % 1_000_000).padStart(6, "0")}`;
}
