import type { CrawlCounters, EventRow, GroupRow, MetricRow, RequestRow, TargetRow } from "../crawler/engine/types";
import type { StoredPageBody } from "./page-bodies";

/** Everything a crawl sink writes in one flush, in one transaction. */
export interface CrawlBatch {
  crawlId: number;
  requests: RequestRow[];
  bodies: StoredPageBody[];
  targets: TargetRow[];
  metrics: MetricRow[];
  events: EventRow[];
  /** The latest snapshot of every group, replacing the previous one; null when unchanged. */
  groups: GroupRow[] | null;
  counters: CrawlCounters | null;
  /**
   * The engine's state at the end of this batch's rows, replacing the previous checkpoint in the
   * same transaction: a checkpoint never describes rows that were not written, nor misses any.
   */
  checkpoint: CheckpointRow | null;
  /**
   * The lease holder writing for the crawl: the batch is written only while `Crawl.workerId`
   * still names it, else the writer throws {@link LeaseLostError} and writes nothing. Null for
   * writers that hold no lease (tests, replays).
   */
  holderId: string | null;
}

/** One `CrawlCheckpoint` row. */
export interface CheckpointRow {
  /** Counted requests included. */
  requests: number;
  version: number;
  /** gzip-compressed JSON. */
  state: Buffer;
}

/**
 * The crawl is no longer held by this writer (its lease expired and another worker, or the API,
 * took it over): the run must stop without writing anything more, the new owner's decision stands.
 */
export class LeaseLostError extends Error {
  override name = "LeaseLostError";
}

/**
 * Writes a crawl batch atomically. One implementation per database (STYLE.md "Storage is an
 * interface"): SQLite through its own better-sqlite3 connection and prepared statements, the
 * others through Prisma.
 */
export interface CrawlBatchWriter {
  write(batch: CrawlBatch): Promise<void>;
  /** Releases what the writer opened (its own SQLite connection). */
  close(): void;
}

export function isEmptyBatch(batch: CrawlBatch): boolean {
  return (
    !batch.requests.length &&
    !batch.bodies.length &&
    !batch.targets.length &&
    !batch.metrics.length &&
    !batch.events.length &&
    !batch.groups &&
    !batch.counters &&
    !batch.checkpoint
  );
}

/** The crawl row's counter columns for a counters snapshot (Prisma writes; the SQLite writer binds the same values). */
export function crawlCounterColumns(counters: CrawlCounters) {
  return {
    requestsCount: counters.requests,
    getCount: counters.getRequests,
    headCount: counters.headRequests,
    targetsCount: counters.targets,
    targetBytes: BigInt(counters.targetBytes),
    nonTargetBytes: BigInt(counters.nonTargetBytes),
    errorsCount: counters.errors,
    robotsSkips: counters.robotsSkips,
    frontierSize: counters.frontierSize,
    groupsCount: counters.groups,
    renderedPages: counters.renderedPages,
    activeMs: Math.round(counters.activeMs),
  };
}
