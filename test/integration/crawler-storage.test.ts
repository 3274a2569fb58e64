import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { buildSite, startSiteServer } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { page, pathOf, startRouteSite, testCrawlConfig, type TestCrawlInput, type TestSite } from "../helpers/crawl-fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

const sha256 = (body: Buffer | string) => createHash("sha256").update(body).digest("hex");

const SAME = "region,value\nFR-IDF,12\nFR-ARA,7\n";
const JSON_BODY = JSON.stringify({ rows: [1, 2, 3] });
const ZIPPED = "year;value\n" + "2024;1\n".repeat(200);
const LISTED = "a,b\n3,4\n";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t.dispose());

/** Stores the crawl, runs it as the worker does, and returns its id. */
async function storedCrawl(input: TestCrawlInput): Promise<number> {
  const crawlId = await insertCrawl(t.db, testCrawlConfig(input));
  await runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
  return crawlId;
}

describe("runStoredCrawl: targets, files and rows in the database", () => {
  let site: TestSite;
  let crawlId: number;

  beforeAll(async () => {
    site = await startRouteSite({
      "/": page(["/files/a.csv", "/files/b.csv", "/files/c.json", "/files/zipped.csv", "/lists/1", "/lists/2"]),
      "/lists/1": page(["/files/d.csv", "/files/a.csv"]),
      "/lists/2": page(["/lists/1"]),
      // The same bytes under two URLs.
      "/files/a.csv": { type: "text/csv", body: SAME },
      "/files/b.csv": { type: "text/csv; charset=utf-8", body: SAME },
      "/files/c.json": { type: "application/json", body: JSON_BODY },
      "/files/d.csv": { type: "text/csv", body: LISTED },
      // Sent gzip-encoded: the stored file is the decoded body.
      "/files/zipped.csv": { type: "text/csv", body: zlib.gzipSync(ZIPPED), headers: { "content-encoding": "gzip" } },
    });
    crawlId = await storedCrawl({ rootUrl: site.rootUrl, strategy: "sb" });
  });
  afterAll(() => site.close());

  const expected: Record<string, string> = {
    "/files/a.csv": SAME,
    "/files/b.csv": SAME,
    "/files/c.json": JSON_BODY,
    "/files/d.csv": LISTED,
    "/files/zipped.csv": ZIPPED,
  };

  it("finishes the crawl row with its stop reason and counters", async () => {
    const crawl = await t.db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
    expect(crawl).toMatchObject({ status: "finished", stopReason: "site-exhausted", targetsCount: 5 });
    expect(crawl.finishedAt).not.toBeNull();
    expect(crawl.getCount + crawl.headCount).toBe(crawl.requestsCount);
  });

  it("stores one target row per URL with the SHA-256 and size of the served (decoded) bytes", async () => {
    const targets = await t.db.target.findMany({ where: { crawlId }, orderBy: { url: "asc" } });
    expect(targets.map((row) => pathOf(row.url))).toEqual(Object.keys(expected).sort());
    for (const row of targets) {
      const body = expected[pathOf(row.url)]!;
      expect(row.sha256, row.url).toBe(sha256(body));
      expect(row.bytes, row.url).toBe(Buffer.byteLength(body));
      expect(row.storagePath).toBe(path.join("crawls", String(crawlId), "files", row.sha256));
    }
    expect(targets.find((row) => row.url.endsWith("/b.csv"))!.mime).toBe("text/csv");
    expect(targets.find((row) => row.url.endsWith("/d.csv"))).toMatchObject({ sourceUrl: `${site.origin}/lists/1` });
  });

  it("keeps each distinct body once on disk, under <dataDir>/crawls/<id>/files/<sha256>", async () => {
    const filesDir = path.join(t.config.dataDir, "crawls", String(crawlId), "files");
    const onDisk = fs.readdirSync(filesDir).sort();
    const distinct = [...new Set(Object.values(expected).map(sha256))].sort();
    expect(onDisk).toEqual(distinct);
    expect(onDisk).toHaveLength(4); // a.csv and b.csv share one file
    for (const name of onDisk) expect(sha256(fs.readFileSync(path.join(filesDir, name)))).toBe(name);
    const [a, b] = await Promise.all(
      ["/files/a.csv", "/files/b.csv"].map((p) => t.db.target.findFirstOrThrow({ where: { crawlId, url: `${site.origin}${p}` } })),
    );
    expect(a!.storagePath).toBe(b!.storagePath);
    // No partial download left behind.
    expect(fs.readdirSync(path.join(t.config.dataDir, "crawls", String(crawlId), "tmp"))).toEqual([]);
  });

  it("writes one request row per counted request, numbered 1..requestsCount, plus the uncounted robots.txt row", async () => {
    const crawl = await t.db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
    const rows = await t.db.crawlRequest.findMany({ where: { crawlId }, orderBy: { id: "asc" } });
    const counted = rows.filter((row) => row.seq > 0);
    expect(counted).toHaveLength(crawl.requestsCount);
    expect(counted.map((row) => row.seq)).toEqual(Array.from({ length: crawl.requestsCount }, (_, i) => i + 1));
    expect(rows.filter((row) => row.seq === 0).map((row) => row.kind)).toEqual(["robots"]);
    // Every target was fetched exactly once (the duplicate URL too: URLs are the unit, not bodies).
    const targetGets = counted.filter((row) => row.isTarget);
    expect(targetGets.map((row) => pathOf(row.url)).sort()).toEqual(Object.keys(expected).sort());
    const targets = await t.db.target.findMany({ where: { crawlId } });
    for (const target of targets) expect(targetGets.find((row) => row.seq === target.requestSeq)!.url).toBe(target.url);
  });

  it("records metric points up to the final request count, and the tag-path groups of sb", async () => {
    const crawl = await t.db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
    const points = await t.db.metricPoint.findMany({ where: { crawlId }, orderBy: { requests: "asc" } });
    expect(points.length).toBeGreaterThanOrEqual(1);
    expect(points.at(-1)).toMatchObject({ requests: crawl.requestsCount, targets: 5 });
    const groups = await t.db.tagPathGroup.findMany({ where: { crawlId }, orderBy: { groupId: "asc" } });
    expect(groups.length).toBeGreaterThanOrEqual(1);
    expect(groups).toHaveLength(crawl.groupsCount);
    expect(groups[0]).toMatchObject({ groupId: 0, sampleTagPath: "/html/body/ul.links/li/a", available: 0 });
    expect(groups.reduce((sum, g) => sum + g.selections, 0)).toBeGreaterThanOrEqual(2); // /lists/1 and /lists/2
  });
});

