import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { buildSite, type SimulatedSite } from "../../lib/sitesim";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { kill9, startNodeProcess, type ManagedProcess } from "../helpers/processes";
import { createTestDatabase, testBackend, type TestDatabase } from "../helpers/test-database";
import { pollUntil } from "../helpers/poll-until";
import { listenOnFreePort } from "../helpers/ports";

/**
 * What a kill -9 costs the site: the simulated site is served by a counting server in this
 * process, which tells the worker's requests from the reference crawl's by their User-Agent
 * (the only setting in which the two crawls differ; the simulator ignores it).
 */
const REFERENCE_AGENT = "forage-reference-crawl";

interface CountingSite {
  origin: string;
  /** "METHOD /path" → times the worker's requests were served. */
  workerServed: Map<string, number>;
  /** When each of the worker's requests was served (ms). */
  workerTimes: number[];
  close(): Promise<void>;
}

async function startCountingSite(site: SimulatedSite): Promise<CountingSite> {
  const workerServed = new Map<string, number>();
  const workerTimes: number[] = [];
  let host = "127.0.0.1";
  const server = http.createServer((req, res) => {
    const method = req.method === "HEAD" ? "HEAD" : "GET";
    const key = `${method} ${req.url ?? "/"}`;
    if (req.headers["user-agent"] !== REFERENCE_AGENT) {
      workerServed.set(key, (workerServed.get(key) ?? 0) + 1);
      workerTimes.push(performance.now());
    }
    const out = site.respond(method, req.url ?? "/", { host: req.headers.host ?? host });
    res.writeHead(out.status, out.headers);
    res.end(method === "HEAD" ? undefined : out.body);
  });
  server.keepAliveTimeout = 5_000;
  await listenOnFreePort(server);
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin: `http://${host}`,
    workerServed,
    workerTimes,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let t: TestDatabase;
let site: CountingSite;
const workers: ManagedProcess[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startCountingSite(buildSite({ shape: "statistics-office", seed: 7, size: "medium" }));
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop(2_000)));
  await site?.close();
  await t?.dispose();
});

const BUDGET = 5_500;
const LEASE_MS = 1_500;
/**
 * How much crawling past a fresh checkpoint each kill lands after: more than the 1 s the recovery
 * may repeat. Measured on the site's clock between the worker's requests, so a worker that stalls
 * meanwhile (a loaded machine) is waited for instead of killed early.
 */
const KILL_AFTER_CHECKPOINT_MS = 1_500;

const settings = (userAgent: string | null) => ({
  rootUrl: `${site.origin}/`,
  budget: { requests: BUDGET },
  politeness: { delayMs: 0, userAgent },
  allowPrivateNetwork: true,
  seed: 11,
});

function startWorker(): ManagedProcess {
  const worker = startNodeProcess(["bin/forage.mjs", "worker", "--concurrency", "1"], {
    DATABASE_URL: t.config.databaseUrl,
    FORAGE_DATA_DIR: t.config.dataDir,
    FORAGE_WORKER_LEASE_MS: String(LEASE_MS),
  });
  workers.push(worker);
  return worker;
}

/** Fails after 40 s in which the site served the worker nothing: a loaded machine is waited for, a stuck worker is not. */
const waitFor = <T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, worker?: ManagedProcess, timeoutMs = 40_000) =>
  pollUntil(what, read, accept, { timeoutMs, pollMs: 20, context: () => worker?.output() ?? "", progress: () => site.workerTimes.length });

const crawlRow = (id: number) => () => t.db.crawl.findUniqueOrThrow({ where: { id } });
const checkpointOf = (id: number) => () => t.db.crawlCheckpoint.findUnique({ where: { crawlId: id }, select: { requests: true } });

/** Counted requests as "seq METHOD path", in seq order. */
async function requestSequence(crawlId: number): Promise<string[]> {
  const rows = await t.db.crawlRequest.findMany({ where: { crawlId, seq: { gt: 0 } }, orderBy: [{ seq: "asc" }, { id: "asc" }], select: { seq: true, method: true, url: true, status: true } });
  return rows.map((row) => `${row.seq} ${row.method} ${new URL(row.url).pathname}${new URL(row.url).search} ${row.status}`);
}

async function targetSet(crawlId: number): Promise<string[]> {
  const rows = await t.db.target.findMany({ where: { crawlId }, select: { url: true, sha256: true, requestSeq: true } });
  return rows.map((row) => `${row.requestSeq} ${row.url} ${row.sha256}`).sort();
}

