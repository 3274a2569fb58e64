import type { Db } from "../prisma-client";
import { readChangeReport, type ChangeCounts, type ChangeEntry, type FileChange, type UncheckedCounts } from "../recrawl-store";
import { requireCrawl } from "./require-crawl";

/** The event a finished crawl writes with its four change counts as `data`. */
export const CHANGES_EVENT_KIND = "changes";

/** The four counts of a finished crawl's change report; null before it finished (or for older crawls). */
export async function getChangeCounts(db: Db, crawlId: number): Promise<ChangeCounts | null> {
  const event = await db.crawlEvent.findFirst({ where: { crawlId, kind: CHANGES_EVENT_KIND }, orderBy: { id: "desc" }, select: { data: true } });
  if (!event?.data) return null;
  try {
    const data = JSON.parse(event.data) as ChangeCounts;
    return { new: data.new, changed: data.changed, unchanged: data.unchanged, gone: data.gone };
  } catch {
    return null;
  }
}

export interface CrawlChanges {
  crawlId: number;
  /** The crawl it was compared with (`after`); null for a first crawl (all its files are new). */
  previousCrawlId: number | null;
  checkedKnownFiles: boolean;
  counts: ChangeCounts;
  /** Known files this run did not verify (without "Check known files"); null for reports written before it was counted. */
  unchecked: UncheckedCounts | null;
  /** Files of the asked kinds, by URL; each with its history (first and last run that saw it, versions). */
  files: ChangeEntry[];
  total: number;
}

/**
 * A finished crawl's change report (recrawl-store.ts), its files filtered by kind and paged.
 * Null when the crawl has none yet (running, failed, or finished before re-crawls existed).
 * @throws NotFoundError for an unknown crawl.
 */
export async function getCrawlChanges(
  db: Db,
  dataDir: string,
  crawlId: number,
  query: { change?: FileChange; limit: number; offset: number },
): Promise<CrawlChanges | null> {
  await requireCrawl(db, crawlId);
  const report = await readChangeReport(dataDir, crawlId);
  if (!report) return null;
  const files = report.files.filter((file) => (query.change ? file.change === query.change : file.change !== "carried")).sort((a, b) => a.url.localeCompare(b.url));
  return {
    crawlId,
    previousCrawlId: report.previousCrawlId,
    checkedKnownFiles: report.checkedKnownFiles,
    counts: report.counts,
    unchecked: report.unchecked ?? null,
    files: files.slice(query.offset, query.offset + query.limit),
    total: files.length,
  };
}
