import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCrawlMetrics } from "../../lib/store";
import { PORTABLE_MAX_BIND_PARAMETERS } from "../../lib/store/dialect";
import { REQUEST_COLUMNS } from "../../lib/store/prisma-batch-writer";
import { insertRows } from "../../lib/store/raw-insert";
import { createTestDatabase, describePostgres, type TestBackend, type TestDatabase } from "../helpers/test-database";

// The application's raw SQL, run on both databases with the same expectations: the multi-row
// INSERT of the crawl's hot path (lib/store/raw-insert.ts) and the metric sampling query
// (ROW_NUMBER window). Values written raw must read back through Prisma exactly as Prisma's
// own writes do.

const AT = new Date("2025-06-07T08:09:10.123Z");

function rawSqlSuite(backend: TestBackend) {
  let t: TestDatabase;
  let crawlId: number;
  beforeAll(async () => {
    t = await createTestDatabase({ backend });
    crawlId = (await t.db.crawl.create({ data: { rootUrl: "http://127.0.0.1:9/", config: "{}", strategy: "sb", seed: 1 } })).id;
  });
  afterAll(async () => t?.dispose());

  function requestRow(seq: number) {
    return {
      crawlId, seq, kind: seq % 2 ? "page" : "target", method: "GET", url: `http://127.0.0.1:9/${seq}?q='x'&"y"`, status: seq % 3 ? 200 : null,
      mime: "text/html", bytes: seq * 1000, durationMs: 3, tagPath: null, groupId: seq % 2 ? null : 4, depth: 1, referrer: null,
      isTarget: seq % 2 === 0, outcome: "ok", error: null, redirectTo: null, headers: '{"a":"ü"}', bodySha256: null, startedAt: new Date(AT.getTime() + seq),
    };
  }

  it("inserts many rows in statements within every dialect's parameter limit, with exact values", async () => {
    const rows = Array.from({ length: 1_700 }, (_, i) => requestRow(i + 1)); // 1 700 × 20 parameters: several statements
    expect(rows.length * REQUEST_COLUMNS.length).toBeGreaterThan(PORTABLE_MAX_BIND_PARAMETERS);
    await insertRows(t.db, "CrawlRequest", REQUEST_COLUMNS, rows);
    const stored = await t.db.crawlRequest.findMany({ where: { crawlId }, orderBy: { seq: "asc" } });
    expect(stored).toHaveLength(1_700);
    for (const row of [stored[0]!, stored[1]!, stored[2]!, stored[1_699]!]) {
      const { crawlId: _c, ...expected } = requestRow(row.seq);
      expect(row).toMatchObject(expected);
    }
  });

  it("skips duplicates of the named unique columns (ON CONFLICT DO NOTHING), inside a transaction too", async () => {
    const target = (url: string, bytes: number) => ({
      crawlId, url, mime: "text/csv", bytes, sha256: "ab".repeat(32), storagePath: "p", sourceUrl: null, tagPath: null, groupId: null, requestSeq: 1, fetchedAt: AT,
    });
    const columns = ["crawlId", "url", "mime", "bytes", "sha256", "storagePath", "sourceUrl", "tagPath", "groupId", "requestSeq", "fetchedAt"] as const;
    await insertRows(t.db, "Target", columns, [target("http://127.0.0.1:9/a.csv", 1)], ["crawlId", "url"]);
    await t.db.$transaction(async (tx) => {
      await insertRows(tx, "Target", columns, [target("http://127.0.0.1:9/a.csv", 2), target("http://127.0.0.1:9/b.csv", 3)], ["crawlId", "url"]);
    });
    const stored = await t.db.target.findMany({ where: { crawlId }, orderBy: { url: "asc" }, select: { url: true, bytes: true, fetchedAt: true } });
    expect(stored).toEqual([
      { url: "http://127.0.0.1:9/a.csv", bytes: 1, fetchedAt: AT },
      { url: "http://127.0.0.1:9/b.csv", bytes: 3, fetchedAt: AT },
    ]);
  });

  it("writes BigInt and nullable Float columns, and database defaults read back as UTC instants", async () => {
    const before = Date.now();
    await insertRows(t.db, "MetricPoint", ["crawlId", "requests", "targets", "targetBytes", "nonTargetBytes", "slope", "at"] as const, [
      { crawlId, requests: 1, targets: 0, targetBytes: 2n ** 45n, nonTargetBytes: 0n, slope: null, at: AT },
      { crawlId, requests: 2, targets: 1, targetBytes: 2n ** 45n + 1n, nonTargetBytes: 5n, slope: -0.125, at: AT },
    ]);
    // `at` omitted: the column default (CURRENT_TIMESTAMP) fills it.
    await insertRows(t.db, "CrawlEvent", ["crawlId", "level", "kind", "message"] as const, [{ crawlId, level: "info", kind: "raw", message: "default time" }]);
    const points = await t.db.metricPoint.findMany({ where: { crawlId }, orderBy: { requests: "asc" } });
    expect(points.map((p) => [p.targetBytes, p.slope, p.at])).toEqual([
      [2n ** 45n, null, AT],
      [2n ** 45n + 1n, -0.125, AT],
    ]);
    const event = await t.db.crawlEvent.findFirstOrThrow({ where: { crawlId, kind: "raw" } });
    // CURRENT_TIMESTAMP has second precision on SQLite.
    expect(event.at.getTime()).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(event.at.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    await t.db.metricPoint.deleteMany({ where: { crawlId } });
  });

  it("samples metric points with the window-function query the same way", async () => {
    const points = Array.from({ length: 1_000 }, (_, i) => ({
      crawlId, requests: i + 1, targets: i, targetBytes: BigInt(i) * 1000n, nonTargetBytes: 7n, frontierSize: 3, slope: null, ema: null, patience: null, activeMs: i, at: AT,
    }));
    await insertRows(t.db, "MetricPoint", ["crawlId", "requests", "targets", "targetBytes", "nonTargetBytes", "frontierSize", "slope", "ema", "patience", "activeMs", "at"] as const, points);
    const { points: sampled } = await getCrawlMetrics(t.db, crawlId, { maxPoints: 50 });
    expect(sampled.length).toBeLessThanOrEqual(50);
    expect(sampled.length).toBeGreaterThan(40);
    expect(sampled[0]).toMatchObject({ requests: 1, targets: 0, targetBytes: 0, nonTargetBytes: 7, at: AT.toISOString() });
    expect(sampled.at(-1)).toMatchObject({ requests: 1_000, targetBytes: 999_000 });
    // stride = ceil(999 / 49) = 21: rows 1, 22, 43, …
    expect(sampled.slice(0, 3).map((p) => p.requests)).toEqual([1, 22, 43]);
  });
}

describePostgres("raw SQL on PostgreSQL", () => rawSqlSuite("postgres"));
describe("raw SQL on SQLite (the same expectations)", () => rawSqlSuite("sqlite"));
