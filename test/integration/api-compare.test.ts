import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCrawlConfig, type CrawlConfigInput } from "../../lib/crawl-config";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runReplay } from "../../lib/worker/run-replay";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { buildSite, SIM_TARGET_MIME_TYPES, startSiteServer } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import type { Db } from "../../lib/store/prisma-client";
import type { CrawlComparison } from "../../lib/store/queries/get-crawl-comparison";
import type { CrawlReplays } from "../../lib/store/queries/get-crawl-replays";
import type { SavedVsBfs } from "../../lib/store/queries/get-saved-vs-bfs";
import { CrawlWorker } from "../../lib/worker/crawl-worker";
import { apiRequest, closeRouteDatabase, ctx, expectError, openRouteDatabase, url } from "../helpers/api-routes";
import { pollUntil } from "../helpers/poll-until";
import type { TestDatabase } from "../helpers/test-database";

// The Compare routes on a real database, with replays run by a real worker from a real crawl of
// the simulated site (the site is closed before any replay runs: a replay that touched the
// network would fail to connect).
let t: TestDatabase;
let compareRoute: typeof import("@/app/api/compare/route");
let savedRoute: typeof import("@/app/api/compare/saved-vs-bfs/route");
let replaysRoute: typeof import("@/app/api/crawls/[id]/replays/route");
let rootUrl: string;
let sourceId: number;
/** Replays queued through the API and run by the worker: strategy → crawl id. */
const replayIds: Record<string, number> = {};
const SEED = 5;

async function crawlSite(input: Partial<CrawlConfigInput>): Promise<number> {
  const config = parseCrawlConfig({ rootUrl, targetMimeTypes: [...SIM_TARGET_MIME_TYPES], budget: { requests: 160 }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, ...input });
  const crawlId = await insertCrawl(t.db, config);
  await runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
  return crawlId;
}

/** A crawl row in a given state without running it (for the state checks). */
async function storedCrawl(status: string, root = rootUrl, strategy: CrawlConfigInput["strategy"] = "sb"): Promise<number> {
  const id = await insertCrawl(t.db, parseCrawlConfig({ rootUrl: root, strategy, seed: 1, allowPrivateNetwork: true }));
  await t.db.crawl.update({ where: { id }, data: { status } });
  return id;
}

function postReplays(id: number | string, body: unknown, init: RequestInit = {}): Promise<Response> {
  return replaysRoute.POST(apiRequest(url(`/api/crawls/${id}/replays`), { method: "POST", body: typeof body === "string" ? body : JSON.stringify(body), ...init }), ctx(id));
}

function compare(query: string): Promise<Response> {
  return compareRoute.GET(apiRequest(url(`/api/compare${query}`)));
}

async function comparison(ids: number[], extra = ""): Promise<CrawlComparison> {
  const response = await compare(`?ids=${ids.join(",")}${extra}`);
  expect(response.status).toBe(200);
  return (await response.json()) as CrawlComparison;
}

/** What a crawl made, request by request, and what it found. */
async function outcome(db: Db, crawlId: number) {
  const row = await db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
  const requests = await db.crawlRequest.findMany({ where: { crawlId, seq: { gt: 0 } }, orderBy: { id: "asc" }, select: { seq: true, method: true, url: true, status: true, outcome: true, bytes: true } });
  const targets = await db.target.findMany({ where: { crawlId }, orderBy: { requestSeq: "asc" }, select: { url: true, sha256: true, requestSeq: true } });
  return {
    counters: { requests: row.requestsCount, targets: row.targetsCount, targetBytes: Number(row.targetBytes), nonTargetBytes: Number(row.nonTargetBytes), stopReason: row.stopReason },
    requests,
    targets,
  };
}

/** Independent of the query: the request number of the n-th target in request order. */
async function nthTargetRequest(crawlId: number, n: number): Promise<number | null> {
  const seqs = (await t.db.target.findMany({ where: { crawlId }, select: { requestSeq: true } })).map((row) => row.requestSeq).sort((a, b) => a - b);
  return seqs[n - 1] ?? null;
}

