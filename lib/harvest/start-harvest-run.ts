import { InvalidStateError, NotFoundError } from "../errors";
import { parseCrawlConfig, withCurrentParamNames } from "../crawl-config";
import { insertCrawl } from "../store/insert-crawl";
import type { Db } from "../store/prisma-client";

/** Statuses of a run still going: a harvest has at most one (migration 0005's partial unique index). */
export const ACTIVE_RUN_STATUSES = ["queued", "running", "paused"] as const;

/** Whether a Prisma error is a unique-constraint violation (P2002), here the one-active-run index. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

/**
 * Queues the next run of a harvest: a normal crawl with the harvest's settings, `after` its
 * latest finished run (so it starts from that run's learned state and knows its files; a
 * harvest without one crawls afresh), and `harvestId` set.
 * @throws NotFoundError for an unknown harvest; InvalidStateError (409) when a run is queued,
 *   running or paused: the database's unique index refuses a second one even when two callers race.
 */
export async function startHarvestRun(db: Db, harvestId: number): Promise<{ crawlId: number; after: number | null }> {
  const harvest = await db.harvest.findUnique({ where: { id: harvestId }, select: { id: true, name: true, config: true, createdById: true } });
  if (!harvest) throw new NotFoundError(`Harvest ${harvestId}`);
  const active = await db.crawl.findFirst({ where: { harvestId, status: { in: [...ACTIVE_RUN_STATUSES] } }, select: { id: true, status: true } });
  if (active) throw runInProgress(harvestId, active.id, active.status);
  const previous = await db.crawl.findFirst({
    where: { harvestId, status: "finished", replayOfCrawlId: null },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
    select: { id: true },
  });
  // A definition stored before a setting was renamed or retired is read with today's names.
  const stored = withCurrentParamNames(JSON.parse(harvest.config)) as Record<string, unknown>;
  const after = previous?.id ?? null;
  const config = parseCrawlConfig({ ...stored, name: stored.name ?? harvest.name, after, checkKnownFiles: after !== null && stored.checkKnownFiles === true });
  try {
    const crawlId = await insertCrawl(db, config, { createdById: harvest.createdById, harvestId });
    return { crawlId, after };
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const raced = await db.crawl.findFirst({ where: { harvestId, status: { in: [...ACTIVE_RUN_STATUSES] } }, select: { id: true, status: true } });
    throw runInProgress(harvestId, raced?.id ?? null, raced?.status ?? "queued");
  }
}

function runInProgress(harvestId: number, crawlId: number | null, status: string): InvalidStateError {
  return new InvalidStateError(`Harvest ${harvestId} has a run in progress${crawlId === null ? "" : ` (crawl ${crawlId}, ${status})`}: runs of a harvest never overlap`);
}
