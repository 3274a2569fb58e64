import { afterAll, beforeAll, expect, it } from "vitest";
import { LeaseLostError, type CrawlBatch } from "../../lib/store/crawl-batch";
import { PostgresBatchWriter } from "../../lib/store/postgres-batch-writer";
import type { Db } from "../../lib/store";
import { heldCrawl as heldCrawlIn, requestRow } from "../helpers/batch-rows";
import { createTestDatabase, describePostgres, type TestDatabase } from "../helpers/test-database";

// Group commit on PostgreSQL (lib/store/postgres-batch-writer.ts): the batches of many crawls
// issued together share one transaction, and the lease check stays per crawl.

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase({ backend: "postgres" });
});

afterAll(async () => {
  await t?.dispose();
});

const heldCrawl = (holder: string) => heldCrawlIn(t.db, holder);
const request = requestRow;

const point = (requests: number) => ({ requests, targets: 1, targetBytes: 2 ** 40, nonTargetBytes: 5, frontierSize: 3, slope: null, ema: 0.5, patience: null, activeMs: 7 });
const counters = (requests: number) => ({
  requests, getRequests: requests, headRequests: 0, targets: 1, targetBytes: 2 ** 40, nonTargetBytes: 5, errors: 0, robotsSkips: 0, frontierSize: 3, groups: 1, activeMs: 12.4, renderedPages: 2,
});

/** A batch with a row of every kind. */
function batch(crawlId: number, holderId: string | null, seqs: number[]): CrawlBatch {
  return {
    crawlId,
    requests: seqs.map(request),
    bodies: [{ sha256: `page-${crawlId}`, storagePath: "pages/0.pack", offset: 0, compressedBytes: 3, bytes: 9 }],
    targets: [{ url: `http://127.0.0.1/${crawlId}.csv`, mime: "text/csv", bytes: 4, sha256: "abc", storagePath: "files/abc", sourceUrl: null, tagPath: null, groupId: null, requestSeq: seqs[0]!, fetchedAt: new Date() }],
    metrics: [point(seqs.length)],
    events: [{ level: "info", kind: "test", message: `batch of ${crawlId}`, data: { crawlId } }],
    groups: [{ groupId: 1, sampleTagPath: "html/body/a", members: 2, available: 1, selections: 1, meanReward: 0.5, totalReward: 1 }],
    counters: counters(seqs.length),
    checkpoint: { requests: seqs.length, version: 1, state: Buffer.from([1, 2, 3]) },
    holderId,
  };
}

const rowsOf = (crawlId: number) => t.db.crawlRequest.count({ where: { crawlId } });

/** A client counting the statements sent through it (a transaction's included). */
function countingClient(): { db: Db; statements: () => number } {
  let statements = 0;
  const db = t.db.$extends({
    query: {
      async $allOperations({ args, query }) {
        statements += 1;
        return query(args);
      },
    },
  }) as unknown as Db;
  return { db, statements: () => statements };
}

