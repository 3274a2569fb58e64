import type { ForageConfig } from "../../config";
import { InvalidStateError, NotFoundError } from "../../errors";
import type { Db } from "../prisma-client";
import { getCrawl, type CrawlDetail } from "../queries/get-crawl";
import { addCrawlEvent } from "./add-crawl-event";
import { planControl, type ControlAction } from "./control-plan";
import { discardCrawlFiles } from "./crawl-files";

/** Tries before giving up when the worker keeps changing the row under us. */
const MAX_ATTEMPTS = 5;

/**
 * Pauses, resumes, stops or cancels a crawl following the state machine of control-plan.ts:
 * directly when no worker holds the crawl, through `pendingControl` when one does.
 *
 * The write is a compare-and-set on (status, pendingControl, workerId): if the worker claimed,
 * paused or finished the crawl between our read and our write, nothing is written and the
 * decision is taken again on the fresh row. No transaction: on SQLite a read-then-write
 * transaction can fail with SQLITE_BUSY when the worker commits in between.
 * @returns the crawl after the change.
 * @throws NotFoundError, InvalidStateError (409 with the reason).
 */
export async function requestControl(db: Db, config: ForageConfig, crawlId: number, action: ControlAction): Promise<CrawlDetail> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const crawl = await db.crawl.findUnique({
      where: { id: crawlId },
      select: { id: true, status: true, pendingControl: true, workerId: true, leaseExpiresAt: true },
    });
    if (!crawl) throw new NotFoundError(`Crawl ${crawlId}`);
    const plan = planControl(crawl, action, Date.now());
    if (plan.update) {
      const { count } = await db.crawl.updateMany({
        where: { id: crawlId, status: crawl.status, pendingControl: crawl.pendingControl, workerId: crawl.workerId },
        data: plan.update,
      });
      if (count === 0) continue;
    }
    if (plan.event) await addCrawlEvent(db, crawlId, { level: "info", ...plan.event, data: { action } });
    if (plan.discardFiles) await discardCrawlFiles(db, config, crawlId);
    return getCrawl(db, crawlId);
  }
  throw new InvalidStateError(`Crawl ${crawlId} kept changing state while applying "${action}": try again`);
}