beforeAll(async () => {
  t = await openRouteDatabase();
  compareRoute = await import("@/app/api/compare/route");
  savedRoute = await import("@/app/api/compare/saved-vs-bfs/route");
  replaysRoute = await import("@/app/api/crawls/[id]/replays/route");
  const server = await startSiteServer(buildSite({ shape: "statistics-office", seed: 2, size: "tiny" }));
  rootUrl = server.rootUrl;
  try {
    sourceId = await crawlSite({ strategy: "sb", seed: SEED });
  } finally {
    await server.close();
  }
}, 120_000);

afterAll(() => closeRouteDatabase(t));

describe("POST /api/crawls/:id/replays", () => {
  it("queues one replay per strategy, linked to the source; the worker runs them offline with the numbers of `forage replay`", async () => {
    const response = await postReplays(sourceId, { strategies: ["bfs", "random"], seed: 3 });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { sourceCrawlId: number; replays: { id: number; strategy: string; seed: number }[] };
    expect(body.sourceCrawlId).toBe(sourceId);
    expect(body.replays.map((r) => [r.strategy, r.seed])).toEqual([["bfs", 3], ["random", 3]]);
    for (const replay of body.replays) {
      const row = await t.db.crawl.findUniqueOrThrow({ where: { id: replay.id } });
      expect(row).toMatchObject({ status: "queued", replayOfCrawlId: sourceId, strategy: replay.strategy, seed: 3 });
      expect(JSON.parse(row.config)).toMatchObject({ politeness: { delayMs: 0 } });
      replayIds[replay.strategy] = replay.id;
    }

    const worker = new CrawlWorker(t.db, t.config, { pollMs: 100, controlPollMs: 50, leaseMs: 4_000 });
    await worker.start();
    try {
      await pollUntil(
        "both replays to finish",
        () => t.db.crawl.findMany({ where: { id: { in: Object.values(replayIds) } }, select: { status: true, stopDetail: true } }),
        (rows) => rows.every((row) => row.status !== "queued" && row.status !== "running"),
        { timeoutMs: 90_000, pollMs: 100 },
      );
    } finally {
      await worker.stop();
    }

    for (const strategy of ["bfs", "random"] as const) {
      const byWorker = await outcome(t.db, replayIds[strategy]!);
      expect(byWorker.counters.stopReason).not.toBe("failed");
      expect(byWorker.counters.requests).toBeGreaterThan(20);
      // `forage replay` runs exactly this function in the foreground.
      const cli = await runReplay({ db: t.db, forage: t.config, sourceCrawlId: sourceId, strategy, seed: 3 });
      const byCli = await outcome(t.db, cli.crawlId);
      expect(byWorker.counters).toEqual(byCli.counters);
      expect(byWorker.requests).toEqual(byCli.requests);
      expect(byWorker.targets).toEqual(byCli.targets);
      // The replay answered from the source: no request failed as if the network were asked.
      expect(byWorker.requests.filter((r) => r.outcome === "error" && r.status === null).length).toBe(cli.stats.notArchived);
    }
  }, 180_000);

  it("a replay whose source is no longer replayable when the worker claims it fails with the reason, without crawling", async () => {
    const response = await postReplays(sourceId, { strategies: ["focused"] });
    const replayId = ((await response.json()) as { replays: { id: number }[] }).replays[0]!.id;
    await t.db.crawl.update({ where: { id: sourceId }, data: { status: "paused" } });
    const worker = new CrawlWorker(t.db, t.config, { pollMs: 100, controlPollMs: 50, leaseMs: 4_000 });
    await worker.start();
    try {
      const row = await pollUntil("the replay to fail", () => t.db.crawl.findUniqueOrThrow({ where: { id: replayId } }), (r) => r.status === "failed", { timeoutMs: 20_000, pollMs: 100 });
      expect(row).toMatchObject({ stopReason: "failed", stopDetail: `replay impossible: crawl ${sourceId} is still paused: replay needs a finished crawl`, requestsCount: 0, workerId: null });
      expect(await t.db.crawlRequest.count({ where: { crawlId: replayId } })).toBe(0);
    } finally {
      await worker.stop();
      await t.db.crawl.update({ where: { id: sourceId }, data: { status: "finished" } });
    }
  });

  it("replays a replay's source, not the replay (one family, one target set)", async () => {
    const response = await postReplays(replayIds.bfs!, { strategies: ["dfs"] });
    expect(response.status).toBe(201);
    const body = (await response.json()) as { sourceCrawlId: number; replays: { id: number; seed: number }[] };
    expect(body.sourceCrawlId).toBe(sourceId);
    const source = await t.db.crawl.findUniqueOrThrow({ where: { id: sourceId } });
    expect(body.replays[0]!.seed).toBe(source.seed); // no seed: the source's, as `forage replay`
    const row = await t.db.crawl.findUniqueOrThrow({ where: { id: body.replays[0]!.id } });
    expect(row.replayOfCrawlId).toBe(sourceId);
    await t.db.crawl.update({ where: { id: row.id }, data: { status: "cancelled" } }); // never run: keep it out of the worker's way
  });

  it.each([
    ["no strategies", { seed: 1 }, "strategies", "must be a list of strategies"],
    ["an empty list", { strategies: [] }, "strategies", "must name at least one strategy"],
    ["an unknown strategy", { strategies: ["bfs", "magic"] }, "strategies.1", expect.stringContaining("must be one of sb, sb-paper, sb-oracle")],
    ["a strategy twice", { strategies: ["bfs", "bfs"] }, "strategies", "must name each strategy once"],
    ["a negative seed", { strategies: ["bfs"], seed: -1 }, "seed", "must be at least 0"],
    ["a fractional seed", { strategies: ["bfs"], seed: 1.5 }, "seed", "must be a whole number"],
    ["a seed as text", { strategies: ["bfs"], seed: "7" }, "seed", "must be a whole number"],
    ["an unknown field", { strategies: ["bfs"], budget: 5 }, "budget", expect.any(String)],
  ])("refuses %s with 400 naming the field", async (_name, body, field, message) => {
    const error = await expectError(await postReplays(sourceId, body), 400, "invalid_request");
    expect(error.fields?.[field]).toEqual(message);
  });

  it("refuses a body that is not JSON (415) and malformed JSON (400)", async () => {
    await expectError(await postReplays(sourceId, "strategies=bfs", { headers: { "content-type": "application/x-www-form-urlencoded" } }), 415, "unsupported_media_type");
    await expectError(await postReplays(sourceId, "{strategies:"), 400, "invalid_json");
  });

  it("answers 404 for an unknown or malformed crawl id", async () => {
    await expectError(await postReplays(999_999, { strategies: ["bfs"] }), 404, "not_found");
    await expectError(await postReplays("12abc", { strategies: ["bfs"] }), 404, "not_found");
  });

  it.each(["queued", "running", "paused", "cancelled", "failed"])("refuses to replay a %s crawl (409, the reason in the message)", async (status) => {
    const id = await storedCrawl(status);
    const error = await expectError(await postReplays(id, { strategies: ["bfs"] }), 409, "invalid_state");
    expect(error.message).toMatch(new RegExp(`^Cannot replay: crawl ${id} .*(replay needs a finished crawl)`));
    expect(await t.db.crawl.count({ where: { replayOfCrawlId: id } })).toBe(0);
  });

  it("refuses a finished crawl that kept no pages", async () => {
    const id = await storedCrawl("finished");
    const error = await expectError(await postReplays(id, { strategies: ["bfs"] }), 409, "invalid_state");
    expect(error.message).toContain("kept no page bodies");
  });
});

