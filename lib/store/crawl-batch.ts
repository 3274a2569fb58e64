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
    !batch.requests.length && !batch.bodies.length && !batch.targets.length && !batch.metrics.length && !batch.events.length && !batch.groups && !batch.counters
  );
}
