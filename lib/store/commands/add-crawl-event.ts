import type { Db } from "../prisma-client";

export interface CrawlEventInput {
  level: "info" | "warn" | "error";
  /** e.g. created, paused, control-requested, config-changed, waiting. */
  kind: string;
  message: string;
  /** Structured detail, stored as JSON text. */
  data?: unknown;
}

/** Appends one line to the crawl's log (shown newest first by `getEventsPage`). */
export async function addCrawlEvent(db: Db, crawlId: number, event: CrawlEventInput): Promise<void> {
  await db.crawlEvent.create({
    data: {
      crawlId,
      level: event.level,
      kind: event.kind,
      message: event.message,
      data: event.data === undefined ? null : JSON.stringify(event.data),
    },
  });
}