describe("GET /api/crawls/:id/replays", () => {
  it("lists the family from the source and from a replay", async () => {
    const fromSource = (await (await replaysRoute.GET(apiRequest(url(`/api/crawls/${sourceId}/replays`)), ctx(sourceId))).json()) as CrawlReplays;
    expect(fromSource.source).toBeNull();
    expect(fromSource.replays.map((r) => r.id)).toEqual(expect.arrayContaining([replayIds.bfs, replayIds.random]));
    const fromReplay = (await (await replaysRoute.GET(apiRequest(url(`/api/crawls/${replayIds.random}/replays`)), ctx(replayIds.random!))).json()) as CrawlReplays;
    expect(fromReplay).toMatchObject({ sourceCrawlId: sourceId, source: { id: sourceId, strategy: "sb" } });
    expect(fromReplay.replays).toEqual(fromSource.replays);
  });
});

describe("GET /api/compare", () => {
  it("gives a curve per crawl, requests to 50 % / 90 % of the best run's targets, the ratio to BFS and the omniscient line", async () => {
    const ids = [sourceId, replayIds.bfs!, replayIds.random!];
    const result = await comparison(ids);
    expect(result.crawls.map((c) => c.id)).toEqual(ids);
    expect(result.rootUrl).toBe(rootUrl);
    const rows = await t.db.crawl.findMany({ where: { id: { in: ids } } });
    const best = rows.reduce((a, b) => (b.targetsCount > a.targetsCount ? b : a));
    expect(result.best).toEqual({ crawlId: best.id, targets: best.targetsCount, targets50: Math.ceil(best.targetsCount / 2), targets90: Math.ceil(best.targetsCount * 0.9) });
    expect(result.bfsCrawlId).toBe(replayIds.bfs);
    expect(result.omniscient).toEqual({ sourceCrawlId: sourceId, targets: await t.db.target.count({ where: { crawlId: sourceId } }) });
    const bfsTo90 = await nthTargetRequest(replayIds.bfs!, result.best.targets90);
    for (const crawl of result.crawls) {
      const row = rows.find((r) => r.id === crawl.id)!;
      expect(crawl).toMatchObject({ requests: row.requestsCount, targets: row.targetsCount, stopReason: row.stopReason, strategy: row.strategy });
      expect(crawl.harvestRate).toBeCloseTo(row.targetsCount / row.requestsCount, 10);
      expect(crawl.requestsTo50).toBe(await nthTargetRequest(crawl.id, result.best.targets50));
      expect(crawl.requestsTo90).toBe(await nthTargetRequest(crawl.id, result.best.targets90));
      expect(crawl.ratioToBfs).toBe(crawl.requestsTo90 === null || bfsTo90 === null ? null : crawl.requestsTo90 / bfsTo90);
      // The curve starts at the first metric point, rises monotonically and ends on the counters.
      expect(crawl.points.at(-1)).toEqual({ requests: row.requestsCount, targets: row.targetsCount, targetBytes: Number(row.targetBytes), nonTargetBytes: Number(row.nonTargetBytes) });
      for (let i = 1; i < crawl.points.length; i++) {
        expect(crawl.points[i]!.requests).toBeGreaterThan(crawl.points[i - 1]!.requests);
        expect(crawl.points[i]!.targets).toBeGreaterThanOrEqual(crawl.points[i - 1]!.targets);
      }
    }
    expect(result.crawls.find((c) => c.id === replayIds.bfs)!.ratioToBfs).toBe(bfsTo90 === null ? null : 1);
  });

  it("downsamples each curve to maxPoints, keeping both ends", async () => {
    const full = await comparison([sourceId], "&maxPoints=100000");
    const small = await comparison([sourceId], "&maxPoints=5");
    expect(full.crawls[0]!.points.length).toBeGreaterThan(10);
    // At most 5 sampled points, plus the counters' point when the last metric point is behind it.
    expect(small.crawls[0]!.points.length).toBeLessThanOrEqual(6);
    expect(small.crawls[0]!.points[0]).toEqual(full.crawls[0]!.points[0]);
    expect(small.crawls[0]!.points.at(-1)).toEqual(full.crawls[0]!.points.at(-1));
  });

  it.each([
    ["no ids", "", "ids"],
    ["an empty list", "?ids=", "ids"],
    ["a word", "?ids=abc", "ids"],
    ["an empty item", "?ids=1,,2", "ids"],
    ["zero", "?ids=0", "ids"],
    ["a negative id", "?ids=-3", "ids"],
    ["a crawl twice", "?ids=4,4", "ids"],
    ["too many crawls", `?ids=${Array.from({ length: 11 }, (_, i) => i + 1).join(",")}`, "ids"],
    ["an id past int4", "?ids=99999999999", "ids"],
    ["an unknown parameter", "?ids=1&color=red", "color"],
    ["a bad maxPoints", "?ids=1&maxPoints=1", "maxPoints"],
  ])("refuses %s with 400 naming the parameter", async (_name, query, field) => {
    const error = await expectError(await compare(query), 400, "invalid_request");
    expect(Object.keys(error.fields ?? {})).toContain(field);
  });

  it("answers 404 naming an unknown crawl", async () => {
    const error = await expectError(await compare(`?ids=${sourceId},999999`), 404, "not_found");
    expect(error.message).toBe("Crawl 999999 not found");
  });

  it("refuses crawls of different sites with a clear message", async () => {
    const other = await storedCrawl("finished", "https://www.example.org/data/");
    const error = await expectError(await compare(`?ids=${sourceId},${other}`), 400, "invalid_request");
    expect(error.message).toMatch(/^Crawls of different sites cannot be compared: ids must name crawls of one site: crawl \d+ crawled 127\.0\.0\.1:\d+, crawl \d+ crawled example\.org$/);
    // Another port on 127.0.0.1 is another site; `www.` and the path are not.
    const otherPort = await storedCrawl("finished", rootUrl.replace(/:(\d+)/, (_m, port: string) => `:${Number(port) + 1}`));
    await expectError(await compare(`?ids=${sourceId},${otherPort}`), 400, "invalid_request");
    const sameSite = await storedCrawl("finished", "https://example.org/other/path");
    expect((await comparison([other, sameSite])).crawls).toHaveLength(2);
  });

  it("refuses cancelled crawls (409) and shows unfinished ones as they are, to be watched live", async () => {
    const cancelled = await storedCrawl("cancelled");
    const error = await expectError(await compare(`?ids=${sourceId},${cancelled}`), 409, "invalid_state");
    expect(error.message).toBe(`Crawl ${cancelled} was cancelled (its data was discarded): it cannot be compared`);
    const queued = await storedCrawl("queued");
    const running = await storedCrawl("running");
    await t.db.metricPoint.create({ data: { crawlId: running, requests: 10, targets: 2, targetBytes: 100n, nonTargetBytes: 900n } });
    await t.db.crawl.update({ where: { id: running }, data: { requestsCount: 12, targetsCount: 2, targetBytes: 100n, nonTargetBytes: 1000n } });
    const result = await comparison([sourceId, queued, running]);
    expect(result.crawls[1]).toMatchObject({ status: "queued", requests: 0, points: [], requestsTo90: null, harvestRate: null });
    expect(result.crawls[2]).toMatchObject({
      status: "running",
      harvestRate: 2 / 12,
      points: [
        { requests: 10, targets: 2, targetBytes: 100, nonTargetBytes: 900 },
        { requests: 12, targets: 2, targetBytes: 100, nonTargetBytes: 1000 },
      ],
    });
    expect(result.omniscient).toBeNull(); // not one stored crawl and its replays
  });
});

