import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import zlib from "node:zlib";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PAPER_TARGET_MIME_TYPES } from "../../lib/crawler/defaults";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { buildSite } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { startSimulatedSite, testCrawlConfig, type TestSite } from "../helpers/crawl-fixtures";
import { runForageCli } from "../helpers/forage-cli";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

const run = promisify(execFile);
const BUDGET = 3000;
/** wget and the live crawls leave out the same infinite trap. */
const TRAP = "/calendar";

let t: TestDatabase;
let site: TestSite;
let dir: string;
const cli = (args: string[]) => runForageCli(args, { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.config.dataDir });

async function targetUrls(crawlId: number): Promise<string[]> {
  return (await t.db.target.findMany({ where: { crawlId }, select: { url: true } })).map((row) => row.url).sort();
}

async function liveCrawl(strategy: "bfs" | "sb"): Promise<number> {
  // Forage's default target types, as an imported crawl has.
  const config = testCrawlConfig({ rootUrl: site.rootUrl, strategy, seed: 1, budget: { requests: BUDGET }, blocklist: { urlPatterns: [`*${TRAP}*`] }, targetMimeTypes: [...PAPER_TARGET_MIME_TYPES] });
  const crawlId = await insertCrawl(t.db, config);
  await runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
  return crawlId;
}

