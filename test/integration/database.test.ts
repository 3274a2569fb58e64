import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listCrawls } from "../../lib/store";
import { pendingMigrations } from "../../lib/store/migrations";
import { createTestDatabase, testBackend, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.dispose());

function newCrawl(rootUrl: string) {
  return t.db.crawl.create({ data: { rootUrl, config: JSON.stringify({ rootUrl }), strategy: "sb", seed: 7 } });
}

// FORAGE_TEST_DB=postgres runs this file on PostgreSQL.
describe(`database (real ${testBackend() === "postgres" ? "PostgreSQL" : "SQLite"} through Prisma)`, () => {
  it("has every shipped migration applied", async () => {
    expect(await pendingMigrations(t.db, t.config)).toEqual([]);
  });

  it.runIf(testBackend() === "sqlite")("runs SQLite in WAL mode", async () => {
    const rows = await t.db.$queryRawUnsafe<{ journal_mode: string }[]>("PRAGMA journal_mode");
    expect(rows[0]?.journal_mode).toBe("wal");
  });

  it("writes a crawl with its requests, targets, groups, metrics and events and reads them back", async () => {
    const crawl = await newCrawl("http://127.0.0.1:9/");
    expect(crawl.status).toBe("queued");
    await t.db.crawlRequest.createMany({
      data: [
        { crawlId: crawl.id, seq: 1, kind: "page", method: "GET", url: "http://127.0.0.1:9/", status: 200, mime: "text/html", bytes: 5120 },
        { crawlId: crawl.id, seq: 2, kind: "target", method: "GET", url: "http://127.0.0.1:9/a.csv", status: 200, mime: "text/csv", bytes: 900, isTarget: true, tagPath: "/html/body/a", groupId: 0 },
      ],
    });
    await t.db.target.create({
      data: { crawlId: crawl.id, url: "http://127.0.0.1:9/a.csv", mime: "text/csv", bytes: 900, sha256: "ab".repeat(32), storagePath: "crawls/1/ab", requestSeq: 2 },
    });
    await t.db.tagPathGroup.create({ data: { crawlId: crawl.id, groupId: 0, sampleTagPath: "/html/body/a", members: 3, available: 2, selections: 1, meanReward: 1 } });
    await t.db.metricPoint.create({ data: { crawlId: crawl.id, requests: 2, targets: 1, targetBytes: 900n, nonTargetBytes: 5120n } });
    await t.db.crawlEvent.create({ data: { crawlId: crawl.id, level: "info", kind: "created", message: "Crawl created" } });
    await t.db.crawl.update({ where: { id: crawl.id }, data: { requestsCount: 2, targetsCount: 1, targetBytes: 900n, nonTargetBytes: 5120n } });

    const stored = await t.db.crawl.findUniqueOrThrow({
      where: { id: crawl.id },
      include: { requests: { orderBy: { seq: "asc" } }, targets: true, groups: true, metricPoints: true, events: true },
    });
    expect(stored.requests.map((r) => [r.seq, r.url, r.isTarget])).toEqual([
      [1, "http://127.0.0.1:9/", false],
      [2, "http://127.0.0.1:9/a.csv", true],
    ]);
    expect(stored.targets[0]?.sha256).toHaveLength(64);
    expect(stored.groups[0]?.sampleTagPath).toBe("/html/body/a");
    expect(stored.metricPoints[0]?.targetBytes).toBe(900n);
    expect(stored.events[0]?.kind).toBe("created");

    const listed = (await listCrawls(t.db)).find((item) => item.id === crawl.id);
    expect(listed).toMatchObject({ rootUrl: "http://127.0.0.1:9/", requests: 2, targets: 1, targetBytes: 900, status: "queued" });
  });

  it("refuses a second target with the same URL in one crawl", async () => {
    const crawl = await newCrawl("http://127.0.0.1:9/dup");
    const data = { crawlId: crawl.id, url: "http://127.0.0.1:9/x.pdf", mime: "application/pdf", bytes: 1, sha256: "cd".repeat(32), storagePath: "p", requestSeq: 1 };
    await t.db.target.create({ data });
    await expect(t.db.target.create({ data })).rejects.toThrow(/Unique constraint/);
  });

  it("deletes a crawl's rows with the crawl", async () => {
    const crawl = await newCrawl("http://127.0.0.1:9/gone");
    await t.db.crawlRequest.create({ data: { crawlId: crawl.id, seq: 1, kind: "page", method: "GET", url: "http://127.0.0.1:9/gone" } });
    await t.db.crawlCheckpoint.create({ data: { crawlId: crawl.id, requests: 1, version: 1, state: Buffer.from("x") } });
    await t.db.crawl.delete({ where: { id: crawl.id } });
    expect(await t.db.crawlRequest.count({ where: { crawlId: crawl.id } })).toBe(0);
    expect(await t.db.crawlCheckpoint.count({ where: { crawlId: crawl.id } })).toBe(0);
  });
});
