import type { Db } from "../prisma-client";
import { toPage } from "./paging";
import { requireCrawl } from "./require-crawl";

/** One line of the crawl's log. */
export interface CrawlEventView {
  id: number;
  at: string;
  level: string;
  kind: string;
  message: string;
}

export interface EventsPageOptions {
  /** The previous page's `nextCursor`. */
  cursor?: number;
  /** @default 100 */
  limit?: number;
}

/**
 * The crawl's events, newest first, a page at a time (cursor = last id seen).
 * @throws NotFoundError when the crawl does not exist.
 */
export async function getEventsPage(
  db: Db,
  crawlId: number,
  { cursor, limit = 100 }: EventsPageOptions = {},
): Promise<{ events: CrawlEventView[]; nextCursor: string | null }> {
  await requireCrawl(db, crawlId);
  const rows = await db.crawlEvent.findMany({
    where: { crawlId, ...(cursor !== undefined ? { id: { lt: cursor } } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1,
    select: { id: true, at: true, level: true, kind: true, message: true },
  });
  const page = toPage(rows, limit);
  return { events: page.items.map((row) => ({ ...row, at: row.at.toISOString() })), nextCursor: page.nextCursor };
}
