import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LeaseLostError, type CrawlBatch } from "../../lib/store/crawl-batch";
import { MAX_BATCHES_PER_COMMIT, SqliteBatchWriter } from "../../lib/store/sqlite-batch-writer";
import { heldCrawl as heldCrawlIn, requestRow } from "../helpers/batch-rows";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase({ backend: "sqlite" });
});

afterAll(async () => {
  await t?.dispose();
});

const heldCrawl = (holder: string) => heldCrawlIn(t.db, holder);
const request = requestRow;

function batch(crawlId: number, holderId: string, seqs: number[]): CrawlBatch {
  return { crawlId, requests: seqs.map(request), bodies: [], targets: [], metrics: [], events: [], groups: null, counters: null, checkpoint: null, holderId };
}

const rowsOf = (crawlId: number) => t.db.crawlRequest.count({ where: { crawlId } });

describe("SQLite batch writers of one database file (shared connection, group commit)", () => {
  it("writes the batches of many writers issued together, and fails only the batch whose lease is lost", async () => {
    const held = await Promise.all(Array.from({ length: 20 }, () => heldCrawl("worker-a")));
    const lost = await heldCrawl("worker-b"); // another holder took this one over
    const writers = [...held, lost].map(() => new SqliteBatchWriter(t.config.sqlitePath!));
    const results = await Promise.allSettled([
      ...held.map((crawlId, i) => writers[i]!.write(batch(crawlId, "worker-a", [1, 2, 3]))),
      writers[held.length]!.write(batch(lost, "worker-a", [1, 2])),
    ]);
    expect(results.slice(0, held.length).every((result) => result.status === "fulfilled")).toBe(true);
    const refused = results[held.length]!;
    expect(refused.status).toBe("rejected");
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(LeaseLostError);
    for (const crawlId of held) expect(await rowsOf(crawlId)).toBe(3);
    expect(await rowsOf(lost)).toBe(0);
    for (const writer of writers) writer.close();
  });

  it("writes a burst of batches in commits of at most MAX_BATCHES_PER_COMMIT, with turns of the event loop between them", async () => {
    const crawls = await Promise.all(Array.from({ length: 3 * MAX_BATCHES_PER_COMMIT + 5 }, () => heldCrawl("burst")));
    const writer = new SqliteBatchWriter(t.config.sqlitePath!);
    // Each resolved write notes how many timer turns had run by then: one commit's batches share a count.
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const turnOfEach = await Promise.all(crawls.map((crawlId) => writer.write(batch(crawlId, "burst", [1])).then(() => turns)));
    clearInterval(ticking);
    const perCommit = new Map<number, number>();
    for (const turn of turnOfEach) perCommit.set(turn, (perCommit.get(turn) ?? 0) + 1);
    expect(Math.max(...perCommit.values())).toBeLessThanOrEqual(MAX_BATCHES_PER_COMMIT);
    expect(perCommit.size).toBeGreaterThanOrEqual(4);
    for (const crawlId of crawls) expect(await rowsOf(crawlId)).toBe(1);
    writer.close();
  });

  it("rolls back a batch that fails half-way (a duplicate row) without touching the others of its commit", async () => {
    const a = await heldCrawl("w");
    const b = await heldCrawl("w");
    const writerA = new SqliteBatchWriter(t.config.sqlitePath!);
    const writerB = new SqliteBatchWriter(t.config.sqlitePath!);
    await writerA.write(batch(a, "w", [1]));
    // A metric point per request count: two at 2 fail after the batch's request row was inserted.
    const point = { requests: 2, targets: 0, targetBytes: 0, nonTargetBytes: 0, frontierSize: 0, slope: null, ema: null, patience: null, activeMs: 0 };
    const broken = { ...batch(a, "w", [2]), metrics: [point, point] };
    const results = await Promise.allSettled([writerA.write(broken), writerB.write(batch(b, "w", [1, 2]))]);
    expect(results.map((result) => result.status)).toEqual(["rejected", "fulfilled"]);
    expect(await rowsOf(a)).toBe(1);
    expect(await rowsOf(b)).toBe(2);
    writerA.close();
    writerB.close();
  });

  it("waits for another process's write lock and then commits", async () => {
    const crawlId = await heldCrawl("w");
    const writer = new SqliteBatchWriter(t.config.sqlitePath!);
    const other = new Database(t.config.sqlitePath!);
    other.exec("BEGIN IMMEDIATE");
    const written = writer.write(batch(crawlId, "w", [1, 2]));
    let settled = false;
    void written.finally(() => (settled = true)).catch(() => undefined);
    // The lock guarantees no row; what the writer must do is keep its batch pending (neither
    // failed nor dropped) through refused attempts, then commit once the lock goes.
    expect(await rowsOf(crawlId)).toBe(0);
    expect(settled).toBe(false);
    other.exec("COMMIT");
    await written;
    expect(await rowsOf(crawlId)).toBe(2);
    other.close();
    writer.close();
  });
});
