import os from "node:os";
import type { WorkerLoad } from "../store/queries/list-workers";
import type { Db } from "../store/prisma-client";

/**
 * Claims the oldest queued crawl for this worker. The claim is one conditional UPDATE
 * (`… WHERE id = ? AND status = 'queued'`): of two workers racing for the same crawl exactly
 * one sees a count of 1, on SQLite and PostgreSQL alike, without dialect-specific locking.
 * Returns the claimed crawl id, or null when nothing is queued.
 */
export async function claimNextCrawl(db: Db, workerId: string, leaseMs: number): Promise<number | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const candidate = await db.crawl.findFirst({ where: { status: "queued" }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
    if (!candidate) return null;
    const claimed = await db.crawl.updateMany({
      where: { id: candidate.id, status: "queued" },
      data: { status: "running", workerId, leaseExpiresAt: new Date(Date.now() + leaseMs), pendingControl: null },
    });
    if (claimed.count === 1) return candidate.id;
    // Another worker won this one: look again.
  }
  return null;
}

/**
 * Ids per statement when a query must name crawls one by one: Prisma refuses a statement past
 * its bind-parameter limit (a worker holding 2,000 crawls named them all in one `IN` and every
 * heartbeat failed), and a long list costs its query compiler more per id than a few short ones.
 */
export const IDS_PER_STATEMENT = 500;

/** `ids` in slices of at most {@link IDS_PER_STATEMENT}. */
export function idSlices(ids: readonly number[]): number[][] {
  const slices: number[][] = [];
  for (let at = 0; at < ids.length; at += IDS_PER_STATEMENT) slices.push(ids.slice(at, at + IDS_PER_STATEMENT));
  return slices;
}

/**
 * Extends the leases of the crawls this worker runs (paused ones included: it holds them in
 * memory), and records the worker's load with its heartbeat.
 */
export async function heartbeatLeases(db: Db, workerId: string, crawlIds: number[], leaseMs: number, load?: WorkerLoad): Promise<void> {
  const now = new Date();
  await db.worker.update({ where: { id: workerId }, data: { heartbeatAt: now, ...(load ? { ...load, loadSampledAt: now } : {}) } });
  const leaseExpiresAt = new Date(now.getTime() + leaseMs);
  for (const slice of idSlices(crawlIds)) {
    await db.crawl.updateMany({ where: { id: { in: slice }, workerId }, data: { leaseExpiresAt } });
  }
}

export async function releaseLease(db: Db, crawlId: number, workerId: string): Promise<void> {
  await db.crawl.updateMany({ where: { id: crawlId, workerId }, data: { workerId: null, leaseExpiresAt: null } });
}

/**
 * Claims a crawl whose worker died (status running or paused, lease expired) and that has a
 * checkpoint to resume from: the oldest such crawl, with the same conditional-update claim as
 * {@link claimNextCrawl} (the row must still be expired and in the status read). A paused crawl
 * stays paused: the claimer restores it and holds it in memory until the user resumes it.
 * Replays are never taken (a worker would crawl the live site), nor the crawls in `runningHere`
 * (see {@link failExpiredLeases}). Returns null when none waits.
 */
export async function claimExpiredCrawl(
  db: Db,
  workerId: string,
  leaseMs: number,
  runningHere: readonly number[] = [],
): Promise<{ id: number; status: "running" | "paused" } | null> {
  const here = new Set(runningHere);
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = new Date();
    // The crawls running here are left out after the query, not in it: a worker may hold thousands
    // (past Prisma's bind-parameter limit), and expired crawls are few (the status/lease index finds them).
    const candidates = await db.crawl.findMany({
      where: {
        status: { in: ["running", "paused"] },
        leaseExpiresAt: { lt: now },
        replayOfCrawlId: null,
        checkpoint: { isNot: null },
      },
      orderBy: [{ leaseExpiresAt: "asc" }, { id: "asc" }],
      select: { id: true, status: true, workerId: true },
    });
    const candidate = candidates.find((crawl) => !here.has(crawl.id));
    if (!candidate) return null;
    const claimed = await db.crawl.updateMany({
      where: { id: candidate.id, status: candidate.status, workerId: candidate.workerId, leaseExpiresAt: { lt: now } },
      data: { workerId, leaseExpiresAt: new Date(Date.now() + leaseMs) },
    });
    if (claimed.count === 1) return { id: candidate.id, status: candidate.status === "paused" ? "paused" : "running" };
  }
  return null;
}

/**
 * Crawls whose worker died (lease expired while running or paused) and that have no checkpoint
 * to resume from (it died before the first one, or the run wrote none): their state is gone,
 * so they are marked failed with the cause. Those with a checkpoint are resumed instead
 * ({@link claimExpiredCrawl}). `runningHere`: the crawls the calling worker is running. Their
 * lease lapsed only because its heartbeat came late (its event loop held up longer than the
 * lease, on a loaded machine); it is alive and renews them at its next heartbeat.
 */
export async function failExpiredLeases(db: Db, runningHere: readonly number[] = []): Promise<number> {
  const expiredWithoutCheckpoint = () => ({ status: { in: ["running", "paused"] }, leaseExpiresAt: { lt: new Date() }, checkpoint: { is: null } });
  // Found first, the crawls running here left out in memory (see claimExpiredCrawl), then failed
  // by id with the same conditions: a crawl renewed or checkpointed meanwhile is left alone.
  const here = new Set(runningHere);
  const expired = await db.crawl.findMany({ where: expiredWithoutCheckpoint(), select: { id: true } });
  const ids = expired.map((crawl) => crawl.id).filter((id) => !here.has(id));
  let failed = 0;
  for (const slice of idSlices(ids)) {
    const result = await db.crawl.updateMany({
      where: { id: { in: slice }, ...expiredWithoutCheckpoint() },
      data: {
        status: "failed",
        stopReason: "failed",
        stopDetail: "interrupted: its worker stopped responding (lease expired) before a checkpoint was written",
        finishedAt: new Date(),
        workerId: null,
        leaseExpiresAt: null,
      },
    });
    failed += result.count;
  }
  return failed;
}

/** Lease of a crawl run in the foreground (`forage crawl`, `forage replay`): renewed until `stop()`. */
export function holdLease(db: Db, crawlId: number, holderId: string, leaseMs: number): { stop: () => void } {
  const timer = setInterval(() => {
    void db.crawl
      .updateMany({ where: { id: crawlId, workerId: holderId }, data: { leaseExpiresAt: new Date(Date.now() + leaseMs) } })
      .catch(() => undefined);
  }, leaseMs / 2);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      void releaseLease(db, crawlId, holderId).catch(() => undefined);
    },
  };
}

/** The lease holder name of a foreground CLI process. */
export function cliHolderId(): string {
  return `cli:${os.hostname()}:${process.pid}`;
}

/** Lease of foreground runs. @default 60000 */
export const CLI_LEASE_MS = 60_000;
