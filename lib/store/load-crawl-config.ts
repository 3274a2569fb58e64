import { crawlConfigSchema, withParamsAddedLater, type CrawlConfig } from "../crawl-config";
import type { Db } from "./prisma-client";

export class CrawlNotFoundError extends Error {
  override name = "CrawlNotFoundError";
}

/** Reads a crawl's stored settings (validated again: the stored JSON is an input too). */
export async function loadCrawlConfig(db: Db, crawlId: number): Promise<CrawlConfig> {
  const row = await db.crawl.findUnique({ where: { id: crawlId }, select: { config: true, seed: true } });
  if (!row) throw new CrawlNotFoundError(`Crawl ${crawlId} not found`);
  return { ...crawlConfigSchema.parse(withParamsAddedLater(JSON.parse(row.config))), seed: row.seed };
}
