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
 * Crawl batches on SQLite through the crawl's own better-sqlite3 connection and prepared
 * statements: a flush through Prisma's query compiler costs two orders of magnitude more, and
 * flushes were then the larger part of the engine's time per request.
 *
 * The whole transaction is synchronous, so it never holds the write lock across an await. The
 * connection's busy timeout is 0 and SQLITE_BUSY is retried after a timer instead: a
 * synchronous busy wait would block the event loop, and with it the Prisma connection of this
 * same process that may hold the lock (a deadlock until the timeout).
 */
export class SqliteBatchWriter implements CrawlBatchWriter {
  private readonly db: Database.Database;
  private readonly statements: Record<
    "holder" | "request" | "body" | "target" | "metricDelete" | "metric" | "event" | "groupDelete" | "group" | "counters" | "checkpoint",
    Statement
  >;
  private readonly writeBatch: Database.Transaction<(batch: CrawlBatch) => void>;

  constructor(sqlitePath: string) {
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
          `"errorsCount" = ?, "robotsSkips" = ?, "frontierSize" = ?, "groupsCount" = ?, "activeMs" = ?, "updatedAt" = ? WHERE "id" = ?`,
      ),
      checkpoint: this.db.prepare(
        `INSERT INTO "CrawlCheckpoint" ("crawlId", "requests", "version", "state", "createdAt") VALUES (?, ?, ?, ?, ?) ` +
          `ON CONFLICT ("crawlId") DO UPDATE SET "requests" = excluded."requests", "version" = excluded."version", "state" = excluded."state", "createdAt" = excluded."createdAt"`,
      ),
    };
    this.writeBatch = this.db.transaction((batch: CrawlBatch) => this.apply(batch));
  }

  async write(batch: CrawlBatch): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        // IMMEDIATE takes the write lock up front: a busy database fails here, before any row.
        this.writeBatch.immediate(batch);
        return;
      } catch (error) {
        // SQLITE_BUSY_SNAPSHOT is not possible here: IMMEDIATE never upgrades a read transaction.
        const busy = (error as { code?: string }).code === "SQLITE_BUSY";
        const delay = BUSY_RETRY_MS[attempt];
        if (!busy || delay === undefined) throw error;
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  close(): void {
    this.db.close();
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
        c.frontierSize, c.groups, Math.round(c.activeMs), now, crawlId,
      );
    }
    const checkpoint = batch.checkpoint;
    if (checkpoint) s.checkpoint.run(crawlId, checkpoint.requests, checkpoint.version, checkpoint.state, now);
  }
}
