import type { Db } from "../prisma-client";
import { crawlSummarySelect, toCrawlSummary, type CrawlSummary } from "./crawl-summary";

/** One row of the crawl list. Kept as a name for the pages that already import it. */
export type CrawlListItem = CrawlSummary;

/** Crawls, newest first. */
export async function listCrawls(db: Db, { limit = 100, offset = 0 }: { limit?: number; offset?: number } = {}): Promise<CrawlListItem[]> {
  const rows = await db.crawl.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    skip: offset,
    select: crawlSummarySelect,
  });
  return rows.map(toCrawlSummary);
}
