import type {
  CrawlCounters,
  CrawlSink,
  EventRow,
  GroupRow,
  MetricRow,
  RequestRow,
  TargetBodyWriter,
  TargetRow,
} from "../crawler/engine/types";
import { PageBodyStore, type StoredPageBody } from "./page-bodies";
import type { Db } from "./prisma-client";
import { insertRows } from "./raw-insert";
import { TargetFileStore } from "./target-files";

const REQUEST_COLUMNS = [
  "crawlId", "seq", "kind", "method", "url", "status", "mime", "bytes", "durationMs", "tagPath", "groupId", "depth",
  "referrer", "isTarget", "outcome", "error", "redirectTo", "headers", "bodySha256", "startedAt",
] as const;
const BODY_COLUMNS = ["crawlId", "sha256", "storagePath", "offset", "compressedBytes", "bytes"] as const;
const TARGET_COLUMNS = [
  "crawlId", "url", "mime", "bytes", "sha256", "storagePath", "sourceUrl", "tagPath", "groupId", "requestSeq", "fetchedAt",
] as const;
const METRIC_COLUMNS = [
  "crawlId", "requests", "targets", "targetBytes", "nonTargetBytes", "frontierSize", "slope", "ema", "patience", "activeMs", "at",
] as const;

/** Rows buffered before a flush is forced. */
const MAX_BUFFERED_ROWS = 500;
/** Longest time rows wait in memory: the cockpit's live lag. */
const MAX_BUFFER_AGE_MS = 250;

/**
 * The crawl sink on the database: rows are buffered and written in one transaction per flush
 * (every 250 ms or 500 rows), which keeps SQLite's per-transaction cost (an fsync in WAL mode
 * at synchronous=NORMAL: none) away from the per-request path.
 */
export class PrismaCrawlSink implements CrawlSink {
  private requests: RequestRow[] = [];
  private targets: TargetRow[] = [];
  private metricRows: MetricRow[] = [];
  private eventRows: EventRow[] = [];
  private bodies: StoredPageBody[] = [];
  private groupRows: GroupRow[] | null = null;
  private counterRow: CrawlCounters | null = null;
  private lastMetricRequests = -1;
  private lastFlushAt = Date.now();
  private readonly files: TargetFileStore;
  private readonly pages: PageBodyStore;

  constructor(
    private readonly db: Db,
    private readonly crawlId: number,
    dataDir: string,
  ) {
    this.files = new TargetFileStore(dataDir, crawlId);
    this.pages = new PageBodyStore(dataDir, crawlId);
  }

  request(row: RequestRow): void {
    this.requests.push(row);
  }

  openTargetBody(): TargetBodyWriter {
    return this.files.open();
  }

  target(row: TargetRow): void {
    this.targets.push(row);
  }

  pageBody(body: Buffer): string {
    const { sha256, created } = this.pages.put(body);
    if (created) this.bodies.push(created);
    return sha256;
  }

  metrics(row: MetricRow): void {
    // One point per request count: a forced point at the same count replaces the last one.
    if (row.requests === this.lastMetricRequests) this.metricRows.pop();
    this.lastMetricRequests = row.requests;
    this.metricRows.push(row);
  }

  groups(rows: GroupRow[]): void {
    this.groupRows = rows;
  }

  event(row: EventRow): void {
    this.eventRows.push(row);
  }

  counters(counters: CrawlCounters): void {
    this.counterRow = counters;
  }

  /** Closes the page pack file (end of the run). */
  close(): void {
    this.pages.close();
  }

  /** Flushes when the buffer is old or large enough. */
  async flushIfDue(): Promise<void> {
    const buffered = this.requests.length + this.targets.length + this.metricRows.length;
    if (buffered >= MAX_BUFFERED_ROWS || Date.now() - this.lastFlushAt >= MAX_BUFFER_AGE_MS) await this.flush();
  }

  async flush(): Promise<void> {
    this.lastFlushAt = Date.now();
    const crawlId = this.crawlId;
    const requests = this.requests;
    const targets = this.targets;
    const metrics = this.metricRows;
    const events = this.eventRows;
    const bodies = this.bodies;
    const groups = this.groupRows;
    const counters = this.counterRow;
    this.requests = [];
    this.targets = [];
    this.metricRows = [];
    this.eventRows = [];
    this.bodies = [];
    this.groupRows = null;
    this.counterRow = null;
    if (!requests.length && !targets.length && !metrics.length && !events.length && !bodies.length && !groups && !counters) return;

    await this.db.$transaction(async (tx) => {
      if (requests.length) await insertRows(tx, "CrawlRequest", REQUEST_COLUMNS, requests.map((row) => ({ crawlId, ...row })));
      if (bodies.length) await insertRows(tx, "StoredBody", BODY_COLUMNS, bodies.map((body) => ({ crawlId, ...body })), ["crawlId", "sha256"]);
      // A crawl resumed after a crash may fetch a target again: it is stored once.
      if (targets.length) await insertRows(tx, "Target", TARGET_COLUMNS, targets.map((row) => ({ crawlId, ...row })), ["crawlId", "url"]);
      if (metrics.length) {
        const first = metrics[0]!.requests;
        await tx.metricPoint.deleteMany({ where: { crawlId, requests: { gte: first } } });
        await insertRows(
          tx,
          "MetricPoint",
          METRIC_COLUMNS,
          metrics.map((row) => ({ crawlId, ...row, targetBytes: BigInt(row.targetBytes), nonTargetBytes: BigInt(row.nonTargetBytes), at: new Date() })),
        );
      }
      if (events.length) {
        await tx.crawlEvent.createMany({
          data: events.map((row) => ({ crawlId, level: row.level, kind: row.kind, message: row.message, data: row.data === undefined ? null : JSON.stringify(row.data) })),
        });
      }
      if (groups) {
        await tx.tagPathGroup.deleteMany({ where: { crawlId } });
        if (groups.length) await tx.tagPathGroup.createMany({ data: groups.map((row) => ({ crawlId, ...row })) });
      }
      if (counters) {
        await tx.crawl.update({
          where: { id: crawlId },
          data: {
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
            activeMs: Math.round(counters.activeMs),
          },
        });
      }
    });
  }
}
