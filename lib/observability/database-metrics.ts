import { CRAWL_STATUSES } from "../crawl-status";
import type { Db } from "../store/prisma-client";
import { WAITING_EVENT_KIND } from "../store/queries/get-crawl";
import { workerLoadOf, type WorkerLoad } from "../store/queries/list-workers";

/**
 * The service's numbers as the database holds them, read at scrape time by a handful of
 * aggregate queries whose cost grows with the number of crawls, never with their requests:
 * the dashboard does not crawl, so the workers' work is known only through the rows they write.
 * Totals are over the crawls stored now (a deleted crawl takes its numbers with it), hence gauges.
 */
export interface CrawlTotals {
  crawls: number;
  getRequests: number;
  headRequests: number;
  errors: number;
  robotsSkips: number;
  targets: number;
  targetBytes: number;
  nonTargetBytes: number;
}

export interface WorkerBeat {
  id: string;
  state: string;
  heartbeatAgeSeconds: number;
  /** "running", "unresponsive" (silent for a whole lease) or "stopping". */
  health: "running" | "unresponsive" | "stopping";
  /** Its load at the last heartbeat (lib/worker/worker-load.ts); null before its first. */
  load: WorkerLoad | null;
}

export interface DatabaseSnapshot {
  /** Per crawl status (every status of CRAWL_STATUSES present, zeros included). */
  byStatus: Record<string, CrawlTotals>;
  /** Age of the oldest queued crawl, or 0 when none waits. */
  oldestQueuedSeconds: number;
  /** Per delivery state: pending, delivered, gave-up. */
  webhookDeliveries: Record<string, number>;
  /** Attempts that did not deliver (every attempt but the one that delivered). */
  webhookFailedAttempts: number;
  /** Workers not stopped, latest heartbeat first (at most `MAX_WORKERS`). */
  workers: WorkerBeat[];
  /** Retry-After waits the crawls running or paused now have recorded (their "waiting" events). */
  rateLimitWaits: number;
  /** Hosts the shared host clock holds back for a Retry-After now (PostgreSQL; 0 on SQLite, whose clock lives in each worker). */
  hostsRateLimited: number;
}

export const MAX_WORKERS = 200;

const emptyTotals = (): CrawlTotals => ({ crawls: 0, getRequests: 0, headRequests: 0, errors: 0, robotsSkips: 0, targets: 0, targetBytes: 0, nonTargetBytes: 0 });

export async function readDatabaseSnapshot(db: Db, { leaseMs, now = new Date() }: { leaseMs: number; now?: Date }): Promise<DatabaseSnapshot> {
  const [groups, oldestQueued, deliveries, workers, rateLimitWaits, hostsRateLimited] = await Promise.all([
    db.crawl.groupBy({
      by: ["status"],
      _count: { _all: true },
      _sum: { getCount: true, headCount: true, errorsCount: true, robotsSkips: true, targetsCount: true, targetBytes: true, nonTargetBytes: true },
    }),
    db.crawl.findFirst({ where: { status: "queued" }, orderBy: { createdAt: "asc" }, select: { createdAt: true } }),
    db.webhookDelivery.groupBy({ by: ["state"], _count: { _all: true }, _sum: { attempts: true } }),
    db.worker.findMany({ where: { state: { not: "stopped" } }, orderBy: [{ heartbeatAt: "desc" }, { id: "asc" }], take: MAX_WORKERS, select: { id: true, state: true, heartbeatAt: true, loadSampledAt: true, crawlsHeld: true, pagesPerSecond: true, cpuCores: true, rssBytes: true, loopDelayP99Ms: true } }),
    // The events of the active crawls only (a subquery on the crawl's status, then the (crawlId, id) index), not the whole log.
    db.crawlEvent.count({ where: { kind: WAITING_EVENT_KIND, crawl: { status: { in: ["running", "paused"] } } } }),
    db.hostClock.count({ where: { blockedUntil: { gt: now } } }),
  ]);
  const byStatus: Record<string, CrawlTotals> = Object.fromEntries(CRAWL_STATUSES.map((status) => [status, emptyTotals()]));
  for (const group of groups) {
    byStatus[group.status] = {
      crawls: group._count._all,
      getRequests: group._sum.getCount ?? 0,
      headRequests: group._sum.headCount ?? 0,
      errors: group._sum.errorsCount ?? 0,
      robotsSkips: group._sum.robotsSkips ?? 0,
      targets: group._sum.targetsCount ?? 0,
      targetBytes: Number(group._sum.targetBytes ?? 0),
      nonTargetBytes: Number(group._sum.nonTargetBytes ?? 0),
    };
  }
  const webhookDeliveries: Record<string, number> = { pending: 0, delivered: 0, "gave-up": 0 };
  let attempts = 0;
  for (const group of deliveries) {
    webhookDeliveries[group.state] = group._count._all;
    attempts += group._sum.attempts ?? 0;
  }
  return {
    byStatus,
    oldestQueuedSeconds: oldestQueued ? Math.max(0, (now.getTime() - oldestQueued.createdAt.getTime()) / 1000) : 0,
    webhookDeliveries,
    webhookFailedAttempts: Math.max(0, attempts - (webhookDeliveries.delivered ?? 0)),
    workers: workers.map((row) => {
      const ageMs = Math.max(0, now.getTime() - row.heartbeatAt.getTime());
      const health = row.state === "stopping" ? "stopping" : ageMs > leaseMs ? "unresponsive" : "running";
      return { id: row.id, state: row.state, heartbeatAgeSeconds: ageMs / 1000, health, load: workerLoadOf(row) };
    }),
    rateLimitWaits,
    hostsRateLimited,
  };
}
