import type { Db } from "../prisma-client";

/** A worker's health as the dashboard shows it. */
export type WorkerHealth = "running" | "unresponsive" | "stopping" | "stopped";

/** A worker's load over one heartbeat interval, as its heartbeat writes it (lib/worker/worker-load.ts). */
export interface WorkerLoad {
  crawlsHeld: number;
  /** Pages the worker's crawls started per second (robots.txt and HEAD requests not counted). */
  pagesPerSecond: number;
  /** Process CPU time per wall second: 1 = one core busy all the time. */
  cpuCores: number;
  rssBytes: number;
  /** 99th percentile of the event loop's delay: how late a timer or an answer runs. */
  loopDelayP99Ms: number;
}

/** The load columns of a `Worker` row, or null when it has never sent one. */
export function workerLoadOf(row: WorkerLoad & { loadSampledAt: Date | null }): WorkerLoad | null {
  if (row.loadSampledAt === null) return null;
  return { crawlsHeld: row.crawlsHeld, pagesPerSecond: row.pagesPerSecond, cpuCores: row.cpuCores, rssBytes: row.rssBytes, loopDelayP99Ms: row.loopDelayP99Ms };
}

export interface WorkerListItem {
  id: string;
  hostname: string;
  pid: number;
  /** Where it keeps crawled bytes: "local" (its data folder) or "s3://bucket/prefix". */
  storage: string;
  startedAt: string;
  heartbeatAt: string;
  /** Milliseconds since the last heartbeat, at the time of the query. */
  heartbeatAgeMs: number;
  /**
   * The row's state, except that a "running" worker whose heartbeat is older than a lease is
   * "unresponsive" (killed, frozen or cut off: its crawls go to another worker once their
   * leases expire).
   */
  health: WorkerHealth;
  /**
   * Its load over the heartbeat interval before `heartbeatAt` (lib/worker/worker-load.ts), or
   * null before its first heartbeat and once it has stopped.
   */
  load: WorkerLoad | null;
  /** The crawls it holds now (running or paused), oldest first. */
  crawls: Array<{ id: number; name: string | null; rootUrl: string; status: string; requests: number; targets: number }>;
}

/**
 * The workers that ever started against this database, live ones first (then by latest
 * heartbeat), with the crawls each holds. `leaseMs` is the workers' lease
 * (FORAGE_WORKER_LEASE_MS): heartbeats come every half lease, so a running worker silent for a
 * whole lease is unresponsive.
 */
export async function listWorkers(db: Db, { leaseMs, limit = 100, now = new Date() }: { leaseMs: number; limit?: number; now?: Date }): Promise<WorkerListItem[]> {
  const rows = await db.worker.findMany({ orderBy: [{ heartbeatAt: "desc" }, { id: "asc" }], take: limit });
  const held = await db.crawl.findMany({
    where: { workerId: { in: rows.map((row) => row.id) } },
    orderBy: { id: "asc" },
    select: { id: true, name: true, rootUrl: true, status: true, requestsCount: true, targetsCount: true, workerId: true },
  });
  const items = rows.map((row): WorkerListItem => {
    const heartbeatAgeMs = Math.max(0, now.getTime() - row.heartbeatAt.getTime());
    const state = row.state === "stopping" || row.state === "stopped" ? row.state : "running";
    return {
      id: row.id,
      hostname: row.hostname,
      pid: row.pid,
      storage: row.storage,
      startedAt: row.startedAt.toISOString(),
      heartbeatAt: row.heartbeatAt.toISOString(),
      heartbeatAgeMs,
      health: state === "running" && heartbeatAgeMs > leaseMs ? "unresponsive" : state,
      load: state === "stopped" ? null : workerLoadOf(row),
      crawls: held
        .filter((crawl) => crawl.workerId === row.id)
        .map((crawl) => ({ id: crawl.id, name: crawl.name, rootUrl: crawl.rootUrl, status: crawl.status, requests: crawl.requestsCount, targets: crawl.targetsCount })),
    };
  });
  const rank = (health: WorkerHealth) => (health === "running" ? 0 : health === "stopping" ? 1 : health === "unresponsive" ? 2 : 3);
  return items.sort((a, b) => rank(a.health) - rank(b.health));
}
