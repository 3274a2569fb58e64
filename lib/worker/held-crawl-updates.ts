/**
 * Writes on a crawl the worker holds, outside its run: each one conditional on the worker still
 * holding it (a crawl the API took over after its lease expired is the API's), with the event
 * that says why.
 */
import type { FieldErrors } from "../crawl-config";
import type { SlowStep } from "../crawler/step-watch";
import type { Db } from "../store/prisma-client";

/** The event of a crawl the watchdog paused (its `data`: the step, its time and the limit). */
export const WATCHDOG_EVENT_KIND = "watchdog-paused";

type CrawlUpdate = Parameters<Db["crawl"]["updateMany"]>[0]["data"];

/** The row of a crawl that failed with `cause` (its first 500 characters), released by its worker. */
export function failedCrawlRow(cause: string) {
  return { status: "failed", stopReason: "failed", stopDetail: cause.slice(0, 500), finishedAt: new Date(), workerId: null, leaseExpiresAt: null } satisfies CrawlUpdate;
}

/** Updates the crawl only while `workerId` holds it; false when it no longer does. */
export async function updateHeldCrawl(db: Db, workerId: string, crawlId: number, data: CrawlUpdate): Promise<boolean> {
  const result = await db.crawl.updateMany({ where: { id: crawlId, workerId }, data });
  return result.count === 1;
}

/**
 * A stored crawl whose settings today's rules refuse (a `re:` pattern with a lookahead, stored
 * before patterns ran on RE2): failed with the reason, instead of being claimed again forever.
 */
export async function failUnrunnableCrawl(db: Db, workerId: string, crawlId: number, fields: FieldErrors): Promise<void> {
  const cause = `settings no longer accepted: ${Object.entries(fields).map(([field, message]) => `${field} ${message}`).join("; ")}`;
  if (await updateHeldCrawl(db, workerId, crawlId, failedCrawlRow(cause))) {
    await db.crawlEvent.create({ data: { crawlId, level: "error", kind: "failed", message: `Crawl failed: ${cause}` } });
  }
}

/**
 * The watchdog's pause in the database (the worker has paused the crawl in memory already): a
 * step of the crawl held the event loop past the limit, so every other crawl, the heartbeat and
 * the controls waited. Resumed like any paused crawl.
 */
export async function recordWatchdogPause(db: Db, workerId: string, crawlId: number, slow: SlowStep): Promise<void> {
  const message =
    `Crawl paused by the worker's watchdog: one step (${slow.step}) held the worker for ${slow.ms} ms, over its ` +
    `${slow.limitMs} ms limit, and every other crawl of the worker waited meanwhile. Check the crawl's URL patterns, then resume it.`;
  if (await updateHeldCrawl(db, workerId, crawlId, { status: "paused" })) {
    await db.crawlEvent.create({ data: { crawlId, level: "warn", kind: WATCHDOG_EVENT_KIND, message, data: JSON.stringify(slow) } });
  }
}
