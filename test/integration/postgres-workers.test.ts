import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { startNodeProcess, type ManagedProcess } from "../helpers/processes";
import { createTestDatabase, describePostgres, type TestDatabase } from "../helpers/test-database";
import { pollUntil } from "../helpers/poll-until";

// Scale-out end to end: real `forage worker` processes sharing one PostgreSQL database and one
// queue, crawling a simulated site over real HTTP.
//
// "No crawl ran twice" is checked three ways, each of which a second run would break:
//  1. lease history: the test samples every crawl's `workerId` every 20 ms while the workers
//     run; each crawl is seen held by exactly one worker, never handed over;
//  2. the crawl log: exactly one "started" event per crawl (every run writes one);
//  3. the request log: each crawl's counted request rows are seq 1…N without a duplicate, N its
//     request count, and the site server received exactly as many HTTP requests as the crawls
//     recorded (a run whose rows were lost would still have hit the server).

const CRAWLS = 6;
const BUDGET = 100;

let t: TestDatabase;
let site: RunningSite;
const workers: ManagedProcess[] = [];

beforeAll(async () => {
  if (!inject("postgres").available) return; // describePostgres skips or fails the tests with the reason
  t = await createTestDatabase({ backend: "postgres" });
  site = await startSiteServer(buildSite({ shape: "statistics-office", seed: 3, size: "small" }));
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await site?.close();
  await t?.dispose();
});

function startWorker(name: string, env: Record<string, string> = {}): ManagedProcess {
  const worker = startNodeProcess(["bin/forage.mjs", "worker", "--concurrency", "2"], {
    DATABASE_URL: t.config.databaseUrl,
    FORAGE_DATA_DIR: t.dir,
    FORAGE_WORKER_ID: name,
    ...env,
  });
  workers.push(worker);
  return worker;
}

const waitFor = <T>(what: string, read: () => Promise<T> | T, accept: (value: T) => boolean, timeoutMs: number, logs: () => string) =>
  pollUntil(what, read, accept, { timeoutMs, pollMs: 20, context: logs });

