import { NotFoundError } from "../../errors";
import type { Db } from "../prisma-client";

/**
 * Throws a 404 when the crawl does not exist. Child lists (metrics, targets…) of an unknown
 * crawl are "not found", not an empty list: an empty list would hide a wrong id.
 */
export async function requireCrawl(db: Db, crawlId: number): Promise<void> {
  const found = await db.crawl.findUnique({ where: { id: crawlId }, select: { id: true } });
  if (!found) throw new NotFoundError(`Crawl ${crawlId}`);
}
