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
import { TargetFileStore } from "./target-files";

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

  /** Flushes when the buffer is old or large enough. */
  async flushIfDue(): Promise<void> {
    const buffered = this.requests.length + this.targets.length + this.metricRows.length;
    if (buffered >= MAX_BUFFERED_ROWS || Date.now() - this.lastFlushAt >= MAX_BUFFER_AGE_MS) await this.flush();
  }

  async flush(): Promise<void> {
    this.lastFlushAt = Date.now();
    await this.pages.flush(); // a StoredBody row never points at a file not yet written
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
      if (requests.length) await tx.crawlRequest.createMany({ data: requests.map((row) => ({ crawlId, ...row })) });
      if (bodies.length) await tx.storedBody.createMany({ data: bodies.map((body) => ({ crawlId, ...body })) });
      for (const target of targets) {
        // Upsert: a crawl resumed after a crash may fetch a target again; it is stored once.
        await tx.target.upsert({
          where: { crawlId_url: { crawlId, url: target.url } },
          create: { crawlId, ...target },
          update: {},
        });
      }
      if (metrics.length) {
        const first = metrics[0]!.requests;
        await tx.metricPoint.deleteMany({ where: { crawlId, requests: { gte: first } } });
        await tx.metricPoint.createMany({
          data: metrics.map((row) => ({ crawlId, ...row, targetBytes: BigInt(row.targetBytes), nonTargetBytes: BigInt(row.nonTargetBytes) })),
        });
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
