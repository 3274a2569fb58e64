import Database from "better-sqlite3";
import { LeaseLostError, type CrawlBatch, type CrawlBatchWriter } from "./crawl-batch";
import { BODY_COLUMNS, METRIC_COLUMNS, REQUEST_COLUMNS, TARGET_COLUMNS } from "./prisma-batch-writer";

/** Retry delays when another process holds the write lock. */
const BUSY_RETRY_MS = [5, 10, 20, 50, 100, 200, 400, 800, 1600, 3200] as const;

/** SQLite stores DateTime as Prisma's adapter writes it (timestampFormat "iso8601"). */
function sqliteTime(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
}

function insertSql(table: string, columns: readonly string[], orIgnore = false): string {
  return `INSERT ${orIgnore ? "OR IGNORE " : ""}INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
}

type Statement = Database.Statement<unknown[]>;

/**
 * Shortest time between two commits of one connection. Batches that arrive meanwhile (the
 * crawls of a worker flush every 250 ms each, at their own phase) wait for the next one and share
 * it: a commit's cost (the WAL frames of every table and index page touched) is paid once for
 * all of them. A lone crawl's flushes are further apart than this and never wait.
 */
const GROUP_COMMIT_MS = 20;

/**
 * Most batches in one transaction. A commit is synchronous: a worker holding thousands of crawls
 * that all flush after their first pages would otherwise write them all in one transaction and
 * hold the event loop (timers, the heartbeat, the watchdog's beats) for its whole length. The
 * rest wait for the next commit, a turn of the event loop later.
 */
export const MAX_BATCHES_PER_COMMIT = 64;

interface QueuedBatch {
  batch: CrawlBatch;
  resolve: () => void;
  reject: (error: unknown) => void;
  error?: unknown;
}

/**
 * Crawl batches on SQLite through a better-sqlite3 connection (not Prisma's) and prepared
 * statements, not Prisma's query compiler, which cost more than the rest of a flush.
 *
 * The writers of one database file in a process share one connection
 * ({@link SharedSqliteConnection}): a worker holding hundreds of crawls keeps one page cache and
 * one set of statements, and batches that arrive close together are written in one transaction
 * (group commit), each batch in its own savepoint: a batch that fails (a lost lease) is rolled
 * back alone, and its writer alone sees the error.
 */
export class SqliteBatchWriter implements CrawlBatchWriter {
  private readonly connection: SharedSqliteConnection;
  private closed = false;

  constructor(sqlitePath: string) {
    this.connection = SharedSqliteConnection.open(sqlitePath);
  }

  write(batch: CrawlBatch): Promise<void> {
    return this.connection.write(batch);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connection.release();
  }
}

/**
 * One better-sqlite3 connection per database file and process, counted by its writers.
 *
 * The whole transaction is synchronous, so it never holds the write lock across an await. The
 * connection's busy timeout is 0 and SQLITE_BUSY is retried after a timer instead: a
 * synchronous busy wait would block the event loop, and with it the Prisma connection of this
 * same process that may hold the lock (a deadlock until the timeout).
 */
class SharedSqliteConnection {
  private static readonly open_ = new Map<string, SharedSqliteConnection>();

  static open(sqlitePath: string): SharedSqliteConnection {
    let connection = SharedSqliteConnection.open_.get(sqlitePath);
    if (!connection) {
      connection = new SharedSqliteConnection(sqlitePath);
      SharedSqliteConnection.open_.set(sqlitePath, connection);
    }
    connection.writers += 1;
    return connection;
  }

  private readonly db: Database.Database;
  private readonly statements: Record<
    "holder" | "request" | "body" | "target" | "metricDelete" | "metric" | "event" | "groupDelete" | "group" | "counters" | "checkpoint",
    Statement
  >;
  /** One batch in a savepoint (a transaction function called inside another one). */
  private readonly writeBatch: Database.Transaction<(batch: CrawlBatch) => void>;
  private readonly writeGroup: Database.Transaction<(group: QueuedBatch[]) => void>;
  private writers = 0;
  private queue: QueuedBatch[] = [];
  private scheduled = false;
  private lastCommitAt = -Infinity;

  private constructor(private readonly sqlitePath: string) {
    this.db = new Database(sqlitePath, { timeout: 0 });
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    this.statements = {
      holder: this.db.prepare(`SELECT "workerId" FROM "Crawl" WHERE "id" = ?`),
      request: this.db.prepare(insertSql("CrawlRequest", REQUEST_COLUMNS)),
      body: this.db.prepare(insertSql("StoredBody", BODY_COLUMNS, true)),
      target: this.db.prepare(insertSql("Target", TARGET_COLUMNS, true)),
      metricDelete: this.db.prepare(`DELETE FROM "MetricPoint" WHERE "crawlId" = ? AND "requests" >= ?`),
      metric: this.db.prepare(insertSql("MetricPoint", METRIC_COLUMNS)),
      event: this.db.prepare(insertSql("CrawlEvent", ["crawlId", "level", "kind", "message", "data", "at"])),
      groupDelete: this.db.prepare(`DELETE FROM "TagPathGroup" WHERE "crawlId" = ?`),
      group: this.db.prepare(
        insertSql("TagPathGroup", ["crawlId", "groupId", "sampleTagPath", "members", "available", "selections", "meanReward", "totalReward", "updatedAt"]),
      ),
      counters: this.db.prepare(
        `UPDATE "Crawl" SET "requestsCount" = ?, "getCount" = ?, "headCount" = ?, "targetsCount" = ?, "targetBytes" = ?, "nonTargetBytes" = ?, ` +
          `"errorsCount" = ?, "robotsSkips" = ?, "frontierSize" = ?, "groupsCount" = ?, "renderedPages" = ?, "activeMs" = ?, "updatedAt" = ? WHERE "id" = ?`,
      ),
      checkpoint: this.db.prepare(
        `INSERT INTO "CrawlCheckpoint" ("crawlId", "requests", "version", "state", "createdAt") VALUES (?, ?, ?, ?, ?) ` +
          `ON CONFLICT ("crawlId") DO UPDATE SET "requests" = excluded."requests", "version" = excluded."version", "state" = excluded."state", "createdAt" = excluded."createdAt"`,
      ),
    };
    this.writeBatch = this.db.transaction((batch: CrawlBatch) => this.apply(batch));
    this.writeGroup = this.db.transaction((group: QueuedBatch[]) => {
      for (const queued of group) {
        try {
          this.writeBatch(queued.batch);
        } catch (error) {
          // An error that ended the whole transaction (disk full, I/O) fails the whole group.
          if (!this.db.inTransaction) throw error;
          queued.error = error;
        }
      }
    });
  }

  /** Resolves once the batch is committed; rejects with its own failure (or the commit's). */
  write(batch: CrawlBatch): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      this.schedule();
    });
  }

  release(): void {
    this.writers -= 1;
    if (this.writers > 0) return;
    SharedSqliteConnection.open_.delete(this.sqlitePath);
    // Batches still queued are written first (a writer closed right after its last write).
    if (this.queue.length > 0 || this.scheduled) return;
    this.db.close();
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = this.lastCommitAt + GROUP_COMMIT_MS - performance.now();
    // The first batch after a quiet spell is written at once (a lone crawl never waits).
    if (wait <= 0) void this.commit();
    else setTimeout(() => void this.commit(), wait);
  }

  /** Writes every queued batch in one IMMEDIATE transaction, retried while another connection holds the lock. */
  private async commit(): Promise<void> {
    let group: QueuedBatch[] = [];
    let failure: unknown = null;
    for (let attempt = 0; ; attempt++) {
      const room = Math.max(0, MAX_BATCHES_PER_COMMIT - group.length);
      group = group.concat(this.queue.splice(0, room));
      try {
        // IMMEDIATE takes the write lock up front: a busy database fails here, before any row.
        this.writeGroup.immediate(group);
        break;
      } catch (error) {
        // SQLITE_BUSY_SNAPSHOT is not possible here: IMMEDIATE never upgrades a read transaction.
        const busy = (error as { code?: string }).code === "SQLITE_BUSY";
        const delay = BUSY_RETRY_MS[attempt];
        if (!busy || delay === undefined) {
          failure = error;
          break;
        }
        for (const queued of group) delete queued.error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    this.lastCommitAt = performance.now();
    this.scheduled = false;
    for (const queued of group) {
      const error = failure ?? queued.error;
      if (error === undefined || error === null) queued.resolve();
      else queued.reject(error);
    }
    if (this.queue.length > 0) this.schedule();
    else if (this.writers === 0 && SharedSqliteConnection.open_.get(this.sqlitePath) !== this) this.db.close();
  }

  private apply(batch: CrawlBatch): void {
    const { crawlId } = batch;
    const s = this.statements;
    const now = sqliteTime(new Date());
    if (batch.holderId !== null) {
      // Inside the write transaction: no claim can slip between this check and the rows.
      const row = s.holder.get(crawlId) as { workerId: string | null } | undefined;
      if (row?.workerId !== batch.holderId) throw new LeaseLostError(`Crawl ${crawlId} is no longer held by ${batch.holderId}`);
    }
    for (const row of batch.requests) {
      s.request.run(
        crawlId, row.seq, row.kind, row.method, row.url, row.status, row.mime, row.bytes, row.durationMs, row.tagPath, row.groupId, row.depth,
        row.referrer, row.isTarget ? 1 : 0, row.outcome, row.error, row.redirectTo, row.headers, row.bodySha256, sqliteTime(row.startedAt),
      );
    }
    for (const body of batch.bodies) s.body.run(crawlId, body.sha256, body.storagePath, body.offset, body.compressedBytes, body.bytes);
    for (const row of batch.targets) {
      s.target.run(
        crawlId, row.url, row.mime, row.bytes, row.sha256, row.storagePath, row.sourceUrl, row.tagPath, row.groupId, row.requestSeq, sqliteTime(row.fetchedAt),
        row.record?.title ?? null, row.record?.page ?? null, row.detectedMime ?? null, row.typeMatch === undefined || row.typeMatch === null ? null : row.typeMatch ? 1 : 0,
      );
    }
    if (batch.metrics.length) {
      s.metricDelete.run(crawlId, batch.metrics[0]!.requests);
      for (const row of batch.metrics) {
        s.metric.run(
          crawlId, row.requests, row.targets, BigInt(row.targetBytes), BigInt(row.nonTargetBytes), row.frontierSize, row.slope, row.ema, row.patience,
          row.activeMs, now,
        );
      }
    }
    for (const row of batch.events) {
      s.event.run(crawlId, row.level, row.kind, row.message, row.data === undefined ? null : JSON.stringify(row.data), now);
    }
    if (batch.groups) {
      s.groupDelete.run(crawlId);
      for (const row of batch.groups) {
        s.group.run(crawlId, row.groupId, row.sampleTagPath, row.members, row.available, row.selections, row.meanReward, row.totalReward, now);
      }
    }
    const c = batch.counters;
    if (c) {
      s.counters.run(
        c.requests, c.getRequests, c.headRequests, c.targets, BigInt(c.targetBytes), BigInt(c.nonTargetBytes), c.errors, c.robotsSkips,
        c.frontierSize, c.groups, c.renderedPages, Math.round(c.activeMs), now, crawlId,
      );
    }
    const checkpoint = batch.checkpoint;
    if (checkpoint) s.checkpoint.run(crawlId, checkpoint.requests, checkpoint.version, checkpoint.state, now);
  }
}
