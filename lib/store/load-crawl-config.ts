import { CrawlConfigError, readStoredCrawlConfig, type CrawlConfig } from "../crawl-config";
import type { Db } from "./prisma-client";

export class CrawlNotFoundError extends Error {
  override name = "CrawlNotFoundError";
}

/**
 * Reads a crawl's stored settings (validated again: the stored JSON is an input too).
 * @throws CrawlConfigError naming the fields today's rules refuse.
 */
export async function loadCrawlConfig(db: Db, crawlId: number): Promise<CrawlConfig> {
  const row = await db.crawl.findUnique({ where: { id: crawlId }, select: { config: true, seed: true } });
  if (!row) throw new CrawlNotFoundError(`Crawl ${crawlId} not found`);
  const read = readStoredCrawlConfig(row.config);
  if (!read.ok) throw new CrawlConfigError(read.fields);
  return { ...read.config, seed: row.seed };
}
