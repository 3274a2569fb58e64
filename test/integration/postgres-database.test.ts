import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialectOf } from "../../lib/store/dialect";
import { pendingMigrations } from "../../lib/store/migrations";
import { createTestDatabase, describePostgres, type TestBackend, type TestDatabase } from "../helpers/test-database";

// Every model written and read back through Prisma, on PostgreSQL and on SQLite with the same
// expectations: the two providers' clients must give the application identical values
// (BigInt past 2^31, Bytes, Float, DateTime to the millisecond, nulls, Unicode, cascades).

const BIG = 2n ** 40n + 7n;
const AT = new Date("2025-03-04T05:06:07.089Z");
const TEXT = "données — 数据 — 🕷️ 'quoted' \"double\" \\ back";

function modelSuite(backend: TestBackend) {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ backend });
  });
  afterAll(async () => t?.dispose());

  it("opens a migrated clone of the template", async () => {
    expect(t.config.databaseProvider).toBe(backend === "postgres" ? "postgresql" : "sqlite");
    expect(await pendingMigrations(t.db, t.config)).toEqual([]);
  });

  it("writes and reads back every model with exact values", async () => {
    const crawl = await t.db.crawl.create({
      data: { name: TEXT, rootUrl: "http://127.0.0.1:9/", config: "{}", strategy: "sb", seed: 2 ** 31 - 1, targetBytes: BIG, startedAt: AT },
    });
    const id = crawl.id;
    expect(crawl).toMatchObject({ status: "queued", targetBytes: BIG, nonTargetBytes: 0n, startedAt: AT, finishedAt: null, workerId: null });

    await t.db.crawlRequest.create({
      data: { crawlId: id, seq: 1, kind: "page", method: "GET", url: "http://127.0.0.1:9/", status: 200, isTarget: true, headers: TEXT, startedAt: AT },
    });
    await t.db.target.create({ data: { crawlId: id, url: "http://127.0.0.1:9/a.csv", mime: "text/csv", bytes: 9, sha256: "ab".repeat(32), storagePath: "p", requestSeq: 1, fetchedAt: AT } });
    await t.db.tagPathGroup.create({ data: { crawlId: id, groupId: 0, sampleTagPath: "/html/body/a", meanReward: 1 / 3, totalReward: 3 } });
    await t.db.metricPoint.create({ data: { crawlId: id, requests: 1, targets: 1, targetBytes: BIG, nonTargetBytes: 1n, slope: -1.5e-9, ema: null, patience: 2, at: AT } });
    await t.db.crawlEvent.create({ data: { crawlId: id, level: "info", kind: "created", message: TEXT, data: JSON.stringify({ text: TEXT }), at: AT } });
    const state = Buffer.from([0, 1, 2, 250, 255, 0x1f, 0x8b]);
    await t.db.crawlCheckpoint.create({ data: { crawlId: id, requests: 1, version: 3, state } });
    await t.db.storedBody.create({ data: { crawlId: id, sha256: "cd".repeat(32), storagePath: "bodies/1.pack", offset: 2 ** 31 - 2, compressedBytes: 10, bytes: 20 } });
    await t.db.worker.create({ data: { id: `worker-${backend}`, hostname: TEXT, pid: 42, heartbeatAt: AT } });

    const stored = await t.db.crawl.findUniqueOrThrow({
      where: { id },
      include: { requests: true, targets: true, groups: true, metricPoints: true, events: true, checkpoint: true, storedBodies: true },
    });
    expect(stored.name).toBe(TEXT);
    expect(stored.seed).toBe(2 ** 31 - 1);
    expect(stored.requests[0]).toMatchObject({ isTarget: true, headers: TEXT, startedAt: AT, status: 200, mime: null });
    expect(stored.targets[0]).toMatchObject({ fetchedAt: AT, bytes: 9 });
    expect(stored.groups[0]?.meanReward).toBe(1 / 3);
    expect(stored.groups[0]?.updatedAt).toBeInstanceOf(Date);
    expect(stored.metricPoints[0]).toMatchObject({ targetBytes: BIG, nonTargetBytes: 1n, slope: -1.5e-9, ema: null, patience: 2, at: AT });
    expect(JSON.parse(stored.events[0]!.data!)).toEqual({ text: TEXT });
    expect(Buffer.from(stored.checkpoint!.state).equals(state)).toBe(true);
    expect(stored.storedBodies[0]).toMatchObject({ offset: 2 ** 31 - 2, compressedBytes: 10 });
    expect(await t.db.worker.findUniqueOrThrow({ where: { id: `worker-${backend}` } })).toMatchObject({ hostname: TEXT, heartbeatAt: AT, state: "running" });

    // Updates with increments, filters on BigInt and DateTime, ordering by them.
    await t.db.crawl.update({ where: { id }, data: { targetBytes: { increment: 1n }, requestsCount: { increment: 5 } } });
    expect(await t.db.crawl.count({ where: { targetBytes: { gt: BIG }, startedAt: { lte: AT } } })).toBe(1);

    await t.db.crawl.delete({ where: { id } });
    for (const count of [t.db.crawlRequest.count(), t.db.target.count(), t.db.metricPoint.count(), t.db.crawlCheckpoint.count(), t.db.storedBody.count()]) {
      expect(await count).toBe(0);
    }
  });

  it("rejects duplicates of unique keys with Prisma's P2002 on both", async () => {
    const { id } = await t.db.crawl.create({ data: { rootUrl: "http://127.0.0.1:9/u", config: "{}", strategy: "sb", seed: 1 } });
    const data = { crawlId: id, url: "http://127.0.0.1:9/x.pdf", mime: "application/pdf", bytes: 1, sha256: "ef".repeat(32), storagePath: "p", requestSeq: 1 };
    await t.db.target.create({ data });
    await expect(t.db.target.create({ data })).rejects.toMatchObject({ code: "P2002" });
  });

  it("runs interactive transactions and rolls them back on error", async () => {
    const { id } = await t.db.crawl.create({ data: { rootUrl: "http://127.0.0.1:9/tx", config: "{}", strategy: "sb", seed: 1 } });
    await expect(
      t.db.$transaction(async (tx) => {
        await tx.crawlEvent.create({ data: { crawlId: id, level: "info", kind: "x", message: "inside" } });
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect(await t.db.crawlEvent.count({ where: { crawlId: id } })).toBe(0);
  });

  it("applies the dialect's session settings", async () => {
    const dialect = dialectOf(t.config);
    if (backend === "sqlite") {
      expect(dialect.sessionSetupSql).toContain("PRAGMA journal_mode = WAL");
      const rows = await t.db.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
      expect(rows[0]?.journal_mode).toBe("wal");
    } else {
      // UTC sessions: the database's CURRENT_TIMESTAMP agrees with the UTC instants Prisma stores.
      const rows = await t.db.$queryRaw<{ zone: string }[]>`SELECT current_setting('TimeZone') AS "zone"`;
      expect(rows[0]?.zone).toBe("UTC");
    }
  });
}

describePostgres("models on PostgreSQL", () => modelSuite("postgres"));
describe("models on SQLite (the same expectations)", () => modelSuite("sqlite"));
