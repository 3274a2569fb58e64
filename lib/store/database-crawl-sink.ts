import path from "node:path";
import type { ArchivedPayload } from "../crawler/fetch/exchange-recorder";
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
import { isEmptyBatch, type CheckpointRow, type CrawlBatch, type CrawlBatchWriter } from "./crawl-batch";
import type { ForageConfig } from "../config";
import { PostgresBatchWriter } from "./postgres-batch-writer";
import type { Db } from "./prisma-client";
import { SqliteBatchWriter } from "./sqlite-batch-writer";
import { TargetFileStore } from "./target-files";

/** `StoredBody.offset` is a 32-bit column: a record past it in a WARC file (rotation set above 2 GiB) is packed instead. */
const MAX_STORED_OFFSET = 2 ** 31 - 1;
/** Rows buffered before a flush is forced. */
const MAX_BUFFERED_ROWS = 500;
/** Longest time rows wait in memory: the cockpit's live lag. */
const MAX_BUFFER_AGE_MS = 250;

export interface DatabaseCrawlSinkOptions {
  /** Writes only while `Crawl.workerId` names this holder (see `CrawlBatch.holderId`). @default null */
  holderId?: string | null;
  /** Request-log rows already written for the crawl (a resumed crawl: its checkpoint's count). @default 0 */
  requestRowsWritten?: number;
  /**
   * The crawl's web archive, when it keeps one: pages it archived are stored as rows pointing
   * at their WARC records instead of a second copy in a page pack. @default null
   */
  archive?: PageArchive | null;
}

/** What the sink needs of the web archive: its records of the exchanges ended so far written to disk. */
export interface PageArchive {
  sync(): Promise<void>;
  /** Whether `sync` also publishes the records to a shared bucket (then every batch of rows waits for it). */
  readonly publishes?: boolean;
}

/** A new page body whose location in the web archive is not known yet. */
interface ArchivedBody {
  sha256: string;
  body: Buffer;
  archived: Promise<ArchivedPayload | null>;
}

/**
 * The crawl sink on the database: rows are buffered and written in one transaction per flush
 * (every 250 ms or 500 rows), which keeps SQLite's per-transaction cost (an fsync in WAL mode
 * at synchronous=NORMAL: none) away from the per-request path. A flush may carry a checkpoint
 * of the engine's state, written in the same transaction as the rows it describes.
 *
 * The engine flushes between pages; inside a long page (hundreds of links typed or targets
 * downloaded) the sink also starts a flush itself once the buffer is 250 ms old, so the request
 * log, which a crash recovery replays, never lags the site by more than that. Flushes commit in
 * the order they were started; after a failed one nothing more is written (no gap in the log),
 * and the next awaited flush throws its error.
 */
export class DatabaseCrawlSink implements CrawlSink {
  private requests: RequestRow[] = [];
  private targets: TargetRow[] = [];
  private metricRows: MetricRow[] = [];
  private eventRows: EventRow[] = [];
  private bodies: StoredPageBody[] = [];
  private archivedBodies: ArchivedBody[] = [];
  private readonly archive: PageArchive | null;
  private groupRows: GroupRow[] | null = null;
  private counterRow: CrawlCounters | null = null;
  private lastMetricRequests = -1;
  private lastFlushAt = Date.now();
  private readonly files: TargetFileStore;
  private readonly pages: PageBodyStore;
  private readonly holderId: string | null;
  private requestRowsWritten: number;
  /** The flushes started so far, in order; never rejects. */
  private writing: Promise<void> = Promise.resolve();
  private failure: unknown = null;

  constructor(
    private readonly writer: CrawlBatchWriter,
    private readonly crawlId: number,
    private readonly dataDir: string,
    options: DatabaseCrawlSinkOptions = {},
  ) {
    this.files = new TargetFileStore(dataDir, crawlId);
    this.pages = new PageBodyStore(dataDir, crawlId);
    this.holderId = options.holderId ?? null;
    this.archive = options.archive ?? null;
    this.requestRowsWritten = options.requestRowsWritten ?? 0;
  }

  /**
   * Request-log rows of the crawl so far, buffered ones included. A checkpoint records it: on
   * resume, the rows after that many (by id) were written after the checkpoint and are removed.
   */
  get requestRows(): number {
    return this.requestRowsWritten + this.requests.length;
  }

  /** Page bodies stored by earlier runs of the crawl (resume): not stored again. */
  rememberPageBodies(sha256s: Iterable<string>): void {
    this.pages.remember(sha256s);
  }

