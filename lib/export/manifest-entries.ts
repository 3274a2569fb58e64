import { lastSuccessByUrl, type WarcRecordRef } from "../archive/warc-index";
import type { ForageConfig } from "../config";
import { storageFor } from "../storage/storage-for";
import type { Db } from "../store/prisma-client";
import { readChangeReport, type ChangeEntry, type FileChange } from "../store/recrawl-store";
import { targetFileName, UniqueNames } from "./file-names";
import { statStoredFile } from "./stored-file";

/** Manifest columns, in order (docs/API.md "Downloads"). */
export const MANIFEST_COLUMNS = [
  "url",
  "file",
  "mime",
  "bytes",
  "sha256",
  "sourceUrl",
  "tagPath",
  "fetchedAt",
  "note",
  "change",
  "firstSeenCrawlId",
  "lastSeenCrawlId",
  "versions",
  "warcFile",
  "warcRecordId",
  "recordTitle",
  "recordPage",
  "detectedMime",
  "typeMatch",
] as const;

/** What `note` says when a target's file is not in the storage (the `file` cell is then empty). */
export const MISSING_NOTE = "missing on disk";
/** What `note` says for a target whose content equals an earlier target's (they share `file`). */
export const DUPLICATE_NOTE = "same content as an earlier target";

/** One manifest line, plus what the ZIP writer needs to add the file. */
export interface ManifestEntry {
  targetId: number;
  url: string;
  /** Path inside the ZIP (`files/…`); "" when the file is missing. */
  file: string;
  mime: string;
  bytes: number;
  sha256: string;
  sourceUrl: string | null;
  tagPath: string | null;
  fetchedAt: string;
  note: string;
  /**
   * The file's history from the crawl's change report (recrawl-store.ts): new or changed since
   * the run it followed, the first and last runs that saw it, and every version as
   * `crawlId:sha256` separated by spaces. Empty cells for a crawl without a report (running, older).
   */
  change: FileChange | "";
  firstSeenCrawlId: number | null;
  lastSeenCrawlId: number | null;
  versions: string;
  /** The WARC file (name) and record holding the target's response; "" when the crawl kept no archive. */
  warcFile: string;
  warcRecordId: string;
  /** The record (dataset, item) the file belongs to, as the site's application lists it; "" when none says. */
  recordTitle: string;
  recordPage: string;
  /**
   * The type the file's first bytes showed when it was fetched, and whether it agrees with `mime`
   * (lib/crawler/fetch/content-sniffing.ts); "" and null when nothing was detected or the crawl
   * predates the check.
   */
  detectedMime: string;
  typeMatch: boolean | null;
  /** Storage key of the stored file when this entry is the first with its content; else null. */
  sourceKey: string | null;
}

export interface ManifestOptions {
  /** Only targets with `id <= upToId`: a snapshot, so a running crawl's new targets do not
   * make the ZIP's files and its manifest disagree. @default every target */
  upToId?: number;
  /** Overrides the on-disk check (the ZIP's second pass reuses what its first pass found). */
  isMissing?: (targetId: number) => boolean;
  /** Rows per database page. @default 500 */
  pageSize?: number;
  /** URL → its WARC record; @default read from the crawl's CDXJ sidecars */
  warcRecords?: Map<string, WarcRecordRef>;
  /** URL → its change-report entry; @default read from the crawl's change report */
  history?: Map<string, ChangeEntry>;
  /** Only targets whose change is one of these (`?changes=new,changed`); needs a change report. @default every target */
  changes?: ReadonlySet<FileChange>;
}

/** URL → change-report entry of a crawl (empty when it has none). */
export async function changeHistory(config: ForageConfig, crawlId: number): Promise<Map<string, ChangeEntry>> {
  const report = await readChangeReport(config.dataDir, crawlId);
  return new Map((report?.files ?? []).map((entry) => [entry.url, entry]));
}

/**
 * The crawl's targets in collection order with their export file names. Deterministic: the
 * same rows always get the same names, so the ZIP's files, its manifest and the manifest
 * downloaded alone agree. Targets sharing content (same SHA-256: content-addressed storage)
 * share one file. Reads the database a page at a time; keeps only the names handed out.
 */
export async function* manifestEntries(
  db: Db,
  config: ForageConfig,
  crawlId: number,
  { upToId, isMissing, pageSize = 500, warcRecords, history, changes }: ManifestOptions = {},
): AsyncGenerator<ManifestEntry> {
  const records = warcRecords ?? (await lastSuccessByUrl(config.dataDir, crawlId, storageFor(config.dataDir, config.storage)));
  const entries = history ?? (await changeHistory(config, crawlId));
  const names = new UniqueNames();
  const fileBySha = new Map<string, string>();
  let cursor = 0;
  for (;;) {
    const rows = await db.target.findMany({
      where: { crawlId, id: { gt: cursor, ...(upToId !== undefined ? { lte: upToId } : {}) } },
      orderBy: { id: "asc" },
      take: pageSize,
      select: { id: true, url: true, mime: true, bytes: true, sha256: true, storagePath: true, sourceUrl: true, tagPath: true, fetchedAt: true, recordTitle: true, recordPage: true, detectedMime: true, typeMatch: true },
    });
    if (rows.length === 0) return;
    for (const row of rows) {
      cursor = row.id;
      const known = entries.get(row.url);
      // The report's entry describes this target only when it is about the same bytes.
      const entry = known && known.sha256 === row.sha256 && known.change !== "carried" && known.change !== "gone" ? known : undefined;
      if (changes && (!entry || !changes.has(entry.change as FileChange))) continue;
      const base = {
        targetId: row.id,
        url: row.url,
        mime: row.mime,
        bytes: row.bytes,
        sha256: row.sha256,
        sourceUrl: row.sourceUrl,
        tagPath: row.tagPath,
        fetchedAt: row.fetchedAt.toISOString(),
        warcFile: records.get(row.url)?.warcFile ?? "",
        warcRecordId: records.get(row.url)?.recordId ?? "",
        recordTitle: row.recordTitle ?? "",
        recordPage: row.recordPage ?? "",
        detectedMime: row.detectedMime ?? "",
        typeMatch: row.typeMatch,
        change: (entry?.change ?? "") as FileChange | "",
        firstSeenCrawlId: entry?.firstSeenCrawlId ?? null,
        lastSeenCrawlId: entry?.lastSeenCrawlId ?? null,
        versions: entry ? entry.versions.map((version) => `${version.crawlId}:${version.sha256}`).join(" ") : "",
      };
      const shared = fileBySha.get(row.sha256);
      if (shared !== undefined) {
        yield { ...base, file: shared, note: shared ? DUPLICATE_NOTE : MISSING_NOTE, sourceKey: null };
        continue;
      }
      const sourceKey = isMissing
        ? isMissing(row.id) ? null : row.storagePath
        : ((await statStoredFile(config, row.storagePath))?.key ?? null);
      const file = sourceKey === null ? "" : `files/${names.claim(targetFileName(row.url, row.mime))}`;
      fileBySha.set(row.sha256, file);
      yield { ...base, file, note: sourceKey === null ? MISSING_NOTE : "", sourceKey };
    }
    if (rows.length < pageSize) return;
  }
}

/** The manifest's cells of an entry, in `MANIFEST_COLUMNS` order. */
export function manifestCells(entry: ManifestEntry): (string | number | boolean | null)[] {
  return MANIFEST_COLUMNS.map((column) => entry[column]);
}
