import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { buildSite, type SimulatedSite } from "../../lib/sitesim";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import type { Db } from "../../lib/store";
import { PostgresHostClock } from "../../lib/store/host-clock-postgres";
import { kill9, startNodeProcess, type ManagedProcess } from "../helpers/processes";
import { createTestDatabase, describePostgres, type TestDatabase } from "../helpers/test-database";
import { pollUntil } from "../helpers/poll-until";
import { listenOnFreePort } from "../helpers/ports";

// Politeness across workers, measured at the site: two real `forage worker` processes sharing
// one PostgreSQL database each run a crawl of the same simulated host. The site records when
// every request arrived and when its answer left; the host must never see a request start
// sooner than the delay after the previous answer (robots.txt, HEAD, GET, redirects: every
// request the site receives counts). Then the site answers one request 429 with Retry-After,
// and no request of either worker may arrive before that time is over.

const DELAY_MS = 300;
const BUDGET = 14;
const RETRY_AFTER_S = 2;

interface Arrival {
  /** User-Agent: each crawl sends its own, to tell them apart at the site. */
  agent: string;
  method: string;
  path: string;
  /**
   * performance.now() when the request arrived and when the site began to send its answer. Not the
   * response's 'finish' event: on loopback the client can read the answer (and its crawler count
   * the delay from there) before the site's event loop gets to 'finish'.
   */
  arrivedMs: number;
  answeredMs: number;
  status: number;
}

