import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrawlConfig } from "../../lib/crawl-config";
import { CheckpointSchedule } from "../../lib/crawler/engine/checkpoint-schedule";
import { createCrawlEngine, type CrawlRun } from "../../lib/crawler/engine/create-engine";
import { decodeState, encodeState, type EngineState } from "../../lib/crawler/engine/engine-state";
import { MemorySink } from "../../lib/crawler/engine/memory-sink";
import type { CrawlEnd } from "../../lib/crawler/engine/types";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { page, sendRoute, startTestSite, testCrawlConfig } from "../helpers/crawl-fixtures";

let sim: RunningSite;
beforeAll(async () => {
  sim = await startSiteServer(buildSite({ shape: "statistics-office", seed: 2, size: "small" }));
});
afterAll(() => sim.close());

const BUDGET = 240;

interface Segment {
  end: CrawlEnd;
  run: CrawlRun;
  sink: MemorySink;
}

/** Runs an engine (fresh or restored) until its end, or drained at a page boundary once `drainAt` requests are counted. */
async function runSegment(config: CrawlConfig, options: { restore?: EngineState; drainAt?: number } = {}): Promise<Segment> {
  const sink = new MemorySink();
  const drain = new AbortController();
  const run = createCrawlEngine({
    config,
    sink,
    signal: new AbortController().signal,
    drainSignal: drain.signal,
    politeness: new HostPoliteness(),
    keepPageBodies: false,
    restore: options.restore,
    afterPage: async () => {
      if (options.drainAt !== undefined && run.counters.requests >= options.drainAt) drain.abort();
    },
  });
  try {
    return { end: await run.engine.run(), run, sink };
  } finally {
    await run.close();
  }
}

const counted = (sink: MemorySink) => sink.requests.filter((row) => row.seq > 0);
const sequence = (sink: MemorySink) => counted(sink).map((row) => `${row.seq} ${row.method} ${row.url}`);

const STRATEGIES: [CrawlConfig["strategy"], Record<string, unknown>][] = [
  ["sb", {}],
  // Thompson draws one sample per awake group in the bandit's order: the order must survive the checkpoint.
  ["sb", { policy: "thompson" }],
  ["sb", { policy: "kl-ucb" }],
  // Long-term credit: each waiting link's lineage rides in the link table, credited sums in the bandit.
  ["sb", { longTermCreditDiscount: 0.5 }],
  ["sb-paper", {}],
  ["bfs", {}],
  ["dfs", {}],
  ["random", {}],
  ["focused", { focusedWarmupRequests: 40 }],
  // Freezes after the checkpoint: the restored FIFO and value bandit must carry over.
  ["tp-off", { tpOffExplorationRequests: 120 }],
  // The Tree-Frontier's leaves, the two Q networks, Adam's moments and the replay buffer carry over.
  ["tres", {}],
];

describe("engine state → JSON → restore", () => {
  it.each(STRATEGIES)("%s: a restored engine makes the same requests, in the same order, as the uninterrupted one", async (strategy, params) => {
    const config = testCrawlConfig({ rootUrl: sim.rootUrl, strategy, seed: 11, budget: { requests: BUDGET }, params });
    const whole = await runSegment(config);
    expect(whole.end).toEqual({ kind: "stopped", reason: "budget-requests" });

    // Two interruptions, each through the checkpoint's own encoding (gzip JSON).
    const first = await runSegment(config, { drainAt: 80 });
    expect(first.end).toEqual({ kind: "paused" });
    expect(first.run.engine.atPageBoundary).toBe(true);
    const saved1 = decodeState(encodeState(first.run.captureState())) as EngineState;
    const second = await runSegment(config, { restore: saved1, drainAt: 160 });
    expect(second.end).toEqual({ kind: "paused" });
    const saved2 = decodeState(encodeState(second.run.captureState())) as EngineState;
    const third = await runSegment(config, { restore: saved2 });
    expect(third.end).toEqual({ kind: "stopped", reason: "budget-requests" });

    const resumed = [...sequence(first.sink), ...sequence(second.sink), ...sequence(third.sink)];
    expect(resumed).toEqual(sequence(whole.sink));
    expect(resumed).toHaveLength(BUDGET);
    // Counted seq goes on from the saved count: 1..BUDGET, no gap, no repeat.
    expect(counted(second.sink)[0]!.seq).toBe(saved1.counters.requests + 1);

    const targets = (...sinks: MemorySink[]) => sinks.flatMap((sink) => sink.targets.map((t) => `${t.requestSeq} ${t.url} ${t.sha256}`));
    expect(targets(first.sink, second.sink, third.sink)).toEqual(targets(whole.sink));
    expect(third.run.counters).toMatchObject({ ...whole.run.counters, activeMs: expect.any(Number) });
    expect(third.run.engine.groupRows()).toEqual(whole.run.engine.groupRows());
    // The state after the resumed run is the uninterrupted run's, byte for byte (counters' time aside).
    const comparable = (state: EngineState) => ({ ...state, counters: { ...state.counters, activeMs: 0 } });
    expect(JSON.stringify(comparable(third.run.captureState()))).toBe(JSON.stringify(comparable(whole.run.captureState())));
  });
});

