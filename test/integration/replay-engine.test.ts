import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { parseCrawlConfig, type CrawlConfigInput } from "../../lib/crawl-config";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { RobotsTxt } from "../../lib/crawler/fetch/robots-rules";
import type { FetchRequest } from "../../lib/crawler/fetch/types";
import { NOT_ARCHIVED, ReplayFetcher } from "../../lib/crawler/replay/replay-fetcher";
import { ReplayIndex, robotsPattern } from "../../lib/crawler/replay/replay-index";
import { createReplayOracle } from "../../lib/crawler/replay/replay-oracle";
import { runReplay, type ReplayRun } from "../../lib/worker/run-replay";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { DatabaseReplaySource } from "../../lib/store/replay-source";
import { buildSite, SIM_TARGET_MIME_TYPES, startSiteServer } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import type { Db } from "../../lib/store/prisma-client";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

const BUDGET = 300;
const SEED = 7;

let t: TestDatabase;
/** SB-CLASSIFIER, 300 requests: a partial archive of the site. */
let sourceId: number;
/** BFS, 450 requests: the whole finite site (437 requests) and the start of its calendar trap. */
let bfsSourceId: number;
let rootUrl: string;
let serverRequests: number;

/** A real crawl of the simulated site, as `forage crawl` would run it. */
async function crawl(db: TestDatabase, input: Partial<CrawlConfigInput>): Promise<number> {
  const config = parseCrawlConfig({
    rootUrl,
    targetMimeTypes: [...SIM_TARGET_MIME_TYPES],
    budget: { requests: BUDGET },
    politeness: { delayMs: 0 },
    allowPrivateNetwork: true,
    ...input,
  });
  const crawlId = await insertCrawl(db.db, config);
  await runStoredCrawl({ db: db.db, forage: db.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
  return crawlId;
}

async function counted(db: Db, crawlId: number) {
  return db.crawlRequest.findMany({
    where: { crawlId, seq: { gt: 0 } },
    orderBy: { id: "asc" },
    select: { seq: true, method: true, url: true, status: true, outcome: true, bytes: true, isTarget: true, mime: true, redirectTo: true, error: true },
  });
}

async function targets(db: Db, crawlId: number) {
  return db.target.findMany({ where: { crawlId }, orderBy: { requestSeq: "asc" }, select: { url: true, sha256: true, bytes: true, storagePath: true, requestSeq: true } });
}

async function replay(
  strategy: ReplayRun["config"]["strategy"],
  extra: { seed?: number; budgetRequests?: number; sourceCrawlId?: number } = {},
): Promise<ReplayRun> {
  return runReplay({ db: t.db, forage: t.config, sourceCrawlId: sourceId, strategy, ...extra });
}

beforeAll(async () => {
  t = await createTestDatabase();
  const server = await startSiteServer(buildSite({ shape: "statistics-office", seed: 1, size: "tiny" }));
  rootUrl = server.rootUrl;
  try {
    sourceId = await crawl(t, { strategy: "sb", seed: SEED });
    bfsSourceId = await crawl(t, { strategy: "bfs", seed: SEED, budget: { requests: 450 } });
  } finally {
    serverRequests = server.requestCount();
    await server.close();
  }
});

afterAll(async () => {
  await t?.dispose();
});

describe("forage replay (offline, from a stored crawl)", () => {
  it("with the source's strategy and seed reproduces its counted requests and files exactly", async () => {
    const source = await counted(t.db, sourceId);
    expect(source.length).toBe(BUDGET);
    expect(serverRequests).toBeGreaterThanOrEqual(BUDGET);
    const run = await replay("sb");
    expect(run.end).toEqual({ kind: "stopped", reason: "budget-requests" });
    expect(run.stats.notArchived).toBe(0);
    const replayed = await counted(t.db, run.crawlId);
    const key = (r: (typeof source)[number]) => `${r.seq} ${r.method} ${r.url} ${r.status}`;
    expect(replayed.map(key)).toEqual(source.map(key));
    // Beyond method + URL + status: outcomes, MIME types, redirects, targets and volume too.
    expect(replayed).toEqual(source);
    const sourceTargets = await targets(t.db, sourceId);
    const replayTargets = await targets(t.db, run.crawlId);
    expect(sourceTargets.length).toBeGreaterThan(10);
    expect(replayTargets.map(({ url, sha256, bytes, requestSeq }) => ({ url, sha256, bytes, requestSeq }))).toEqual(
      sourceTargets.map(({ url, sha256, bytes, requestSeq }) => ({ url, sha256, bytes, requestSeq })),
    );
    // The replay has its own copies of the files, byte for byte the source's.
    for (const target of replayTargets) {
      expect(target.storagePath.startsWith(path.join("crawls", String(run.crawlId)))).toBe(true);
      const data = fs.readFileSync(path.join(t.config.dataDir, target.storagePath));
      expect(createHash("sha256").update(data).digest("hex")).toBe(target.sha256);
    }
    const [src, rep] = await Promise.all([
      t.db.crawl.findUniqueOrThrow({ where: { id: sourceId } }),
      t.db.crawl.findUniqueOrThrow({ where: { id: run.crawlId } }),
    ]);
    expect(rep).toMatchObject({
      status: "finished",
      replayOfCrawlId: sourceId,
      strategy: "sb",
      seed: SEED,
      requestsCount: src.requestsCount,
      headCount: src.headCount,
      targetsCount: src.targetsCount,
      targetBytes: src.targetBytes,
      nonTargetBytes: src.nonTargetBytes,
      robotsSkips: src.robotsSkips,
    });
    expect(JSON.parse(rep.config).politeness.delayMs).toBe(0);
  });

  it("with BFS, answers what the source fetched and 'not-archived' for the rest, without any network request", async () => {
    const run = await replay("bfs");
    const rows = await counted(t.db, run.crawlId);
    expect(rows.length).toBe(BUDGET);
    const errors = rows.filter((row) => row.outcome === "error");
    expect(errors.length).toBe(run.stats.notArchived);
    expect(errors.length).toBeGreaterThan(0);
    // Never fetched, or fetched only as a would-be target (no body kept) and now crawled as a page.
    const messages = [`${NOT_ARCHIVED}: not in the stored crawl`, `${NOT_ARCHIVED}: response body not in the stored crawl`];
    for (const row of errors) expect(messages).toContain(row.error);
    expect(errors.some((row) => row.error === messages[0])).toBe(true);
    // Files found by both are the same files.
    const sourceFiles = new Map((await targets(t.db, sourceId)).map((target) => [target.url, target.sha256]));
    const replayTargets = await targets(t.db, run.crawlId);
    expect(replayTargets.length).toBeGreaterThan(0);
    for (const target of replayTargets) expect(target.sha256).toBe(sourceFiles.get(target.url));
    // The office's /go/eurostat redirects to another host, unreachable when the source crawled: no
    // robots.txt of it was stored either.
    const robots = await t.db.crawlRequest.findMany({ where: { crawlId: run.crawlId, kind: "robots" } });
    const onSite = (row: { url: string }) => new URL(row.url).origin === new URL(rootUrl).origin;
    expect(robots.filter(onSite).map((row) => row.status)).toEqual([200]);
    expect(robots.filter((row) => !onSite(row)).map((row) => row.status)).toEqual([null]);
  });

  it("with BFS on a BFS source and a smaller budget, reproduces the source's first requests", async () => {
    const run = await replay("bfs", { sourceCrawlId: bfsSourceId, budgetRequests: 200 });
    expect(run.stats.notArchived).toBe(0);
    expect(await counted(t.db, run.crawlId)).toEqual((await counted(t.db, bfsSourceId)).slice(0, 200));
  });

  it("sb-oracle types links with the stored truth: no HEAD request, at least as many targets as sb for the same budget", async () => {
    const summary: string[] = [];
    // On the BFS archive both see the whole site: the comparison is the paper's (SB-ORACLE as an upper bound).
    for (const [source, budgetRequests] of [[bfsSourceId, BUDGET / 2]] as const) {
      const sb = await replay("sb", { sourceCrawlId: source, budgetRequests });
      const oracle = await replay("sb-oracle", { sourceCrawlId: source, budgetRequests });
      expect(oracle.config.strategy).toBe("sb-oracle");
      const [sbRow, oracleRow] = await Promise.all([
        t.db.crawl.findUniqueOrThrow({ where: { id: sb.crawlId } }),
        t.db.crawl.findUniqueOrThrow({ where: { id: oracle.crawlId } }),
      ]);
      expect(await t.db.crawlRequest.count({ where: { crawlId: oracle.crawlId, method: "HEAD" } })).toBe(0);
      expect(oracleRow.headCount).toBe(0);
      expect(sbRow.headCount).toBeGreaterThan(0);
      expect(oracleRow.targetsCount).toBeGreaterThanOrEqual(sbRow.targetsCount);
      summary.push(
        `crawl ${source} at ${budgetRequests} requests: sb ${sbRow.targetsCount} targets / ${sbRow.requestsCount}, ` +
          `sb-oracle ${oracleRow.targetsCount} / ${oracleRow.requestsCount} (${oracleRow.stopReason})`,
      );
    }
    console.info(summary.join("\n"));
  });

  it("answers like the HTTP fetcher: HEAD from a stored GET, GET after HEAD only is not archived, MIME blocklist, size limit, robots.txt", async () => {
    const source = await t.db.crawl.findUniqueOrThrow({ where: { id: sourceId } });
    const replaySource = new DatabaseReplaySource(t.db, t.config.dataDir, sourceId);
    onTestFinished(() => replaySource.close());
    const index = await ReplayIndex.build(replaySource, { targetMimeTypes: SIM_TARGET_MIME_TYPES, pageSize: 37 });
    const fetcher = new ReplayFetcher({ source: replaySource, index });
    const base: FetchRequest = { method: "GET", url: rootUrl, maxBodyBytes: 10_000_000, blockedMimePrefixes: ["image/"] };
    const rows = await counted(t.db, sourceId);

    const unknown = await fetcher.fetch({ ...base, url: new URL("/never/fetched", rootUrl).href });
    expect(unknown).toMatchObject({ outcome: "error", status: 0, body: null, error: { code: "not-archived", message: "not in the stored crawl", retryable: false } });

    const root = await fetcher.fetch(base);
    expect(root).toMatchObject({ outcome: "ok", status: 200, mime: "text/html" });
    expect(root.body!.toString("utf8")).toContain("<html");
    expect(root.wireBytes + root.headerBytes).toBe(rows[0]!.bytes);
    const rootHead = await fetcher.fetch({ ...base, method: "HEAD" });
    expect(rootHead).toMatchObject({ outcome: "ok", status: 200, mime: "text/html", body: null, wireBytes: 0 });
    expect(rootHead.headers["content-type"]).toBe(root.headers["content-type"]);
    expect((await fetcher.fetch({ ...base, wantBody: () => false })).body).toBeNull();

    const getUrls = new Set(rows.filter((row) => row.method === "GET").map((row) => row.url));
    const headOnly = rows.find((row) => row.method === "HEAD" && !getUrls.has(row.url));
    if (headOnly) {
      expect((await fetcher.fetch({ ...base, url: headOnly.url, method: "HEAD" })).status).toBe(headOnly.status);
      expect((await fetcher.fetch({ ...base, url: headOnly.url })).error?.code).toBe("not-archived");
    }

    const target = (await targets(t.db, sourceId))[0]!;
    const chunks: Buffer[] = [];
    const sink = new Writable({ write: (chunk, _encoding, callback) => void (chunks.push(chunk), callback()) });
    const streamed = await fetcher.fetch({ ...base, url: target.url, wantBody: () => "stream", openSink: () => sink });
    expect(streamed).toMatchObject({ outcome: "ok", status: 200, streamed: true, bodyBytes: target.bytes, body: null });
    expect(createHash("sha256").update(Buffer.concat(chunks)).digest("hex")).toBe(target.sha256);
    const tooLarge = await fetcher.fetch({ ...base, url: target.url, maxBodyBytes: target.bytes - 1, wantBody: () => "stream", openSink: () => sink });
    expect(tooLarge.outcome).toBe("too-large");
    const blocked = await fetcher.fetch({ ...base, url: target.url, blockedMimePrefixes: [streamed.mime.split("/")[0] + "/"] });
    expect(blocked).toMatchObject({ outcome: "blocked-mime", body: null });

    // robots.txt: the stored status, with rules refusing exactly what the source was refused.
    const robots = await fetcher.fetch({ ...base, url: new URL("/robots.txt", rootUrl).href, overflow: "truncate", blockedMimePrefixes: [] });
    expect(robots.status).toBe(200);
    const refused = await t.db.crawlRequest.findMany({ where: { crawlId: sourceId, outcome: "robots-disallowed" } });
    // (The other host the office redirects to was unreachable: its robots.txt refused everything.)
    const refusedOnSite = refused.filter((row) => new URL(row.url).origin === new URL(rootUrl).origin);
    expect(refusedOnSite.length).toBeGreaterThan(0);
    for (const row of refusedOnSite) expect(robots.body!.toString("utf8")).toContain(`Disallow: ${new URL(row.url).pathname}`);
    expect(source.robotsSkips).toBe(refused.length);

    // The oracle: the stored truth.
    const oracle = createReplayOracle(index);
    expect(oracle(rootUrl)).toBe("html");
    expect(oracle(target.url)).toBe("target");
    expect(oracle(new URL("/never/fetched", rootUrl).href)).toBe("neither");
    expect(index.size).toBeGreaterThan(100);
  });

  it("rebuilds robots.txt rules that refuse exactly the refused URLs, odd characters included", () => {
    const refused = ["http://h/a|b?x=1*2", "http://h/p$q", "http://h/~user/é", "http://h/search?q=a b&x=[1]", "http://h/a%23b/c"];
    const text = `User-agent: *\n${refused.map((url) => `Disallow: ${robotsPattern(url)}`).join("\n")}\n`;
    const robots = RobotsTxt.parse(text);
    for (const url of refused) expect(robots.isAllowed(new URL(url).href, "Forage"), url).toBe(false);
    for (const url of ["http://h/a|b?x=1*2&y", "http://h/search", "http://h/p", "http://h/a", "http://h/~user/"]) {
      expect(robots.isAllowed(url, "Forage"), url).toBe(true);
    }
  });

  it("refuses a missing, unfinished or bodiless source crawl with a clear message", async () => {
    await expect(runReplay({ db: t.db, forage: t.config, sourceCrawlId: 9999, strategy: "bfs" })).rejects.toThrow("crawl 9999 not found");
    const config = parseCrawlConfig({ rootUrl: "http://127.0.0.1:9/", seed: 1 });
    const running = await insertCrawl(t.db, config);
    await t.db.crawl.update({ where: { id: running }, data: { status: "running" } });
    await expect(runReplay({ db: t.db, forage: t.config, sourceCrawlId: running, strategy: "bfs" })).rejects.toThrow(
      `crawl ${running} is still running: replay needs a finished crawl`,
    );
    await t.db.crawl.update({ where: { id: running }, data: { status: "finished", stopReason: "site-exhausted" } });
    await expect(runReplay({ db: t.db, forage: t.config, sourceCrawlId: running, strategy: "bfs" })).rejects.toThrow(
      `crawl ${running} kept no page bodies: it cannot be replayed`,
    );
    // No replay crawl was created for any of them.
    expect(await t.db.crawl.count({ where: { replayOfCrawlId: { in: [9999, running] } } })).toBe(0);
  });
});