/** A simulated site on 127.0.0.1 that logs every request; `rateLimitNext()` makes the next answer a 429. */
async function startRecordingSite(site: SimulatedSite) {
  const log: Arrival[] = [];
  let rateLimitNext = false;
  const server = http.createServer((req, res) => {
    const arrival: Arrival = { agent: req.headers["user-agent"] ?? "", method: req.method ?? "", path: req.url ?? "/", arrivedMs: performance.now(), answeredMs: Number.NaN, status: 0 };
    log.push(arrival);
    if (rateLimitNext && req.url !== "/robots.txt") {
      rateLimitNext = false;
      arrival.status = 429;
      arrival.answeredMs = performance.now();
      res.writeHead(429, { "retry-after": String(RETRY_AFTER_S), "content-type": "text/plain", "content-length": "5" });
      res.end("slow\n");
      return;
    }
    const method = req.method === "HEAD" ? "HEAD" : "GET";
    const out = site.respond(method, req.url ?? "/", { host: req.headers.host ?? "" });
    arrival.status = out.status;
    arrival.answeredMs = performance.now();
    res.writeHead(out.status, out.headers);
    res.end(method === "HEAD" ? undefined : out.body);
  });
  await listenOnFreePort(server);
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    rootUrl: `${origin}/`,
    log,
    rateLimitNext: () => (rateLimitNext = true),
    close: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

/** The smallest time between an answer leaving the site and the next request arriving. */
function smallestGap(log: readonly Arrival[]): { gapMs: number; between: string } {
  let best = { gapMs: Infinity, between: "" };
  for (let i = 1; i < log.length; i++) {
    const gapMs = log[i]!.arrivedMs - log[i - 1]!.answeredMs;
    if (gapMs < best.gapMs) best = { gapMs, between: `${log[i - 1]!.method} ${log[i - 1]!.path} → ${log[i]!.method} ${log[i]!.path}` };
  }
  return best;
}

let t: TestDatabase;
const workers: ManagedProcess[] = [];

beforeAll(async () => {
  if (!inject("postgres").available) return;
  t = await createTestDatabase({ backend: "postgres" });
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await t?.dispose();
});

function startWorker(name: string): ManagedProcess {
  // One crawl at a time each, so the two crawls run on the two workers.
  const worker = startNodeProcess(["bin/forage.mjs", "worker", "--concurrency", "1"], { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.dir, FORAGE_WORKER_ID: name });
  workers.push(worker);
  return worker;
}

describePostgres("one politeness clock per host across workers (PostgreSQL)", () => {
  it("two workers crawling one host: the site never sees two requests closer than the delay, and a Retry-After holds both", { timeout: 120_000 }, async () => {
    const site = await startRecordingSite(buildSite({ shape: "statistics-office", seed: 5, size: "small" }));
    try {
      const a = startWorker("clock-a");
      const b = startWorker("clock-b");
      const logs = () => `--- clock-a\n${a.output()}\n--- clock-b\n${b.output()}`;
      await pollUntil("both workers ready", () => a.output().includes("ready") && b.output().includes("ready"), Boolean, { timeoutMs: 60_000, pollMs: 50, context: logs });

      const ids: number[] = [];
      for (const seed of [1, 2]) {
        const politeness = { delayMs: DELAY_MS, userAgent: `forage-test-crawl-${seed}` };
        const input = { rootUrl: site.rootUrl, budget: { requests: BUDGET }, politeness, allowPrivateNetwork: true, seed };
        ids.push((await createCrawl(t.db, input, { asLocalAdmin: true })).id);
      }
      // Both crawls running, one on each worker, before anything is measured.
      await pollUntil(
        "one crawl on each worker",
        () => t.db.crawl.findMany({ where: { id: { in: ids } }, select: { workerId: true, status: true, stopDetail: true } }),
        (rows) => new Set(rows.map((row) => row.workerId)).size === 2 && rows.every((row) => row.workerId !== null),
        { timeoutMs: 30_000, pollMs: 20, context: logs },
      );
      await pollUntil("a few requests", () => site.log.length, (n) => n >= 8, { timeoutMs: 30_000, pollMs: 20, context: logs });
      site.rateLimitNext();
      await pollUntil(
        "both crawls over",
        () => t.db.crawl.findMany({ where: { id: { in: ids } }, select: { status: true, workerId: true } }),
        (rows) => rows.every((row) => ["finished", "failed", "cancelled"].includes(row.status) && row.workerId === null),
        { timeoutMs: 90_000, pollMs: 50, context: logs },
      );
      const done = await t.db.crawl.findMany({ where: { id: { in: ids } }, select: { status: true, requestsCount: true } });
      expect(done.map((row) => row.status)).toEqual(["finished", "finished"]);

      const { log } = site;
      const gap = smallestGap(log);
      console.log(`[postgres-politeness] ${log.length} requests at the site, smallest gap answer → next request ${gap.gapMs.toFixed(1)} ms (${gap.between})`);
      expect(log.length).toBeGreaterThanOrEqual(2 * BUDGET);
      expect(gap.gapMs, gap.between).toBeGreaterThanOrEqual(DELAY_MS);

      // The 429 went to one crawl (on one worker); the other crawl, on the other worker, waited too.
      const limited = log.findIndex((arrival) => arrival.status === 429);
      expect(limited).toBeGreaterThan(0);
      const limitedAt = log[limited]!;
      const other = log.slice(limited + 1).find((arrival) => arrival.agent !== limitedAt.agent);
      expect(other, "a request of the other crawl after the 429").toBeDefined();
      const waitedMs = other!.arrivedMs - limitedAt.answeredMs;
      console.log(`[postgres-politeness] after a 429 (Retry-After: ${RETRY_AFTER_S}) to ${limitedAt.agent}, ${other!.agent} on the other worker sent its next request ${waitedMs.toFixed(0)} ms later`);
      expect(waitedMs).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
      expect(log[limited + 1]!.arrivedMs - limitedAt.answeredMs).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()));
      await site.close();
    }
  });
});