  request(row: RequestRow): void {
    this.requests.push(row);
    // A target's row waits for its Target row (recorded once the file is in place): a recovery
    // answers the request from that file.
    if (!row.isTarget) this.flushInBackgroundIfDue();
  }

  openTargetBody(): TargetBodyWriter {
    return this.files.open();
  }

  target(row: TargetRow): void {
    this.targets.push(row);
    this.flushInBackgroundIfDue();
  }

  pageBody(body: Buffer, archived?: Promise<ArchivedPayload | null>): string {
    const { sha256, isNew } = this.pages.claim(body);
    if (!isNew) return sha256;
    if (archived && this.archive) this.archivedBodies.push({ sha256, body, archived });
    else this.bodies.push(this.pages.append(sha256, body));
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

  /** Closes the page pack file and the writer (end of the run). */
  close(): void {
    this.pages.close();
    this.writer.close();
  }

  /** Flushes when the buffer is old or large enough. */
  async flushIfDue(): Promise<void> {
    const buffered = this.requests.length + this.targets.length + this.metricRows.length;
    if (buffered >= MAX_BUFFERED_ROWS || Date.now() - this.lastFlushAt >= MAX_BUFFER_AGE_MS) await this.flush();
  }

  /** Mid-page: starts a flush once the buffer is old enough; a failure surfaces at the next awaited flush. */
  private flushInBackgroundIfDue(): void {
    if (Date.now() - this.lastFlushAt >= MAX_BUFFER_AGE_MS) this.flush().catch(() => undefined);
  }

  /** Writes every buffered row, and `checkpoint` with them when given, in one transaction (after the flushes started before). */
  async flush(checkpoint: CheckpointRow | null = null): Promise<void> {
    if (this.failure) throw this.failure;
    this.lastFlushAt = Date.now();
    this.pages.sync(); // the body rows below point into the pack
    const archivedBodies = this.archivedBodies;
    this.archivedBodies = [];
    const batch: CrawlBatch = {
      crawlId: this.crawlId,
      requests: this.requests,
      bodies: this.bodies,
      targets: this.targets,
      metrics: this.metricRows,
      events: this.eventRows,
      groups: this.groupRows,
      counters: this.counterRow,
      checkpoint,
      holderId: this.holderId,
    };
    this.requestRowsWritten += this.requests.length;
    this.requests = [];
    this.targets = [];
    this.metricRows = [];
    this.eventRows = [];
    this.bodies = [];
    this.groupRows = null;
    this.counterRow = null;
    if (isEmptyBatch(batch) && archivedBodies.length === 0) {
      await this.writing;
      if (this.failure) throw this.failure;
      return;
    }
    const written = this.writing.then(async () => {
      if (this.failure) throw this.failure;
      try {
        if (archivedBodies.length > 0) batch.bodies.push(...(await this.locate(archivedBodies)));
        // With a shared bucket, the records of the exchanges these rows log are published before
        // the rows: a worker taking the crawl over answers them from the log, not the site.
        else if (this.archive?.publishes && (batch.requests.length > 0 || batch.targets.length > 0 || batch.checkpoint)) await this.archive.sync();
        await this.pages.publish();
        await this.writer.write(batch);
      } catch (error) {
        this.failure ??= error;
        throw error;
      }
    });
    this.writing = written.catch(() => undefined);
    await written;
  }

  /**
   * The rows of bodies the web archive holds, once their records are on disk (a row never points
   * past a WARC file's end); a body the archive did not keep whole goes to the pack instead.
   */
  private async locate(waiting: ArchivedBody[]): Promise<StoredPageBody[]> {
    await this.archive!.sync();
    const rows: StoredPageBody[] = [];
    for (const { sha256, body, archived } of waiting) {
      const location = await archived;
      if (location && location.offset + location.length <= MAX_STORED_OFFSET) {
        rows.push({ sha256, storagePath: path.relative(this.dataDir, location.file), offset: location.offset, compressedBytes: location.length, bytes: body.length });
      } else {
        rows.push(this.pages.append(sha256, body));
      }
    }
    this.pages.sync();
    return rows;
  }
}

/** The batch writer for the configured database: SQLite direct, PostgreSQL with group commit through Prisma. */
export function createBatchWriter(db: Db, forage: ForageConfig): CrawlBatchWriter {
  return forage.databaseProvider === "sqlite" ? new SqliteBatchWriter(forage.sqlitePath!) : new PostgresBatchWriter(db);
}