describePostgres("PostgreSQL batch writers of one client (group commit)", () => {
  it("writes every row of many crawls' batches issued together, and fails only the batch whose lease is lost", async () => {
    const held = await Promise.all(Array.from({ length: 20 }, () => heldCrawl("worker-a")));
    const lost = await heldCrawl("worker-b"); // another holder took this one over
    const writer = new PostgresBatchWriter(t.db);
    const results = await Promise.allSettled([...held.map((crawlId) => writer.write(batch(crawlId, "worker-a", [1, 2, 3]))), writer.write(batch(lost, "worker-a", [1, 2]))]);
    expect(results.slice(0, held.length).map((result) => result.status)).toEqual(held.map(() => "fulfilled"));
    const refused = results[held.length]!;
    expect(refused.status).toBe("rejected");
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(LeaseLostError);
    for (const crawlId of held) {
      expect(await rowsOf(crawlId)).toBe(3);
      const crawl = await t.db.crawl.findUniqueOrThrow({ where: { id: crawlId }, include: { checkpoint: true } });
      expect({ requests: crawl.requestsCount, targetBytes: crawl.targetBytes, activeMs: crawl.activeMs, renderedPages: crawl.renderedPages }).toEqual({ requests: 3, targetBytes: BigInt(2 ** 40), activeMs: 12, renderedPages: 2 });
      expect(crawl.checkpoint?.state).toEqual(new Uint8Array([1, 2, 3]));
      expect(await t.db.target.count({ where: { crawlId } })).toBe(1);
      expect(await t.db.storedBody.count({ where: { crawlId } })).toBe(1);
      expect(await t.db.metricPoint.findMany({ where: { crawlId }, select: { requests: true, targetBytes: true } })).toEqual([{ requests: 3, targetBytes: BigInt(2 ** 40) }]);
      expect(await t.db.crawlEvent.findMany({ where: { crawlId }, select: { message: true, data: true } })).toEqual([{ message: `batch of ${crawlId}`, data: JSON.stringify({ crawlId }) }]);
      expect(await t.db.tagPathGroup.count({ where: { crawlId } })).toBe(1);
    }
    for (const count of [rowsOf(lost), t.db.target.count({ where: { crawlId: lost } }), t.db.crawlCheckpoint.count({ where: { crawlId: lost } })]) expect(await count).toBe(0);
    expect((await t.db.crawl.findUniqueOrThrow({ where: { id: lost } })).requestsCount).toBe(0);
  });

  it("replaces metric points, groups and checkpoints of a crawl written before", async () => {
    const crawlId = await heldCrawl("w");
    const other = await heldCrawl("w");
    const writer = new PostgresBatchWriter(t.db);
    await Promise.all([writer.write(batch(crawlId, "w", [1, 2])), writer.write(batch(other, "w", [1]))]);
    const next = { ...batch(crawlId, "w", [3, 4]), bodies: [], targets: [], metrics: [point(2), point(4)], checkpoint: { requests: 4, version: 1, state: Buffer.from([9]) } };
    await Promise.all([writer.write(next), writer.write({ ...batch(other, "w", [2]), bodies: [], targets: [] })]);
    expect((await t.db.metricPoint.findMany({ where: { crawlId }, orderBy: { requests: "asc" }, select: { requests: true } })).map((row) => row.requests)).toEqual([2, 4]);
    expect(await t.db.tagPathGroup.count({ where: { crawlId } })).toBe(1);
    expect((await t.db.crawlCheckpoint.findUniqueOrThrow({ where: { crawlId } })).state).toEqual(new Uint8Array([9]));
    expect(await rowsOf(crawlId)).toBe(4);
  });

  it("rolls back a batch that fails half-way (a duplicate row) without losing the others of its group", async () => {
    const a = await heldCrawl("w");
    const b = await heldCrawl("w");
    const writer = new PostgresBatchWriter(t.db);
    await writer.write(batch(a, "w", [1]));
    // Two metric points at one request count break the unique (crawlId, requests) index.
    const broken = { ...batch(a, "w", [2]), metrics: [point(2), point(2)] };
    const results = await Promise.allSettled([writer.write(broken), writer.write(batch(b, "w", [1, 2]))]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "fulfilled"]);
    expect(await rowsOf(a)).toBe(1);
    expect(await rowsOf(b)).toBe(2);
  });

  it("writes twenty crawls' batches with the statements of one transaction, not twenty", async () => {
    const crawls = await Promise.all(Array.from({ length: 20 }, () => heldCrawl("w")));
    const { db, statements } = countingClient();
    const writer = new PostgresBatchWriter(db);
    // One batch first: the next ones, issued while it commits, wait for it and share one commit.
    const first = writer.write(batch(crawls[0]!, "w", [1]));
    const rest = crawls.slice(1).map((crawlId) => writer.write(batch(crawlId, "w", [1, 2])));
    await Promise.all([first, ...rest]);
    // The lone batch goes through PrismaBatchWriter (its own transaction); the group of nineteen:
    // the lease check, then one statement per kind of row (requests, bodies, targets, metric
    // points deleted and inserted, events, groups deleted and inserted, counters, checkpoints).
    // One transaction per batch would have sent about 200.
    expect(statements()).toBeGreaterThanOrEqual(2 * 10);
    expect(statements()).toBeLessThanOrEqual(2 * 11);
    for (const crawlId of crawls.slice(1)) expect(await rowsOf(crawlId)).toBe(2);
  });
});