describePostgres("the PostgreSQL host clock (a lease per host, the clock in memory while held)", () => {
  const HOST = "http://clock.example:8080/";
  const clocks: PostgresHostClock[] = [];
  const clock = (db: Db, options: ConstructorParameters<typeof PostgresHostClock>[1]) => {
    const made = new PostgresHostClock(db, options);
    clocks.push(made);
    return made;
  };
  afterAll(async () => {
    await Promise.all(clocks.map((made) => made.close()));
  });

  it("serves two clocks (two workers) one request at a time: the holder hands the host over to a waiter, the delay after each end", { timeout: 20_000 }, async () => {
    const other = await t.openClient();
    const a = clock(t.db, { holderId: "a" });
    const b = clock(other, { holderId: "b" });
    // A holds the host; B waits while A's request runs, then the delay after its end.
    const releaseA = await a.acquire(HOST, { delayMs: 150 });
    const waitB = b.acquire(HOST, { delayMs: 150 });
    await pollUntil("B waiting for the host", () => b.waitingFor(), (waits) => waits.some((w) => w.host === "clock.example:8080" && w.waiters === 1), { timeoutMs: 5_000, pollMs: 10 });
    await pollUntil("B's wait marked on the row", () => t.db.hostClock.findUniqueOrThrow({ where: { host: "clock.example:8080" } }), (row) => row.wantedBy?.startsWith("b#") ?? false, { timeoutMs: 5_000, pollMs: 10 });
    const endA = performance.now();
    releaseA();
    const releaseB = await waitB;
    expect(performance.now() - endA).toBeGreaterThanOrEqual(150);
    const endB = performance.now();
    releaseB();
    // And back to A: B hands over, the delay counted from B's end.
    (await a.acquire(HOST, { delayMs: 150 }))();
    expect(performance.now() - endB).toBeGreaterThanOrEqual(150);
  });

  it("takes a host over once the lease of a holder that died runs out, the delay counted from the lease's end", { timeout: 20_000 }, async () => {
    const url = "http://dead-holder.example/";
    // A worker killed while holding the host: its lease is no longer renewed.
    await t.db.$executeRaw`
      INSERT INTO "HostClock" ("host", "lastEndAt", "lastDelayMs", "blockedUntil", "holder", "heldUntil")
      VALUES ('dead-holder.example:80', (clock_timestamp() AT TIME ZONE 'UTC'), 200, (clock_timestamp() AT TIME ZONE 'UTC'), 'killed#0', (clock_timestamp() AT TIME ZONE 'UTC') + interval '600 milliseconds')`;
    const killedAt = performance.now();
    const a = clock(t.db, { holderId: "a" });
    const release = await a.acquire(url, { delayMs: 0 });
    // 600 ms of lease, then the dead holder's 200 ms delay.
    expect(performance.now() - killedAt).toBeGreaterThanOrEqual(790);
    release();
    const row = await t.db.hostClock.findUniqueOrThrow({ where: { host: "dead-holder.example:80" } });
    expect(row.holder).toMatch(/^a#/);
  });

  it("takes a host over from a holder process killed with SIGKILL once its lease lapses, then the delay", { timeout: 60_000 }, async () => {
    const url = "http://killed-process.example/";
    const holder = startNodeProcess(["--import", "tsx", "test/helpers/host-clock-holder.ts"], {
      DATABASE_URL: t.config.databaseUrl, HOLD_URL: url, HOLD_DELAY_MS: "300", HOLD_LEASE_MS: "1500",
    });
    workers.push(holder);
    await pollUntil("the holder process holds the host", () => holder.output(), (out) => out.includes("held"), { timeoutMs: 45_000, pollMs: 20 });
    await kill9(holder);
    // Read before the lease's remainder is asked: the database measures it later, so the wait counted from here is never short.
    const killedAt = performance.now();
    const [lease] = await t.db.$queryRaw<Array<{ leftMs: number }>>`
      SELECT (EXTRACT(EPOCH FROM "heldUntil" - (clock_timestamp() AT TIME ZONE 'UTC')) * 1000)::float8 AS "leftMs" FROM "HostClock" WHERE "host" = 'killed-process.example:80'`;
    const a = clock(t.db, { holderId: "a" });
    (await a.acquire(url, { delayMs: 0 }))();
    // The rest of the dead holder's lease, then its 300 ms delay.
    expect(lease!.leftMs).toBeGreaterThan(0);
    expect(performance.now() - killedAt).toBeGreaterThanOrEqual(lease!.leftMs + 300 - 2);
  });

  it("holds every clock of the database for a Retry-After, and for the larger of two crawls' delays", { timeout: 20_000 }, async () => {
    const other = await t.openClient();
    const a = clock(t.db, { holderId: "a" });
    const b = clock(other, { holderId: "b" });
    const url = "http://retry.example/";
    const release = await a.acquire(url, { delayMs: 0 });
    a.blockHostFor(url, 700);
    release();
    const blockedAt = performance.now();
    await b.acquire(url, { delayMs: 0 }).then((r) => r());
    expect(performance.now() - blockedAt).toBeGreaterThanOrEqual(690);
    // A crawl with a 400 ms delay, then one with 0 ms on another worker: 400 ms apart.
    const slow = await a.acquire(url, { delayMs: 400 });
    slow();
    const slowEnd = performance.now();
    await b.acquire(url, { delayMs: 0 }).then((r) => r());
    expect(performance.now() - slowEnd).toBeGreaterThanOrEqual(395);
  });

  it("lets an aborted waiter go at once, wherever it stands in the queue, and serves the rest", async () => {
    const q = clock(t.db, { holderId: "q" });
    const url = "http://abort.example/";
    const release = await q.acquire(url, { delayMs: 0 });
    const head = new AbortController();
    const behind = new AbortController();
    const first = q.acquire(url, { delayMs: 0, signal: head.signal, owner: "crawl 1" });
    const second = q.acquire(url, { delayMs: 0, signal: behind.signal, owner: "crawl 2" });
    const third = q.acquire(url, { delayMs: 0, owner: "crawl 3" });
    expect(q.waitingFor()).toMatchObject([{ host: "abort.example:80", waiters: 3, owners: ["crawl 1", "crawl 2", "crawl 3"] }]);
    behind.abort();
    head.abort();
    await expect(second).rejects.toThrow(/Aborted/);
    await expect(first).rejects.toThrow(/Aborted/);
    release();
    (await third)();
    expect(q.waitingFor()).toEqual([]);
  });

  it("sends no statement per request while it holds the host, and gives the host back on close", async () => {
    // Counted, not timed (a timed test fails on a loaded machine): every statement the clock
    // sends to PostgreSQL goes through this client.
    let statements = 0;
    const counting = t.db.$extends({
      query: {
        async $allOperations({ args, query }) {
          statements += 1;
          return query(args);
        },
      },
    }) as unknown as Db;
    const m = clock(counting, { holderId: "m", wantCheckMs: 60_000 });
    const url = "http://cost.example/";
    (await m.acquire(url, { delayMs: 0 }))(); // takes the lease: one statement
    expect(statements).toBe(1);
    for (let i = 0; i < 200; i++) (await m.acquire(url, { delayMs: 0 }))();
    expect(statements).toBe(1);
    await m.close();
    const row = await t.db.hostClock.findUniqueOrThrow({ where: { host: "cost.example:80" } });
    expect(row.holder).toBeNull();
    expect(statements).toBe(2);
  });

  it("releases a host its process no longer uses at the next renewal, with the clock of its last request", { timeout: 20_000 }, async () => {
    const idle = clock(t.db, { holderId: "idle", leaseMs: 900 });
    const url = "http://idle-release.example/";
    (await idle.acquire(url, { delayMs: 500 }))();
    const row = await pollUntil("the host released", () => t.db.hostClock.findUniqueOrThrow({ where: { host: "idle-release.example:80" } }), (r) => r.holder === null, { timeoutMs: 10_000, pollMs: 20 });
    expect(row.lastDelayMs).toBe(500);
    expect(idle.waitingFor()).toEqual([]);
  });
});
