import { crawlCounterColumns, LeaseLostError, type CrawlBatch, type CrawlBatchWriter } from "./crawl-batch";
import type { Db } from "./prisma-client";
import { insertRows } from "./raw-insert";

export const REQUEST_COLUMNS = [
  "crawlId", "seq", "kind", "method", "url", "status", "mime", "bytes", "durationMs", "tagPath", "groupId", "depth",
  "referrer", "isTarget", "outcome", "error", "redirectTo", "headers", "bodySha256", "startedAt",
] as const;
export const BODY_COLUMNS = ["crawlId", "sha256", "storagePath", "offset", "compressedBytes", "bytes"] as const;
export const TARGET_COLUMNS = [
  "crawlId", "url", "mime", "bytes", "sha256", "storagePath", "sourceUrl", "tagPath", "groupId", "requestSeq", "fetchedAt", "recordTitle", "recordPage",
  "detectedMime", "typeMatch",
] as const;
export const METRIC_COLUMNS = [
  "crawlId", "requests", "targets", "targetBytes", "nonTargetBytes", "frontierSize", "slope", "ema", "patience", "activeMs", "at",
] as const;

/**
 * One batch through Prisma in its own interactive transaction, hot rows as multi-row raw INSERTs
 * (`createMany` spends far more CPU per row in the WASM query compiler: raw-insert.ts). On
 * PostgreSQL, the group commit (postgres-batch-writer.ts) writes a lone batch, and each batch of
 * a group that failed, through it.
 */
export class PrismaBatchWriter implements CrawlBatchWriter {
  constructor(private readonly db: Db) {}

  close(): void {}

  async write(batch: CrawlBatch): Promise<void> {
    const { crawlId, requests, bodies, targets, metrics, events, groups, counters, checkpoint, holderId } = batch;
    await this.db.$transaction(async (tx) => {
      if (holderId !== null) {
        // A write, not a read: it locks the row until commit, so a concurrent claim waits for this
        // batch instead of slipping between the check and the rows (READ COMMITTED). The batch's
        // counters are that write when it has them (one round trip less), else a no-op one.
        const data = counters ? crawlCounterColumns(counters) : { workerId: holderId };
        const held = await tx.crawl.updateMany({ where: { id: crawlId, workerId: holderId }, data });
        if (held.count !== 1) throw new LeaseLostError(`Crawl ${crawlId} is no longer held by ${holderId}`);
      }
      if (requests.length) await insertRows(tx, "CrawlRequest", REQUEST_COLUMNS, requests.map((row) => ({ crawlId, ...row })));
      if (bodies.length) await insertRows(tx, "StoredBody", BODY_COLUMNS, bodies.map((body) => ({ crawlId, ...body })), ["crawlId", "sha256"]);
      // A crawl resumed after a crash may fetch a target again: it is stored once.
      if (targets.length) await insertRows(tx, "Target", TARGET_COLUMNS, targets.map((row) => ({ crawlId, ...row, recordTitle: row.record?.title ?? null, recordPage: row.record?.page ?? null, detectedMime: row.detectedMime ?? null, typeMatch: row.typeMatch ?? null })), ["crawlId", "url"]);
      if (metrics.length) {
        await tx.metricPoint.deleteMany({ where: { crawlId, requests: { gte: metrics[0]!.requests } } });
        const at = new Date();
        await insertRows(
          tx,
          "MetricPoint",
          METRIC_COLUMNS,
          metrics.map((row) => ({ crawlId, ...row, targetBytes: BigInt(row.targetBytes), nonTargetBytes: BigInt(row.nonTargetBytes), at })),
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
      if (counters && holderId === null) {
        await tx.crawl.update({
          where: { id: crawlId },
          data: crawlCounterColumns(counters),
        });
      }
      if (checkpoint) {
        const row = { requests: checkpoint.requests, version: checkpoint.version, state: new Uint8Array(checkpoint.state), createdAt: new Date() };
        await tx.crawlCheckpoint.upsert({ where: { crawlId }, create: { crawlId, ...row }, update: row });
      }
    });
  }
}
