import { Prisma } from "../../generated/prisma/client";
import { crawlCounterColumns, LeaseLostError, type CrawlBatch, type CrawlBatchWriter } from "./crawl-batch";
import { BODY_COLUMNS, METRIC_COLUMNS, PrismaBatchWriter, REQUEST_COLUMNS, TARGET_COLUMNS } from "./prisma-batch-writer";
import type { Db } from "./prisma-client";
import { insertRows } from "./raw-insert";

/**
 * Shortest time between two commits of one process: batches that arrive meanwhile (a worker's
 * crawls flush every 250 ms each, at their own phase) share the next transaction. A lone crawl's
 * flushes are further apart than this and never wait.
 */
const GROUP_COMMIT_MS = 20;

const EVENT_COLUMNS = ["crawlId", "level", "kind", "message", "data", "at"] as const;
const GROUP_COLUMNS = ["crawlId", "groupId", "sampleTagPath", "members", "available", "selections", "meanReward", "totalReward", "updatedAt"] as const;
const CHECKPOINT_COLUMNS = ["crawlId", "requests", "version", "state", "createdAt"] as const;

type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

interface QueuedBatch {
  batch: CrawlBatch;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Crawl batches on PostgreSQL with group commit: the batches of every crawl of the process that
 * arrive within {@link GROUP_COMMIT_MS} are written in one transaction, one statement per kind of
 * row (multi-row INSERTs, one UPDATE of every crawl's counters, one lock of every crawl row),
 * instead of a transaction of half a dozen round trips per crawl.
 *
 * The lease guarantee stays per crawl: the transaction first locks the crawl rows of the group
 * (`FOR UPDATE`, so a concurrent claim waits for the commit and cannot slip between the check and
 * the rows); a batch whose crawl is no longer held by its writer is left out of every statement
 * and its writer alone gets {@link LeaseLostError}. A group whose transaction fails otherwise (a
 * row refused) is written again batch by batch, each in its own transaction, so a broken batch
 * fails alone.
 */
export class PostgresBatchWriter implements CrawlBatchWriter {
  private readonly group: PostgresGroupCommit;

  constructor(db: Db) {
    this.group = PostgresGroupCommit.of(db);
  }

  write(batch: CrawlBatch): Promise<void> {
    return this.group.write(batch);
  }

  close(): void {}
}

/** The group commit of one Prisma client (one per process in a worker), shared by its crawls' writers. */
class PostgresGroupCommit {
  private static readonly byClient = new WeakMap<Db, PostgresGroupCommit>();

  static of(db: Db): PostgresGroupCommit {
    let group = PostgresGroupCommit.byClient.get(db);
    if (!group) {
      group = new PostgresGroupCommit(db);
      PostgresGroupCommit.byClient.set(db, group);
    }
    return group;
  }

  private queue: QueuedBatch[] = [];
  private scheduled = false;
  private lastCommitAt = -Infinity;
  private readonly single: PrismaBatchWriter;

  private constructor(private readonly db: Db) {
    this.single = new PrismaBatchWriter(db);
  }

  write(batch: CrawlBatch): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ batch, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const wait = this.lastCommitAt + GROUP_COMMIT_MS - performance.now();
    if (wait <= 0) void this.commit();
    else setTimeout(() => void this.commit(), wait);
  }

  private async commit(): Promise<void> {
    const group = this.queue;
    this.queue = [];
    try {
      if (group.length === 1) await this.writeAlone(group[0]!);
      else await this.writeGroup(group);
    } finally {
      this.lastCommitAt = performance.now();
      this.scheduled = false;
      if (this.queue.length > 0) this.schedule();
    }
  }

  private async writeAlone(queued: QueuedBatch): Promise<void> {
    try {
      await this.single.write(queued.batch);
      queued.resolve();
    } catch (error) {
      queued.reject(error);
    }
  }

  private async writeGroup(group: QueuedBatch[]): Promise<void> {
    let lost: Set<QueuedBatch>;
    try {
      lost = await this.db.$transaction((tx) => writeBatches(tx, group));
    } catch {
      // Which batch broke the group is not known: each is written alone, and fails alone.
      for (const queued of group) await this.writeAlone(queued);
      return;
    }
    for (const queued of group) {
      if (lost.has(queued)) queued.reject(new LeaseLostError(`Crawl ${queued.batch.crawlId} is no longer held by ${queued.batch.holderId}`));
      else queued.resolve();
    }
  }
}

/** Writes the batches whose crawl is still held by their writer; returns the others. */
async function writeBatches(tx: Tx, group: QueuedBatch[]): Promise<Set<QueuedBatch>> {
  const lost = new Set<QueuedBatch>();
  const held = group.filter((queued) => queued.batch.holderId !== null);
  if (held.length > 0) {
    const ids = [...new Set(held.map((queued) => queued.batch.crawlId))];
    // Locked in id order, as every other group commit does: two processes never wait on each other in a cycle.
    const rows = await tx.$queryRaw<Array<{ id: number; workerId: string | null }>>`
      SELECT "id", "workerId" FROM "Crawl" WHERE "id" IN (${Prisma.join(ids.sort((a, b) => a - b))}) ORDER BY "id" FOR UPDATE`;
    const holders = new Map(rows.map((row) => [row.id, row.workerId]));
    for (const queued of held) if (holders.get(queued.batch.crawlId) !== queued.batch.holderId) lost.add(queued);
  }
  const batches = group.filter((queued) => !lost.has(queued)).map((queued) => queued.batch);
  const now = new Date();
  const all = <T>(rows: (batch: CrawlBatch) => T[]) => batches.flatMap(rows);

  const requests = all((b) => b.requests.map((row) => ({ crawlId: b.crawlId, ...row })));
  if (requests.length) await insertRows(tx, "CrawlRequest", REQUEST_COLUMNS, requests);
  const bodies = all((b) => b.bodies.map((body) => ({ crawlId: b.crawlId, ...body })));
  if (bodies.length) await insertRows(tx, "StoredBody", BODY_COLUMNS, bodies, ["crawlId", "sha256"]);
  const targets = all((b) =>
    b.targets.map((row) => ({
      crawlId: b.crawlId, ...row, recordTitle: row.record?.title ?? null, recordPage: row.record?.page ?? null, detectedMime: row.detectedMime ?? null, typeMatch: row.typeMatch ?? null,
    })),
  );
  // A crawl resumed after a crash may fetch a target again: it is stored once.
  if (targets.length) await insertRows(tx, "Target", TARGET_COLUMNS, targets, ["crawlId", "url"]);

  const withMetrics = batches.filter((b) => b.metrics.length > 0);
  if (withMetrics.length) {
    // A forced point at a request count already written replaces it.
    const replaced = withMetrics.map((b) => Prisma.sql`("crawlId" = ${b.crawlId} AND "requests" >= ${b.metrics[0]!.requests})`);
    await tx.$executeRaw`DELETE FROM "MetricPoint" WHERE ${Prisma.join(replaced, " OR ")}`;
    const points = withMetrics.flatMap((b) =>
      b.metrics.map((row) => ({ crawlId: b.crawlId, ...row, targetBytes: BigInt(row.targetBytes), nonTargetBytes: BigInt(row.nonTargetBytes), at: now })),
    );
    await insertRows(tx, "MetricPoint", METRIC_COLUMNS, points);
  }
  const events = all((b) => b.events.map((row) => ({ crawlId: b.crawlId, level: row.level, kind: row.kind, message: row.message, data: row.data === undefined ? null : JSON.stringify(row.data), at: now })));
  if (events.length) await insertRows(tx, "CrawlEvent", EVENT_COLUMNS, events);

  const withGroups = batches.filter((b) => b.groups !== null);
  if (withGroups.length) {
    await tx.$executeRaw`DELETE FROM "TagPathGroup" WHERE "crawlId" IN (${Prisma.join(withGroups.map((b) => b.crawlId))})`;
    const groups = withGroups.flatMap((b) => b.groups!.map((row) => ({ crawlId: b.crawlId, ...row, updatedAt: now })));
    if (groups.length) await insertRows(tx, "TagPathGroup", GROUP_COLUMNS, groups);
  }

  const withCounters = batches.filter((b) => b.counters !== null);
  if (withCounters.length) {
    const values = withCounters.map((b) => {
      const c = crawlCounterColumns(b.counters!);
      return Prisma.sql`(${b.crawlId}::int, ${c.requestsCount}::int, ${c.getCount}::int, ${c.headCount}::int, ${c.targetsCount}::int, ${c.targetBytes}::bigint,
        ${c.nonTargetBytes}::bigint, ${c.errorsCount}::int, ${c.robotsSkips}::int, ${c.frontierSize}::int, ${c.groupsCount}::int, ${c.renderedPages}::int, ${c.activeMs}::int)`;
    });
    await tx.$executeRaw`
      UPDATE "Crawl" AS c SET "requestsCount" = v.r, "getCount" = v.g, "headCount" = v.h, "targetsCount" = v.t, "targetBytes" = v.tb,
        "nonTargetBytes" = v.ntb, "errorsCount" = v.e, "robotsSkips" = v.rs, "frontierSize" = v.f, "groupsCount" = v.gc, "renderedPages" = v.rp, "activeMs" = v.a, "updatedAt" = ${now}
      FROM (VALUES ${Prisma.join(values)}) AS v(id, r, g, h, t, tb, ntb, e, rs, f, gc, rp, a)
      WHERE c."id" = v.id`;
  }

  const checkpoints = batches.filter((b) => b.checkpoint !== null);
  if (checkpoints.length) {
    const rows = checkpoints.map((b) => ({ crawlId: b.crawlId, requests: b.checkpoint!.requests, version: b.checkpoint!.version, state: b.checkpoint!.state, createdAt: now }));
    const values = rows.map((row) => Prisma.sql`(${Prisma.join(CHECKPOINT_COLUMNS.map((column) => row[column] as unknown))})`);
    await tx.$executeRaw`
      INSERT INTO "CrawlCheckpoint" ("crawlId", "requests", "version", "state", "createdAt") VALUES ${Prisma.join(values)}
      ON CONFLICT ("crawlId") DO UPDATE SET "requests" = EXCLUDED."requests", "version" = EXCLUDED."version", "state" = EXCLUDED."state", "createdAt" = EXCLUDED."createdAt"`;
  }
  return lost;
}
