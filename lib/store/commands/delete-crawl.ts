import fs from "node:fs/promises";
import type { ForageConfig } from "../../config";
import { isActiveStatus } from "../../crawl-status";
import { InvalidStateError, NotFoundError } from "../../errors";
import { audit, type AuditContext } from "../../auth/audit-context";
import type { Db } from "../prisma-client";
import { crawlFolderPath, removeStoredCrawl } from "./crawl-files";

/**
 * Deletes a crawl that is over (finished, failed or cancelled): its rows (requests, targets,
 * metrics… go with it by ON DELETE CASCADE) and its folder `<dataDir>/crawls/<id>/`.
 * Refused while queued, running or paused, where a worker may be writing: stop or cancel first.
 * The row goes first, so a crash in between leaves an orphan folder, never a crawl without files.
 * Recorded in the audit log when `context` says who asked.
 * @throws NotFoundError, InvalidStateError (409).
 */
export async function deleteCrawl(db: Db, config: ForageConfig, crawlId: number, context?: AuditContext): Promise<void> {
  const crawl = await db.crawl.findUnique({ where: { id: crawlId }, select: { status: true, name: true, rootUrl: true } });
  if (!crawl) throw new NotFoundError(`Crawl ${crawlId}`);
  if (isActiveStatus(crawl.status)) {
    throw new InvalidStateError(`Crawl ${crawlId} is ${crawl.status}: stop or cancel it before deleting it`);
  }
  // Conditional on the status read above, in case it was resumed or re-queued meanwhile.
  const { count } = await db.crawl.deleteMany({ where: { id: crawlId, status: crawl.status } });
  if (count === 0) throw new InvalidStateError(`Crawl ${crawlId} changed state while being deleted: try again`);
  if (context) await audit(db, context, "crawl-deleted", `crawl ${crawlId}`, { name: crawl.name, rootUrl: crawl.rootUrl, status: crawl.status });
  await fs.rm(crawlFolderPath(config, crawlId), { recursive: true, force: true });
  await removeStoredCrawl(config, crawlId);
}