describe("cookies across a checkpoint", () => {
  it("a resumed crawl sends the cookies the site set before the interruption, so the files it guards are still served", async () => {
    const sent: Array<[path: string, cookie: string]> = [];
    // The session cookie is set once, by the root; every file answers 403 without it.
    const gated = await startTestSite((req, res) => {
      const path = req.url ?? "/";
      const cookie = String(req.headers.cookie ?? "");
      if (path !== "/robots.txt") sent.push([path, cookie]);
      if (path === "/") return void res.writeHead(200, { "content-type": "text/html", "set-cookie": "sess=7; Path=/" }).end(page(["/a", "/b", "/c", "/d"]));
      const file = /^\/files\/(\w+)\.csv$/.exec(path);
      if (file) return cookie === "sess=7" ? sendRoute({ type: "text/csv", body: `k,v\n${file[1]},1\n` }, req, res) : sendRoute({ status: 403, body: "" }, req, res);
      sendRoute(page([`/files${path}.csv`]), req, res);
    });
    try {
      const config = testCrawlConfig({ rootUrl: gated.rootUrl, strategy: "bfs", seed: 3, budget: { requests: 50 } });
      const first = await runSegment(config, { drainAt: 2 });
      expect(first.end).toEqual({ kind: "paused" });
      const saved = decodeState(encodeState(first.run.captureState())) as EngineState;
      expect(saved.cookies).toEqual([["sess", "7", "127.0.0.1", true, "/", false]]);
      const resumedAt = sent.length;
      const second = await runSegment(config, { restore: saved });
      expect(second.end).toEqual({ kind: "stopped", reason: "site-exhausted" });
      const afterResume = sent.slice(resumedAt);
      expect(afterResume.some(([path]) => path.startsWith("/files/"))).toBe(true);
      expect(afterResume.every(([, cookie]) => cookie === "sess=7")).toBe(true);
      expect([...first.sink.targets, ...second.sink.targets].map((t) => new URL(t.url).pathname).sort()).toEqual(["/files/a.csv", "/files/b.csv", "/files/c.csv", "/files/d.csv"]);
    } finally {
      await gated.close();
    }
  });
});

describe("checkpoint cadence", () => {
  it("waits the minimum interval, then for 25× the last checkpoint's cost in engine time (the first, cold, does not count), or the maximum interval", () => {
    let now = 0;
    let engineMs = 0;
    const schedule = new CheckpointSchedule(() => engineMs, { now: () => now });
    const take = (costMs: number) => schedule.take(() => ((now += costMs), (engineMs += costMs), Buffer.alloc(10)));
    expect(schedule.due()).toBe(true); // the first page
    take(40); // cold: JIT warm-up
    now += 1_999;
    expect(schedule.due()).toBe(false);
    now += 1;
    expect(schedule.due()).toBe(true); // after the cold one: only the minimum interval
    take(8);
    now += 2_000;
    engineMs += 199;
    expect(schedule.due()).toBe(false); // 25 × 8 = 200 ms of engine time
    engineMs += 1;
    expect(schedule.due()).toBe(true);
    take(8);
    now += 9_999;
    expect(schedule.due()).toBe(false); // an idle (polite) crawl…
    now += 1;
    expect(schedule.due()).toBe(true); // …still gets one every 10 s
    expect({ count: schedule.count, totalMs: schedule.totalMs, lastBytes: schedule.lastBytes }).toEqual({ count: 3, totalMs: 56, lastBytes: 10 });
  });
});
