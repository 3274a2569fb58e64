import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { requestControl } from "../../lib/store/commands/request-control";
import { CrawlWorker } from "../../lib/worker/crawl-worker";
import { WATCHDOG_EVENT_KIND } from "../../lib/worker/held-crawl-updates";
import { page, startRouteSite, startTestSite, type TestSite } from "../helpers/crawl-fixtures";
import { pollUntil } from "../helpers/poll-until";
import { startNodeProcess, type ManagedProcess } from "../helpers/processes";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/**
 * One member's crawl must not stall the worker the others share. The attack: a blocklist pattern
 * `re:^http://host/a(a|a)*$` (nested repetition a heuristic check such as safe-regex2 lets through)
 * and a page linking `/aaaa…a!`. On a backtracking engine the match never returns: the worker sits
 * at 100 % CPU, its heartbeat stops, its other crawls stall and SIGTERM goes unanswered.
 */

let t: TestDatabase;
/** An endless site: `/p/N` links `/p/3N+1` … `/p/3N+3`. */
let endless: TestSite;
/** A page linking the hostile URL. */
let hostile: TestSite;
let worker: ManagedProcess | null = null;

beforeAll(async () => {
  t = await createTestDatabase();
  endless = await startTestSite((req, res) => {
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? "")?.[1] ?? (req.url === "/" ? 0 : NaN));
    if (!Number.isFinite(n)) {
      res.writeHead(404, { "content-type": "text/html" }).end("<html><body>no</body></html>");
      return;
    }
    res.writeHead(200, { "content-type": "text/html" }).end(page([1, 2, 3].map((k) => `/p/${3 * n + k}`)));
  });
  hostile = await startRouteSite({ "/": page([`/${"a".repeat(50)}!`, "/ok"]), "/ok": page([]) });
});

afterAll(async () => {
  await worker?.stop(2_000);
  await endless?.close();
  await hostile?.close();
  await t?.dispose();
});

const crawlRow = (id: number) => () => t.db.crawl.findUniqueOrThrow({ where: { id } });

function endlessCrawl() {
  return createCrawl(
    t.db,
    { rootUrl: endless.rootUrl, strategy: "bfs", budget: { requests: 100_000 }, politeness: { delayMs: 10 }, params: { earlyStop: false }, allowPrivateNetwork: true, seed: 1 },
    { asLocalAdmin: true },
  );
}

describe("a hostile URL pattern in one crawl of a forage worker process", () => {
  it("leaves the other crawl running, the heartbeat written, and SIGTERM obeyed", async () => {
    const leaseMs = 4_000; // a heartbeat every 2 s
    const other = await endlessCrawl();
    worker = startNodeProcess(["bin/forage.mjs", "worker", "--concurrency", "2"], {
      DATABASE_URL: t.config.databaseUrl,
      FORAGE_DATA_DIR: t.config.dataDir,
      FORAGE_WORKER_ID: "watchdog-worker",
      FORAGE_WORKER_LEASE_MS: String(leaseMs),
    });
    const output = () => worker?.output() ?? "";
    const waitFor = <T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 30_000) =>
      pollUntil(what, read, accept, { timeoutMs, pollMs: 50, context: output });
    await waitFor("the other crawl running", crawlRow(other.id), (row) => row.status === "running" && row.requestsCount > 5);

    const origin = new URL(hostile.rootUrl).origin.replaceAll(".", "\\.");
    const attack = await createCrawl(
      t.db,
      { rootUrl: hostile.rootUrl, strategy: "bfs", budget: { requests: 50 }, politeness: { delayMs: 0 }, blocklist: { urlPatterns: [`re:^${origin}/a(a|a)*$`] }, allowPrivateNetwork: true, seed: 2 },
      { asLocalAdmin: true },
    );
    // The root page is fetched: its links, the hostile one among them, are checked against the pattern next.
    await waitFor("the hostile page served", async () => hostile.paths("GET"), (paths) => paths.includes("/"));
    expect(attack.id).toBeGreaterThan(other.id);
    const before = await crawlRow(other.id)();
    const beat = await t.db.worker.findUniqueOrThrow({ where: { id: "watchdog-worker" } });

    await waitFor("the other crawl progressing", crawlRow(other.id), (row) => row.requestsCount >= before.requestsCount + 30, 15_000);
    await waitFor("two more heartbeats", () => t.db.worker.findUniqueOrThrow({ where: { id: "watchdog-worker" } }), (row) => row.heartbeatAt.getTime() >= beat.heartbeatAt.getTime() + leaseMs, 15_000);
    // The pattern never matches a URL ending in "!": the hostile link is crawled like any other.
    const done = await waitFor("the hostile crawl over", crawlRow(attack.id), (row) => row.status === "finished", 15_000);
    expect(done.stopReason).toBe("site-exhausted");
    expect(hostile.paths("GET")).toContain(`/${"a".repeat(50)}!`);

    const signalled = performance.now();
    const exited = new Promise<number | null>((resolve) => worker!.child.once("exit", (code) => resolve(code)));
    worker.child.kill("SIGTERM");
    const code = await Promise.race([exited, new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), 15_000).unref())]);
    expect(code, output()).toBe(0);
    expect(performance.now() - signalled).toBeLessThan(12_000);
    worker = null;
    // Handed back: queued again, resumed from its checkpoint by the next worker.
    expect(await crawlRow(other.id)()).toMatchObject({ status: "queued", workerId: null });
  });
});

