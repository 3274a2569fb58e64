import os from "node:os";
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

/** Extends the leases of the crawls this worker runs (paused ones included: it holds them in memory). */
export async function heartbeatLeases(db: Db, workerId: string, crawlIds: number[], leaseMs: number): Promise<void> {
  const now = new Date();
  await db.worker.update({ where: { id: workerId }, data: { heartbeatAt: now } });
  if (crawlIds.length === 0) return;
  await db.crawl.updateMany({
    where: { id: { in: crawlIds }, workerId },
    data: { leaseExpiresAt: new Date(now.getTime() + leaseMs) },
  });
}

export async function releaseLease(db: Db, crawlId: number, workerId: string): Promise<void> {
  await db.crawl.updateMany({ where: { id: crawlId, workerId }, data: { workerId: null, leaseExpiresAt: null } });
}

/**
 * Crawls whose worker died (lease expired while running or paused). Their in-memory state is
 * gone, so they are marked failed with the cause; the checkpoint issue turns this into a resume.
 */
export async function failExpiredLeases(db: Db): Promise<number> {
  const result = await db.crawl.updateMany({
    where: { status: { in: ["running", "paused"] }, leaseExpiresAt: { lt: new Date() } },
    data: {
      status: "failed",
      stopReason: "failed",
      stopDetail: "interrupted: its worker stopped responding (lease expired)",
      finishedAt: new Date(),
      workerId: null,
      leaseExpiresAt: null,
    },
  });
  return result.count;
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