/** Samples each crawl's lease holder until `done`; returns every holder seen per crawl, in order. */
function recordHolders(ids: number[]) {
  const holders = new Map<number, string[]>(ids.map((id) => [id, []]));
  let stopped = false;
  const sampling = (async () => {
    while (!stopped) {
      for (const row of await t.db.crawl.findMany({ where: { id: { in: ids } }, select: { id: true, workerId: true } })) {
        const seen = holders.get(row.id)!;
        if (row.workerId && seen.at(-1) !== row.workerId) seen.push(row.workerId);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return {
    holders,
    async stop() {
      stopped = true;
      await sampling;
    },
  };
}

describePostgres("two crawl workers on one PostgreSQL database", () => {
  it("share a queue of crawls: each crawl runs once, on one worker, to its budget", async () => {
    const a = startWorker("worker-a");
    const b = startWorker("worker-b");
    const logs = () => `--- worker-a\n${a.output()}\n--- worker-b\n${b.output()}`;
    // Both ready before anything is queued, so both compete for the queue from the start.
    await waitFor("both workers ready", () => a.output().includes("ready") && b.output().includes("ready"), Boolean, 60_000, logs);

    const ids: number[] = [];
    for (let seed = 1; seed <= CRAWLS; seed++) {
      const { id } = await createCrawl(t.db, { rootUrl: site.rootUrl, budget: { requests: BUDGET }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed }, { asLocalAdmin: true });
      ids.push(id);
    }
    const sampler = recordHolders(ids);
    const finished = await waitFor(
      "every crawl over and released",
      () => t.db.crawl.findMany({ where: { id: { in: ids } }, orderBy: { id: "asc" } }),
      // The status is final when the run ends; the lease is released right after.
      (rows) => rows.every((row) => ["finished", "failed", "cancelled"].includes(row.status) && row.workerId === null),
      90_000,
      logs,
    );
    await sampler.stop();

    for (const row of finished) {
      expect(row, `crawl ${row.id}`).toMatchObject({ status: "finished", stopReason: "budget-requests", requestsCount: BUDGET, workerId: null });
    }
    // 1. One holder per crawl, and both workers took part.
    for (const [id, seen] of sampler.holders) expect(seen, `holders of crawl ${id}`).toHaveLength(1);
    const perWorker = new Map<string, number>();
    for (const [, [holder]] of sampler.holders) perWorker.set(holder!, (perWorker.get(holder!) ?? 0) + 1);
    expect([...perWorker.keys()].sort()).toEqual(["worker-a", "worker-b"]);
    // 2. One run each.
    const started = await t.db.crawlEvent.groupBy({ by: ["crawlId"], where: { crawlId: { in: ids }, kind: "started" }, _count: { _all: true } });
    expect(started.map((group) => [group.crawlId, group._count._all])).toEqual(ids.map((id) => [id, 1]));
    // 3. Request logs without a repeated request, matching what the site served.
    for (const id of ids) {
      const seqs = (await t.db.crawlRequest.findMany({ where: { crawlId: id, seq: { gt: 0 } }, select: { seq: true }, orderBy: { seq: "asc" } })).map((row) => row.seq);
      expect(seqs, `request seqs of crawl ${id}`).toEqual(Array.from({ length: BUDGET }, (_, i) => i + 1));
    }
    // Rows the robots.txt rules stopped before any request are the only ones without an HTTP request
    // (the office's partner link redirects to another host, which has rows of its own).
    const fetched = await t.db.crawlRequest.count({ where: { crawlId: { in: ids }, outcome: { not: "robots-disallowed" }, url: { startsWith: `${site.origin}/` } } });
    expect(site.requestCount()).toBe(fetched);

    await Promise.all([a.stop(), b.stop()]);
    expect([a.child.exitCode, b.child.exitCode]).toEqual([0, 0]);
    const states = await t.db.worker.findMany({ where: { id: { in: ["worker-a", "worker-b"] } }, select: { state: true } });
    expect(states.map((row) => row.state)).toEqual(["stopped", "stopped"]);
  });

  // A killed worker's crawl resumes elsewhere from its checkpoint once the lease expires.
  it("hands a killed worker's crawl to the other worker, which resumes it from its checkpoint", async () => {
    const leaseEnv = { FORAGE_WORKER_LEASE_MS: "2000" };
    const a = startWorker("worker-a2", leaseEnv);
    const logs = () => `--- worker-a2\n${a.output()}\n--- worker-b2\n${workers.at(-1)?.output() ?? ""}`;
    await waitFor("worker-a2 ready", () => a.output().includes("ready"), Boolean, 60_000, logs);
    const budget = 300;
    const { id } = await createCrawl(t.db, { rootUrl: site.rootUrl, budget: { requests: budget }, politeness: { delayMs: 15 }, allowPrivateNetwork: true, seed: 9 }, { asLocalAdmin: true });
    const sampler = recordHolders([id]);
    await waitFor(
      "a checkpoint of worker-a2's run",
      () => t.db.crawlCheckpoint.findUnique({ where: { crawlId: id }, select: { requests: true } }),
      (checkpoint) => (checkpoint?.requests ?? 0) > 20,
      30_000,
      logs,
    );
    a.child.kill("SIGKILL"); // no drain, no release: only the lease's expiry tells
    await new Promise((resolve) => a.child.once("exit", resolve));

    startWorker("worker-b2", leaseEnv);
    const done = await waitFor("finished by worker-b2", () => t.db.crawl.findUniqueOrThrow({ where: { id } }), (row) => !["queued", "running", "paused"].includes(row.status) && row.workerId === null, 60_000, logs);
    await sampler.stop();
    expect(done).toMatchObject({ status: "finished", stopReason: "budget-requests", requestsCount: budget, workerId: null });
    expect(sampler.holders.get(id)).toEqual(["worker-a2", "worker-b2"]);
    // Rolled back to the checkpoint and continued: every counted request once, none missing.
    const seqs = (await t.db.crawlRequest.findMany({ where: { crawlId: id, seq: { gt: 0 } }, select: { seq: true }, orderBy: { seq: "asc" } })).map((row) => row.seq);
    expect(seqs).toEqual(Array.from({ length: budget }, (_, i) => i + 1));
    const targets = await t.db.target.findMany({ where: { crawlId: id }, select: { url: true } });
    expect(new Set(targets.map((target) => target.url)).size).toBe(targets.length);
    expect(done.targetsCount).toBe(targets.length);
  });
});
