import type { ForageConfig } from "../config";
import { NotFoundError } from "../errors";
import type { Db } from "../store/prisma-client";
import { readChangeReport } from "../store/recrawl-store";
import { summariseFile, type FileSummary } from "./file-summary";
import { previewFormatOf, withinTime } from "./preview-file";
import { PREVIEW_LIMITS, type PreviewLimits } from "./preview-limits";
import { storedPreviewSource } from "./stored-preview-source";

/** A changed file's two versions, summarised, and what differs, in words. */
export interface VersionComparison {
  url: string;
  before: FileSummary | null;
  after: FileSummary | null;
  /** "12 345 → 13 002 bytes", "rows 120 → 131", "sheet added: 2024"…; empty when a version is missing. */
  differences: string[];
}

/**
 * What changed in one file of a crawl's change report, computed from the two stored versions
 * (this crawl's, and the `previousSha256` one kept by the crawl that fetched it, found through
 * its Target row: files are stored per crawl under their SHA-256).
 * @throws NotFoundError when the crawl has no change report or the report does not name the URL
 */
export async function compareVersions(db: Db, config: ForageConfig, crawlId: number, url: string, limits: PreviewLimits = PREVIEW_LIMITS): Promise<VersionComparison> {
  const report = await readChangeReport(config.dataDir, crawlId);
  const entry = report?.files.find((file) => file.url === url);
  if (!report || !entry) throw new NotFoundError(`File ${url} in the change report of crawl ${crawlId}`);
  const versionCrawl = (sha256: string | null): number | null => (sha256 === null ? null : ([...entry.versions].reverse().find((version) => version.sha256 === sha256)?.crawlId ?? null));
  const load = async (sha256: string | null, preferCrawl: number | null): Promise<FileSummary | null> => {
    if (sha256 === null) return null;
    const row =
      (preferCrawl === null ? null : await db.target.findFirst({ where: { crawlId: preferCrawl, sha256 }, select: { storagePath: true, mime: true, detectedMime: true } })) ??
      (await db.target.findFirst({ where: { sha256 }, orderBy: { id: "desc" }, select: { storagePath: true, mime: true, detectedMime: true } }));
    if (!row) return null;
    const source = await storedPreviewSource(config, row.storagePath);
    if (!source) return null;
    return withinTime(limits, (signal) => summariseFile(source, previewFormatOf(row.mime, row.detectedMime, url), limits, signal));
  };
  const after = await load(entry.sha256, crawlId);
  const before = await load(entry.previousSha256, versionCrawl(entry.previousSha256));
  return { url, before, after, differences: before && after ? differencesOf(before, after) : [] };
}

function differencesOf(before: FileSummary, after: FileSummary): string[] {
  const out: string[] = [];
  if (before.bytes !== after.bytes) out.push(`size ${before.bytes} → ${after.bytes} bytes`);
  if (before.rows !== null && after.rows !== null && before.rows !== after.rows) out.push(`rows ${before.rows} → ${after.rows}`);
  if (before.jsonSize !== null && after.jsonSize !== null && before.jsonSize !== after.jsonSize) out.push(`top-level entries ${before.jsonSize} → ${after.jsonSize}`);
  if (before.sheets && after.sheets) {
    const beforeNames = new Map(before.sheets.map((sheet) => [sheet.name, sheet.rows]));
    const afterNames = new Map(after.sheets.map((sheet) => [sheet.name, sheet.rows]));
    for (const name of afterNames.keys()) if (!beforeNames.has(name)) out.push(`sheet added: ${name}`);
    for (const name of beforeNames.keys()) if (!afterNames.has(name)) out.push(`sheet removed: ${name}`);
    for (const [name, rows] of afterNames) {
      const previous = beforeNames.get(name);
      if (previous !== undefined && previous !== rows) out.push(`sheet ${name}: rows ${previous} → ${rows}`);
    }
  }
  if (out.length === 0) out.push("same size and shape; the content differs");
  return out;
}