describe("runStoredCrawl on a simulated site", () => {
  it("stores every target exactly as the site serves it", async () => {
    const sim = buildSite({ shape: "open-data-portal", seed: 2, size: "tiny" });
    const running = await startSiteServer(sim);
    try {
      const crawlId = await storedCrawl({ rootUrl: running.rootUrl, strategy: "bfs", budget: { requests: 300 } });
      const crawl = await t.db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
      expect(crawl).toMatchObject({ status: "finished", stopReason: "budget-requests", requestsCount: 300 });
      const targets = await t.db.target.findMany({ where: { crawlId } });
      expect(targets.length).toBeGreaterThan(5);
      expect(targets).toHaveLength(crawl.targetsCount);
      for (const row of targets) {
        const served = sim.respond("GET", pathOf(row.url)).body;
        expect(row.bytes, row.url).toBe(served.length);
        expect(row.sha256, row.url).toBe(sha256(served));
        expect(fs.statSync(path.join(t.config.dataDir, row.storagePath)).size).toBe(served.length);
      }
      expect(await t.db.crawlRequest.count({ where: { crawlId, seq: { gt: 0 } } })).toBe(300);
      expect(await t.db.tagPathGroup.count({ where: { crawlId } })).toBe(0); // bfs has no groups
    } finally {
      await running.close();
    }
  });
});
