/**
 * One store of responses: a crawl that keeps a web archive stores its pages as rows pointing at
 * their WARC response records (no page pack); one without keeps its pack. Replays and reads of
 * both give the same bytes, requests and targets.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WarcExchangeRecorder } from "../../lib/archive/warc-exchange-recorder";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { openRecording } from "../../lib/crawler/fetch/exchange-recorder";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runReplay } from "../../lib/worker/run-replay";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { buildSite, SIM_TARGET_MIME_TYPES, startSiteServer } from "../../lib/sitesim";
import { createBatchWriter, DatabaseCrawlSink } from "../../lib/store/database-crawl-sink";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { PageBodyStore } from "../../lib/store/page-bodies";
import type { Db } from "../../lib/store/prisma-client";
import { page, startRouteSite } from "../helpers/crawl-fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { readWarcGz } from "../helpers/warc-reader";

const SEED = 11;
const BUDGET = 200;

let t: TestDatabase;
let rootUrl: string;
let withWarc: number;
let withoutWarc: number;

async function crawl(keepWarc: boolean, root = rootUrl, budget = BUDGET): Promise<number> {
  const config = parseCrawlConfig({
    rootUrl: root,
    strategy: "sb",
    seed: SEED,
    targetMimeTypes: [...SIM_TARGET_MIME_TYPES],
    budget: { requests: budget },
    politeness: { delayMs: 0 },
    allowPrivateNetwork: true,
    archive: { keepWarc },
  });
  const crawlId = await insertCrawl(t.db, config);
  await runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
  return crawlId;
}

const pagesDir = (crawlId: number) => path.join(t.config.dataDir, "crawls", String(crawlId), "pages");
const storedBodies = (db: Db, crawlId: number) => db.storedBody.findMany({ where: { crawlId }, orderBy: { sha256: "asc" } });
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");

async function requestLog(crawlId: number) {
  const rows = await t.db.crawlRequest.findMany({ where: { crawlId, seq: { gt: 0 } }, orderBy: { id: "asc" }, select: { seq: true, method: true, url: true, status: true, outcome: true, isTarget: true, bodySha256: true } });
  return rows;
}

async function targetList(crawlId: number) {
  const rows = await t.db.target.findMany({ where: { crawlId }, orderBy: { requestSeq: "asc" }, select: { url: true, sha256: true, requestSeq: true } });
  return rows;
}

beforeAll(async () => {
  t = await createTestDatabase();
  // Gzip on: the WARC keeps the gzip bytes as received, the engine parsed them decoded.
  const server = await startSiteServer(buildSite({ shape: "statistics-office", seed: 3, size: "tiny" }), { gzip: true });
  rootUrl = server.rootUrl;
  try {
    withWarc = await crawl(true);
    withoutWarc = await crawl(false);
  } finally {
    await server.close();
  }
});

afterAll(async () => {
  await t?.dispose();
});

describe("pages of a crawl with a web archive are stored once, in the WARC", () => {
  it("a crawl with a WARC writes no page pack and points every body at a response record; one without writes its pack", async () => {
    const archived = await storedBodies(t.db, withWarc);
    const packed = await storedBodies(t.db, withoutWarc);
    expect(archived.length).toBeGreaterThan(20);
    expect(fs.existsSync(pagesDir(withWarc))).toBe(false);
    expect(fs.readdirSync(pagesDir(withoutWarc)).some((name) => name.endsWith(".brotli.pack"))).toBe(true);
    for (const row of archived) expect(row.storagePath).toMatch(new RegExp(`^crawls/${withWarc}/warc/forage-${withWarc}-\\d+-\\d{5}\\.warc\\.gz$`));
    for (const row of packed) expect(row.storagePath.endsWith(".brotli.pack")).toBe(true);
    // The same pages (same seed, same site): the same bodies, whichever store holds them.
    expect(archived.map((row) => [row.sha256, row.bytes])).toEqual(packed.map((row) => [row.sha256, row.bytes]));
    // The member each row names is a whole response record, read by the test's own WARC parser.
    for (const row of archived) {
      const file = fs.readFileSync(path.join(t.config.dataDir, row.storagePath));
      const [record, ...rest] = readWarcGz(file.subarray(row.offset, row.offset + row.compressedBytes));
      expect(rest).toEqual([]);
      expect(record!.type).toBe("response");
    }
  });

  it("reads each body back from the WARC as the bytes the engine parsed (gzip undone), the same as the pack's", async () => {
    const packed = new Map((await storedBodies(t.db, withoutWarc)).map((row) => [row.sha256, row]));
    let gzipped = 0;
    for (const row of await storedBodies(t.db, withWarc)) {
      const body = await PageBodyStore.read(t.config.dataDir, row);
      expect(sha256(body)).toBe(row.sha256);
      expect(body.length).toBe(row.bytes);
      expect(body.equals(await PageBodyStore.read(t.config.dataDir, packed.get(row.sha256)!))).toBe(true);
      const member = fs.readFileSync(path.join(t.config.dataDir, row.storagePath)).subarray(row.offset, row.offset + row.compressedBytes);
      if (/content-encoding:\s*gzip/i.test(readWarcGz(member)[0]!.block.toString("latin1"))) gzipped += 1;
    }
    expect(gzipped).toBeGreaterThan(20);
  });

  it("both crawls made the same requests; replays from the WARC and from the pack make the same requests and find the same targets", async () => {
    const key = (rows: Awaited<ReturnType<typeof requestLog>>) => rows.map((r) => `${r.seq} ${r.method} ${r.url} ${r.status} ${r.outcome} ${r.bodySha256}`);
    expect(key(await requestLog(withWarc))).toEqual(key(await requestLog(withoutWarc)));
    for (const strategy of ["sb", "bfs"] as const) {
      const fromWarc = await runReplay({ db: t.db, forage: t.config, sourceCrawlId: withWarc, strategy });
      const fromPack = await runReplay({ db: t.db, forage: t.config, sourceCrawlId: withoutWarc, strategy });
      expect(fromWarc.end).toEqual(fromPack.end);
      expect(fromWarc.stats).toEqual(fromPack.stats);
      const replayed = await requestLog(fromWarc.crawlId);
      expect(replayed.length).toBe(BUDGET);
      expect(key(replayed)).toEqual(key(await requestLog(fromPack.crawlId)));
      expect(await targetList(fromWarc.crawlId)).toEqual(await targetList(fromPack.crawlId));
      if (strategy === "sb") {
        // Same strategy and seed as the source: the very same crawl again, read from the WARC.
        expect(key(replayed)).toEqual(key(await requestLog(withWarc)));
        expect(fromWarc.stats.notArchived).toBe(0);
      }
    }
  });
});

describe("the sink and the archive", () => {
  it("never stores a row pointing past the WARC file's end: a flush writes the records first (not waiting for the writer's batch)", async () => {
    const crawlId = await insertCrawl(t.db, parseCrawlConfig({ rootUrl: "http://127.0.0.1:9/", allowPrivateNetwork: true }));
    const dir = path.join(t.config.dataDir, "crawls", String(crawlId), "warc");
    const recorder = new WarcExchangeRecorder({ dir, prefix: `forage-${crawlId}`, warcinfo: () => ({ software: "test" }) });
    const sink = new DatabaseCrawlSink(createBatchWriter(t.db, t.config), crawlId, t.config.dataDir, { archive: recorder });
    try {
      const html = Buffer.from(`<html><body>${"<p>row</p>".repeat(200)}</body></html>`);
      const recording = openRecording(recorder, () => ({
        method: "GET",
        url: "http://127.0.0.1:9/a.html",
        requestHeaders: [["host", "127.0.0.1:9"]],
        requestedAt: new Date(),
        httpVersion: "HTTP/1.1",
        status: 200,
        statusText: "OK",
        responseHeaders: [["Content-Type", "text/html"]],
      }));
      recording.chunk(html);
      const archived = recording.end({ truncated: null })!;
      const sha = sink.pageBody(html, archived);
      await sink.flush(); // well inside the writer's 200 ms batch
      const [row] = await storedBodies(t.db, crawlId);
      expect(row).toMatchObject({ sha256: sha, bytes: html.length });
      expect(fs.statSync(path.join(t.config.dataDir, row!.storagePath)).size).toBeGreaterThanOrEqual(row!.offset + row!.compressedBytes);
      expect((await PageBodyStore.read(t.config.dataDir, row!)).equals(html)).toBe(true);
    } finally {
      await recorder.close();
      sink.close();
    }
  });

  it("keeps a page in the pack when its WARC record lies past what StoredBody's 32-bit offset can hold", async () => {
    const crawlId = await insertCrawl(t.db, parseCrawlConfig({ rootUrl: "http://127.0.0.1:9/", allowPrivateNetwork: true }));
    const sink = new DatabaseCrawlSink(createBatchWriter(t.db, t.config), crawlId, t.config.dataDir, { archive: { sync: async () => {} } });
    const far = Buffer.from("<html><body>far</body></html>");
    const near = Buffer.from("<html><body>near</body></html>");
    const file = path.join(t.config.dataDir, "crawls", String(crawlId), "warc", "forage-x-00001.warc.gz");
    sink.pageBody(far, Promise.resolve({ file, offset: 2 ** 31, length: 100 }));
    sink.pageBody(near, Promise.resolve(null)); // the archive did not keep it whole
    await sink.flush();
    sink.close();
    const rows = await storedBodies(t.db, crawlId);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.storagePath.endsWith(".brotli.pack")).toBe(true);
    const read = await Promise.all(rows.map((row) => PageBodyStore.read(t.config.dataDir, row).then((body) => body.toString())));
    expect(read.sort()).toEqual([far.toString(), near.toString()].sort());
  });

  it("a page whose payload was archived before (a revisit record) points at the first response", async () => {
    const same = page(["/"], "<p>the same page under two addresses</p>" + "<p>padding</p>".repeat(50));
    const site = await startRouteSite({
      "/": page(["/a.html", "/b.html"]),
      "/a.html": same,
      "/b.html": same,
    });
    let crawlId = 0;
    try {
      const config = parseCrawlConfig({
        rootUrl: site.rootUrl,
        strategy: "bfs",
        seed: SEED,
        budget: { requests: 20 },
        politeness: { delayMs: 0 },
        allowPrivateNetwork: true,
        archive: { keepWarc: true },
      });
      crawlId = await insertCrawl(t.db, config);
      await runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
    } finally {
      await site.close();
    }
    const rows = await requestLog(crawlId);
    const a = rows.find((r) => r.method === "GET" && r.url.endsWith("/a.html"))!;
    const b = rows.find((r) => r.method === "GET" && r.url.endsWith("/b.html"))!;
    expect(a.bodySha256).toMatch(/^[0-9a-f]{64}$/);
    expect(b.bodySha256).toBe(a.bodySha256);
    const bodies = await storedBodies(t.db, crawlId);
    const shared = bodies.find((row) => row.sha256 === a.bodySha256)!;
    const member = fs.readFileSync(path.join(t.config.dataDir, shared.storagePath)).subarray(shared.offset, shared.offset + shared.compressedBytes);
    const [record] = readWarcGz(member);
    expect(record!.type).toBe("response");
    expect(record!.field("WARC-Target-URI")).toMatch(/\/a\.html$/);
    // /b.html's own record is a revisit without payload.
    const dir = path.join(t.config.dataDir, "crawls", String(crawlId), "warc");
    const all = fs.readdirSync(dir).filter((name) => name.endsWith(".warc.gz")).flatMap((name) => readWarcGz(fs.readFileSync(path.join(dir, name))));
    expect(all.find((r) => r.type === "revisit" && /\/b\.html$/.test(r.field("WARC-Target-URI") ?? ""))).toBeTruthy();
    for (const row of bodies) expect(sha256(await PageBodyStore.read(t.config.dataDir, row))).toBe(row.sha256);
    expect(fs.existsSync(pagesDir(crawlId))).toBe(false);
  });
});