async function replay(sourceId: number, strategy: string): Promise<{ crawlId: number; stopReason: string }> {
  const result = await cli(["replay", String(sourceId), "--strategy", strategy, "--budget", String(BUDGET), "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as { crawlId: number; stopReason: string };
}

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startSimulatedSite(buildSite({ shape: "statistics-office", size: "tiny", seed: 1 }));
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-import-"));
});
afterAll(async () => {
  await site?.close();
  await t?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("forage import of a WARC written by Debian's wget, then forage replay", () => {
  let importedId: number;

  beforeAll(async () => {
    // wget exits 8 when a link answered 404 and 4 when one pointed at an unresolvable host (the
    // site has both, on purpose): the WARC is whole once wget says FINISHED.
    await run("wget", ["--recursive", "--level=20", "--no-verbose", `--reject-regex=${TRAP}`, `--warc-file=${path.join(dir, "site")}`, "--no-warc-keep-log", "--no-warc-cdx", `--directory-prefix=${path.join(dir, "files")}`, site.rootUrl], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { code?: number; stderr?: string }) => {
        if ((error.code !== 8 && error.code !== 4) || !error.stderr?.includes("FINISHED")) {
          throw new Error(`wget failed (${error.code}): ${error.stderr?.split("\n").filter((l) => !l.includes(" URL:")).join("\n").slice(-3000)}`);
        }
      },
    );
    const imported = await cli(["import", path.join(dir, "site.warc.gz"), "--json"]);
    expect(imported.code, imported.stderr).toBe(0);
    importedId = (JSON.parse(imported.stdout) as { crawlId: number }).crawlId;
  }, 90_000);

  it("creates a finished crawl with the archive's pages and targets", async () => {
    const crawl = await t.db.crawl.findUniqueOrThrow({ where: { id: importedId } });
    expect(crawl).toMatchObject({ status: "finished", rootUrl: site.rootUrl });
    const wgetGets = site.log.filter((r) => r.method === "GET").length;
    expect(crawl.requestsCount).toBeGreaterThan(200);
    // Every response wget archived is a row (robots.txt among them, uncounted).
    expect(await t.db.crawlRequest.count({ where: { crawlId: importedId } })).toBe(wgetGets);
    expect(await t.db.storedBody.count({ where: { crawlId: importedId } })).toBeGreaterThan(100);
  });

  it("replays bfs and sb offline to the same targets as live crawls of the site", async () => {
    const servedBefore = site.log.length;
    const replays = { bfs: await replay(importedId, "bfs"), sb: await replay(importedId, "sb") };
    expect(site.log.length).toBe(servedBefore); // offline: the site saw nothing
    for (const strategy of ["bfs", "sb"] as const) {
      const live = await liveCrawl(strategy);
      expect((await t.db.crawl.findUniqueOrThrow({ where: { id: live } })).stopReason).toBe("site-exhausted");
      expect(replays[strategy].stopReason, strategy).toBe("site-exhausted");
      const liveTargets = await targetUrls(live);
      expect(liveTargets.length).toBeGreaterThan(50);
      expect(await targetUrls(replays[strategy].crawlId), strategy).toEqual(liveTargets);
    }
  }, 120_000);
});

describe("forage import of a WACZ exported by Forage", () => {
  it("replays the source's own strategy and seed to the source's targets", async () => {
    const sourceId = await liveCrawl("bfs");
    const wacz = path.join(dir, "source.wacz");
    expect((await cli(["export", String(sourceId), "--wacz", wacz])).code).toBe(0);
    const imported = await cli(["import", wacz, "--root", site.rootUrl, "--json"]);
    expect(imported.code, imported.stderr).toBe(0);
    const { crawlId } = JSON.parse(imported.stdout) as { crawlId: number };
    const replayed = await replay(crawlId, "bfs");
    const source = await targetUrls(sourceId);
    const again = await targetUrls(replayed.crawlId);
    expect({ extra: again.filter((u) => !source.includes(u)), missing: source.filter((u) => !again.includes(u)) }).toEqual({ extra: [], missing: [] });
  }, 120_000);

  it("refuses a file that is no web archive, naming it", async () => {
    const junk = path.join(dir, "junk.warc.gz");
    fs.writeFileSync(junk, "not a warc");
    const result = await cli(["import", junk]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("forage import:");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe("forage import of a hostile archive", () => {
  it("keeps a gzip bomb's row as too-large instead of decoding it into memory", async () => {
    const { WARCRecord, WARCSerializer } = await import("warcio");
    const root = "http://bombs.example.org/";
    const response = (url: string, headers: [string, string][], payload: Buffer) =>
      WARCSerializer.serialize(WARCRecord.create({ url, type: "response", warcVersion: "WARC/1.1", httpHeaders: headers, statusline: "HTTP/1.1 200 OK" }, [payload]), { gzip: true });
    const bomb = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      const gzip = zlib.createGzip({ level: 9 });
      gzip.on("data", (chunk: Buffer) => chunks.push(chunk)).on("end", () => resolve(Buffer.concat(chunks))).on("error", reject);
      const zeros = Buffer.alloc(1024 * 1024);
      for (let i = 0; i < 300; i++) gzip.write(zeros);
      gzip.end();
    });
    const file = path.join(dir, "bomb.warc.gz");
    fs.writeFileSync(
      file,
      Buffer.concat([
        await response(root, [["Content-Type", "text/html"]], Buffer.from('<html><body><a href="/bomb.csv">data</a><a href="/ok.csv">ok</a></body></html>')),
        await response(`${root}bomb.csv`, [["Content-Type", "text/csv"], ["Content-Encoding", "gzip"]], bomb),
        await response(`${root}ok.csv`, [["Content-Type", "text/csv"]], Buffer.from("a,b\n1,2\n")),
      ]),
    );
    const imported = await cli(["import", file, "--json"]);
    expect(imported.code, imported.stderr).toBe(0);
    const { crawlId, targets } = JSON.parse(imported.stdout) as { crawlId: number; targets: number };
    expect(targets).toBe(1);
    const rows = await t.db.crawlRequest.findMany({ where: { crawlId }, orderBy: { id: "asc" }, select: { url: true, outcome: true, isTarget: true } });
    expect(rows).toEqual([
      { url: root, outcome: "ok", isTarget: false },
      { url: `${root}bomb.csv`, outcome: "too-large", isTarget: false },
      { url: `${root}ok.csv`, outcome: "ok", isTarget: true },
    ]);
  }, 60_000);
});
