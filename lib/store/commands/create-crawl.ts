import { parseCrawlConfig } from "../../crawl-config";
import { insertCrawl } from "../insert-crawl";
import type { Db } from "../prisma-client";

/**
 * Validates crawl settings, draws the seed when absent and stores a `queued` crawl with its
 * "created" event (one statement: no crawl without its first log line); a worker claims it
 * from there. The CLI stores crawls through the same `insertCrawl`.
 * @throws CrawlConfigError naming every bad field (the API's 400 `fields`).
 */
export async function createCrawl(db: Db, input: unknown, { drawSeed, createdById = null }: { drawSeed?: () => number; createdById?: number | null } = {}): Promise<{ id: number }> {
  const config = parseCrawlConfig(input, drawSeed);
  return { id: await insertCrawl(db, config, { createdById }) };
}