describe("GET /api/compare/saved-vs-bfs", () => {
  it("states what a run saved against the BFS run of its family to reach 90 % of the targets", async () => {
    const response = await savedRoute.GET(apiRequest(url(`/api/compare/saved-vs-bfs?crawl=${replayIds.random}`)));
    expect(response.status).toBe(200);
    const { savedVsBfs } = (await response.json()) as { savedVsBfs: SavedVsBfs };
    const rows = await t.db.crawl.findMany({ where: { id: { in: [replayIds.random!, replayIds.bfs!] } } });
    const targets90 = Math.ceil(Math.max(...rows.map((r) => r.targetsCount)) * 0.9);
    const mine = await nthTargetRequest(replayIds.random!, targets90);
    const theirs = await nthTargetRequest(replayIds.bfs!, targets90);
    expect(savedVsBfs).toEqual({
      bfsCrawlId: replayIds.bfs,
      targets90,
      requestsTo90: mine,
      bfsRequestsTo90: theirs,
      savedRequests: mine === null || theirs === null ? null : theirs - mine,
    });
  });

  it("is null for a BFS crawl and for a site without a finished BFS run; 404 / 400 for bad crawls", async () => {
    const get = (query: string) => savedRoute.GET(apiRequest(url(`/api/compare/saved-vs-bfs${query}`)));
    expect(await (await get(`?crawl=${replayIds.bfs}`)).json()).toEqual({ savedVsBfs: null });
    const lonely = await storedCrawl("finished", "https://lonely.example/");
    expect(await (await get(`?crawl=${lonely}`)).json()).toEqual({ savedVsBfs: null });
    await expectError(await get("?crawl=999999"), 404, "not_found");
    expect(Object.keys((await expectError(await get("?crawl=x"), 400, "invalid_request")).fields ?? {})).toEqual(["crawl"]);
  });
});