/** "METHOD /path" → how often an uninterrupted crawl asks the site for it (counted requests and robots.txt fetches; other hosts are not the site). */
async function requestsOfCrawl(crawlId: number): Promise<Map<string, number>> {
  const rows = await t.db.crawlRequest.findMany({ where: { crawlId, url: { startsWith: `${site.origin}/` }, OR: [{ seq: { gt: 0 } }, { kind: "robots" }] }, select: { method: true, url: true } });
  const counts = new Map<string, number>();
  for (const row of rows) {
    const url = new URL(row.url);
    const key = `${row.method} ${url.pathname}${url.search}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Requests the site served more often than the uninterrupted crawl needs them. */
function repeatsIn(served: ReadonlyMap<string, number>, needed: ReadonlyMap<string, number>): number {
  let repeats = 0;
  for (const [key, count] of served) repeats += Math.max(0, count - (needed.get(key) ?? 0));
  return repeats;
}

// FORAGE_TEST_DB=postgres runs this file on PostgreSQL.
describe(`recovery after kill -9: what the site serves again (real processes, ${testBackend() === "postgres" ? "PostgreSQL" : "SQLite"}, HTTP)`, () => {
  it("repeats at most about one second of crawling per kill, and still makes the uninterrupted crawl's requests and targets", async () => {
    const { id } = await createCrawl(t.db, settings(null), { asLocalAdmin: true });
    const referenceId = await insertCrawl(t.db, parseCrawlConfig(settings(REFERENCE_AGENT)), { heldBy: { holderId: "test-reference", leaseMs: 600_000 } });
    const reference = runStoredCrawl({ db: t.db, forage: t.config, crawlId: referenceId, politeness: new HostPoliteness(), signal: new AbortController().signal });

    /** The worker's served requests at each kill, and where each run of it began and ended in `workerTimes`. */
    const servedAtKill: Map<string, number>[] = [];
    const segments: { from: number; to: number }[] = [];
    let segmentStart = 0;
    const cuts: { requestsAtCut: number; checkpointAt: number | null }[] = [];
    const killAfterFreshCheckpoint = async (worker: ManagedProcess, minRequests: number) => {
      await waitFor("crawling", crawlRow(id), (row) => row.status === "running" && row.requestsCount >= minRequests, worker);
      const before = (await checkpointOf(id)())?.requests ?? -1;
      const fresh = await waitFor("a fresh checkpoint", checkpointOf(id), (row) => row !== null && row.requests !== before, worker);
      const servedAtCheckpoint = site.workerTimes.length;
      await waitFor(
        `${KILL_AFTER_CHECKPOINT_MS} ms of crawling past the checkpoint`,
        async () => {
          const times = site.workerTimes;
          return { served: times.length - servedAtCheckpoint, spanMs: times.length > servedAtCheckpoint ? times.at(-1)! - times[servedAtCheckpoint]! : 0 };
        },
        (past) => past.spanMs >= KILL_AFTER_CHECKPOINT_MS,
        worker,
      );
      await kill9(worker);
      servedAtKill.push(new Map(site.workerServed));
      segments.push({ from: segmentStart, to: site.workerTimes.length });
      segmentStart = site.workerTimes.length;
      cuts.push({ requestsAtCut: (await crawlRow(id)()).requestsCount, checkpointAt: fresh!.requests });
    };

    let worker = startWorker();
    await killAfterFreshCheckpoint(worker, 100);
    worker = startWorker();
    await killAfterFreshCheckpoint(worker, cuts[0]!.requestsAtCut + 300);
    worker = startWorker();
    const done = await waitFor("finished and released", crawlRow(id), (row) => row.status === "finished" && row.workerId === null, worker);
    segments.push({ from: segmentStart, to: site.workerTimes.length });
    await worker.stop(10_000);
    await reference;

    // The live request rate of the worker: requests served per second while it ran (the lease waits excluded).
    let served = 0;
    let seconds = 0;
    for (const { from, to } of segments) {
      if (to - from < 2) continue;
      served += to - from;
      seconds += (site.workerTimes[to - 1]! - site.workerTimes[from]!) / 1000;
    }
    const ratePerSecond = served / seconds;
    const needed = await requestsOfCrawl(referenceId);
    const repeatedUpTo = [...servedAtKill.slice(1), site.workerServed].map((snapshot) => repeatsIn(snapshot, needed));
    const repeatsPerKill = [repeatedUpTo[0]!, repeatedUpTo[1]! - repeatedUpTo[0]!];
    const events = await t.db.crawlEvent.findMany({ where: { crawlId: id, kind: { in: ["resumed-from-checkpoint", "recovered-from-log"] } }, select: { message: true } });
    console.log(
      `recovery: ${JSON.stringify({ cuts, repeatsPerKill, ratePerSecond: Math.round(ratePerSecond), servedToWorker: site.workerTimes.length, budget: BUDGET })}\n` +
        events.map((event) => event.message).join("\n"),
    );

    // Same seed, same site: the interrupted crawl made the uninterrupted one's requests and found its targets.
    expect(done).toMatchObject({ stopReason: "budget-requests", requestsCount: BUDGET });
    const sequence = await requestSequence(id);
    expect(sequence.map((line) => Number(line.split(" ")[0]))).toEqual(Array.from({ length: BUDGET }, (_, i) => i + 1));
    expect(sequence).toEqual(await requestSequence(referenceId));
    expect(await targetSet(id)).toEqual(await targetSet(referenceId));
    const targets = await t.db.target.findMany({ where: { crawlId: id } });
    expect(targets.length).toBeGreaterThan(50);
    for (const target of targets) {
      const body = fs.readFileSync(path.join(t.config.dataDir, target.storagePath));
      expect(createHash("sha256").update(body).digest("hex")).toBe(target.sha256);
    }
    const files = fs.readdirSync(path.join(t.config.dataDir, "crawls", String(id), "files"));
    expect(files.sort()).toEqual([...new Set(targets.map((target) => target.sha256))].sort());

    // Each kill came mid-crawl, 1.5 s after a checkpoint: the rollback removed that much crawling, yet the
    // site serves again at most what one second of crawling makes.
    for (const [i, cut] of cuts.entries()) {
      expect(cut.requestsAtCut).toBeLessThan(BUDGET);
      expect(repeatsPerKill[i]!).toBeLessThan((cut.requestsAtCut - cut.checkpointAt!) / 2);
      expect(repeatsPerKill[i]!).toBeLessThanOrEqual(Math.ceil(ratePerSecond));
    }
  }, 600_000);
});