describe("the worker's step watchdog", () => {
  it("pauses a crawl whose step held the event loop past the limit, with an event, while the other crawl goes on", async () => {
    // The seam: the slow crawl's step watch reads a clock that gains 2 s at every read once
    // `slow` is set: each of its steps then seems to take 2 s. The other crawl reads the real clock.
    let slowId = -1;
    let slow = false;
    let reads = 0;
    const slowClock = () => performance.now() + (slow ? ++reads * 2_000 : 0);
    const marked = new Set<number>(); // what the event-loop watchdog would be told
    let inStep = 0;
    const inProcess = new CrawlWorker(t.db, t.config, {
      pollMs: 100,
      controlPollMs: 50,
      leaseMs: 4_000,
      maxStepMs: 1_000,
      stepClock: (crawlId) => (crawlId === slowId ? slowClock : () => performance.now()),
      markStep: (crawlId) => {
        marked.add(crawlId);
        inStep = crawlId;
      },
    });
    // The crawl the worker process handed back stays out of this test.
    await t.db.crawl.updateMany({ where: { status: "queued" }, data: { status: "cancelled", stopReason: "cancelled" } });
    try {
      const victim = await endlessCrawl();
      slowId = victim.id;
      const other = await endlessCrawl();
      await inProcess.start();
      const waitFor = <T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean) => pollUntil(what, read, accept, { timeoutMs: 30_000, pollMs: 50 });
      await waitFor("both running", () => t.db.crawl.findMany({ where: { id: { in: [victim.id, other.id] } } }), (rows) => rows.every((row) => row.status === "running" && row.requestsCount > 5));

      expect([...marked].sort((a, b) => a - b)).toEqual([0, victim.id, other.id].sort((a, b) => a - b));
      slow = true;
      const paused = await waitFor("paused by the watchdog", crawlRow(victim.id), (row) => row.status === "paused");
      const event = await t.db.crawlEvent.findFirstOrThrow({ where: { crawlId: victim.id, kind: WATCHDOG_EVENT_KIND } });
      expect(event.level).toBe("warn");
      expect(event.message).toMatch(/^Crawl paused by the worker's watchdog: one step \((checking a page's new links|the strategy choosing the next page|the strategy learning from a crawled page)[^)]*\) held the worker for \d+ ms, over its 1000 ms limit/);
      expect(JSON.parse(event.data ?? "{}")).toMatchObject({ limitMs: 1_000, ms: expect.any(Number) });

      // Paused before its next page: frozen while the other crawl makes 30 more requests.
      const otherAt = (await crawlRow(other.id)()).requestsCount;
      await waitFor("the other crawl progressing", crawlRow(other.id), (row) => row.status === "running" && row.requestsCount >= otherAt + 30);
      const frozen = (await crawlRow(victim.id)()).requestsCount;
      expect(frozen).toBeLessThanOrEqual(paused.requestsCount + 1); // at most the page in flight
      await waitFor("the other crawl progressing again", crawlRow(other.id), (row) => row.requestsCount >= otherAt + 60);
      expect((await crawlRow(victim.id)()).requestsCount).toBe(frozen);

      // Resumed like any paused crawl once its steps are short again.
      slow = false;
      await requestControl(t.db, t.config, victim.id, "resume");
      await waitFor("running again", crawlRow(victim.id), (row) => row.status === "running" && row.requestsCount > frozen + 10);
      expect(inStep).toBe(0); // between steps: steps are synchronous, so none runs while this test does
    } finally {
      await inProcess.stop();
    }
  });
});
