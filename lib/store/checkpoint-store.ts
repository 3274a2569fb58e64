import type { CrawlCounters } from "../crawler/engine/types";
import { crawlCounterColumns } from "./crawl-batch";
import type { Db } from "./prisma-client";
import { TargetFileStore } from "./target-files";

/**
 * Crash resume on the database side. A checkpoint (`CrawlCheckpoint`) is written by the crawl
 * sink in the same transaction as the rows it describes (crawl-batch.ts), so at the moment it is
 * written the database holds exactly the rows of its state. Flushes between two checkpoints add
 * rows the checkpoint does not know; a crawl resumed from it first removes them, then repeats
 * that work with the same choices (same PRNG, same frontier), the removed rows answering its
 * requests (recovery-journal.ts reads them before the rollback).
 */

export interface StoredCheckpoint {
  requests: number;
  version: number;
  state: Uint8Array;
  createdAt: Date;
}

export async function loadCheckpoint(db: Db, crawlId: number): Promise<StoredCheckpoint | null> {
  return db.crawlCheckpoint.findUnique({ where: { crawlId }, select: { requests: true, version: true, state: true, createdAt: true } });
}

/** Counted requests of the crawl's checkpoint, or null when it has none (cheap: no state read). */
export async function checkpointRequests(db: Db, crawlId: number): Promise<number | null> {
  const row = await db.crawlCheckpoint.findUnique({ where: { crawlId }, select: { requests: true } });
  return row?.requests ?? null;
}

export async function deleteCheckpoint(db: Db, crawlId: number): Promise<void> {
  await db.crawlCheckpoint.deleteMany({ where: { crawlId } });
}

/** Checkpoints of crawls that are over (finished, failed, cancelled): they never resume. */
export async function deleteOverCheckpoints(db: Db): Promise<number> {
  const result = await db.crawlCheckpoint.deleteMany({ where: { crawl: { status: { in: ["finished", "failed", "cancelled"] } } } });
  return result.count;
}

/** Id of the last request row a checkpoint covers (its first `requestRows` rows); 0 when none; null when fewer rows exist. */
export async function checkpointLastRowId(db: Db, crawlId: number, requestRows: number): Promise<number | null> {
  if (requestRows <= 0) return 0;
  const row = await db.crawlRequest.findFirst({ where: { crawlId }, orderBy: { id: "asc" }, skip: requestRows - 1, select: { id: true } });
  return row?.id ?? null;
}

export interface CheckpointPoint {
  /** Counted requests in the checkpoint (its last request's seq). */
  requests: number;
  /** Request-log rows written with the checkpoint (counted and uncounted). */
  requestRows: number;
  counters: CrawlCounters;
}

export interface RollBackResult {
  requestRows: number;
  targets: number;
  metricPoints: number;
  files: number;
}

/**
 * Brings a crawl's rows back to its checkpoint: request-log rows after the first `requestRows`
 * (by id: one writer per crawl, ids grow with time), targets fetched by a later request, metric
 * points after it, files no remaining target names and temporary downloads; counters as saved.
 *
 * Not one transaction, on purpose: every step is idempotent (the first `requestRows` rows never
 * change), so a crash in the middle is repaired by the next resume, and SQLite never sees a
 * read-then-write transaction that another connection's commit would fail with SQLITE_BUSY.
 * Events are kept: they tell what happened, the interrupted part included.
 */
export async function rollBackToCheckpoint(db: Db, dataDir: string, crawlId: number, point: CheckpointPoint): Promise<RollBackResult> {
  // None (fewer rows than that): nothing came after it.
  const lastId = await checkpointLastRowId(db, crawlId, point.requestRows);
  const requests = lastId !== null ? await db.crawlRequest.deleteMany({ where: { crawlId, id: { gt: lastId } } }) : { count: 0 };
  const targets = await db.target.deleteMany({ where: { crawlId, requestSeq: { gt: point.requests } } });
  const metricPoints = await db.metricPoint.deleteMany({ where: { crawlId, requests: { gt: point.requests } } });
  await db.crawl.update({ where: { id: crawlId }, data: crawlCounterColumns(point.counters) });
  const kept = await db.target.findMany({ where: { crawlId }, select: { sha256: true } });
  const files = new TargetFileStore(dataDir, crawlId);
  files.cleanTemporary();
  const referenced = new Set(kept.map((row) => row.sha256));
  const removed = files.removeUnreferenced(referenced) + (await files.removeUnreferencedStored(referenced));
  return { requestRows: requests.count, targets: targets.count, metricPoints: metricPoints.count, files: removed };
}

/** Hashes of the page bodies the crawl stored so far (not stored again after a resume). */
export async function storedBodyHashes(db: Db, crawlId: number): Promise<string[]> {
  const rows = await db.storedBody.findMany({ where: { crawlId }, select: { sha256: true } });
  return rows.map((row) => row.sha256);
}
