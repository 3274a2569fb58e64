/**
 * Scale-out on PostgreSQL: throughput of one against two `forage worker` processes on many small
 * sites, and what the shared politeness clock costs per request.
 *
 *   node --import tsx test/bench/scale-out.ts [--sites 40] [--budget 40] [--delay 50] [--concurrency 8] [--clock-requests 400]
 *
 * Needs the test PostgreSQL server (test/helpers/postgres.ts). Each round gets a fresh database
 * cloned from the migrated template and a fresh data folder; the sites (lib/sitesim, "tiny", one
 * shape and seed each) run in this process on 127.0.0.1, one host each. A round queues one crawl
 * per site, starts its workers (each `--concurrency` crawls at once), and times from the first
 * crawl's creation to the last one's end. The clock part times acquire + release of one host
 * with no delay, so only the clock's own cost is left: in-process against the `HostClock` row.
 * Numbers depend on the machine's load: it is shared, read them as orders of magnitude.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../lib/config";
import { InProcessHostPoliteness, type HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { buildSite, SITE_SHAPES, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { openDatabase, type Db } from "../../lib/store";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { PostgresHostClock } from "../../lib/store/host-clock-postgres";
import { createPostgresDatabase, preparePostgres } from "../helpers/postgres";
import { startNodeProcess, type ManagedProcess } from "../helpers/processes";

function arg(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? Number(process.argv[index + 1]) : fallback;
}

const SITES = arg("sites", 40);
const BUDGET = arg("budget", 40);
const DELAY_MS = arg("delay", 50);
const CONCURRENCY = arg("concurrency", 8);
const CLOCK_REQUESTS = arg("clock-requests", 400);

interface Round {
  workers: number;
  crawls: number;
  requests: number;
  seconds: number;
}

async function waitForOutput(worker: ManagedProcess, text: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!worker.output().includes(text)) {
    if (worker.child.exitCode !== null || Date.now() > deadline) throw new Error(`worker did not start:\n${worker.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function round(status: Extract<Awaited<ReturnType<typeof preparePostgres>>, { available: true }>, sites: RunningSite[], workerCount: number): Promise<Round> {
  const database = await createPostgresDatabase(status);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-bench-scale-"));
  const config = loadConfig({ DATABASE_URL: database.url, FORAGE_DATA_DIR: dataDir });
  const db = await openDatabase(config);
  const workers: ManagedProcess[] = [];
  try {
    for (let i = 0; i < workerCount; i++) {
      const worker = startNodeProcess(["bin/forage.mjs", "worker", "--concurrency", String(CONCURRENCY)], {
        DATABASE_URL: database.url,
        FORAGE_DATA_DIR: path.join(dataDir, `worker-${i + 1}`),
        FORAGE_WORKER_ID: `bench-${i + 1}`,
        FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32",
        FORAGE_STORAGE_URL: "",
      });
      workers.push(worker);
    }
    await Promise.all(workers.map((worker) => waitForOutput(worker, "ready")));
    const started = performance.now();
    const ids: number[] = [];
    for (const site of sites) {
      const { id } = await createCrawl(db, { rootUrl: site.rootUrl, budget: { requests: BUDGET }, politeness: { delayMs: DELAY_MS }, allowPrivateNetwork: true, seed: 1 }, { asLocalAdmin: true });
      ids.push(id);
    }
    for (;;) {
      const open = await db.crawl.count({ where: { id: { in: ids }, status: { in: ["queued", "running"] } } });
      if (open === 0) break;
      if (performance.now() - started > 600_000) throw new Error("round took over 10 minutes");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const seconds = (performance.now() - started) / 1000;
    const requests = (await db.crawl.aggregate({ where: { id: { in: ids } }, _sum: { requestsCount: true } }))._sum.requestsCount ?? 0;
    return { workers: workerCount, crawls: ids.length, requests, seconds };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop(10_000)));
    await db.$disconnect();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Mean µs of acquire + release on one host with no delay: the clock's own cost per request. */
async function clockCost(clock: HostPoliteness, requests: number): Promise<number> {
  const url = "http://bench.example:8080/";
  for (let i = 0; i < 20; i++) (await clock.acquire(url, { delayMs: 0 }))();
  const started = performance.now();
  for (let i = 0; i < requests; i++) (await clock.acquire(url, { delayMs: 0 }))();
  const microseconds = ((performance.now() - started) * 1000) / requests;
  // Queued behind the last release's write: the database is dropped only after it.
  (await clock.acquire(url, { delayMs: 0 }))();
  await new Promise((resolve) => setTimeout(resolve, 200));
  return microseconds;
}

async function clockRound(status: Extract<Awaited<ReturnType<typeof preparePostgres>>, { available: true }>): Promise<{ inProcess: number; postgres: number }> {
  const database = await createPostgresDatabase(status);
  const db: Db = await openDatabase(loadConfig({ DATABASE_URL: database.url }));
  try {
    const inProcess = await clockCost(new InProcessHostPoliteness(), CLOCK_REQUESTS);
    const postgres = await clockCost(new PostgresHostClock(db, { holderId: "bench" }), CLOCK_REQUESTS);
    return { inProcess, postgres };
  } finally {
    await db.$disconnect();
    await database.drop();
  }
}

const status = await preparePostgres();
if (!status.available) throw new Error(status.reason);
const shapes = Object.keys(SITE_SHAPES) as Array<keyof typeof SITE_SHAPES>;
const sites = await Promise.all(Array.from({ length: SITES }, (_, i) => startSiteServer(buildSite({ shape: shapes[i % shapes.length]!, seed: i + 1, size: "tiny" }))));
try {
  const rounds = [await round(status, sites, 1), await round(status, sites, 2)];
  console.log(`\n${SITES} tiny sites, ${BUDGET} requests each, delay ${DELAY_MS} ms, ${CONCURRENCY} crawls per worker, PostgreSQL, ${os.cpus().length} CPUs`);
  console.log("| workers | crawls | requests | seconds | requests/s | vs one worker |");
  console.log("|---:|---:|---:|---:|---:|---:|");
  for (const r of rounds) {
    const rate = r.requests / r.seconds;
    console.log(`| ${r.workers} | ${r.crawls} | ${r.requests} | ${r.seconds.toFixed(1)} | ${rate.toFixed(1)} | ${(rate / (rounds[0]!.requests / rounds[0]!.seconds)).toFixed(2)}× |`);
  }
  const clock = await clockRound(status);
  console.log(`\nPoliteness clock, acquire + release of one host without delay, ${CLOCK_REQUESTS} requests`);
  console.log("| clock | µs per request |");
  console.log("|---|---:|");
  console.log(`| in-process | ${clock.inProcess.toFixed(1)} |`);
  console.log(`| PostgreSQL HostClock | ${clock.postgres.toFixed(0)} |`);
} finally {
  await Promise.all(sites.map((site) => site.close()));
}
