/**
 * Many crawls in one worker: what a crawl costs when a worker holds hundreds of them at once.
 *
 *   npm run bench:many -- [--crawls 64,200] [--requests 150] [--delay-ms 500] [--site-processes 2]
 *                         [--database-url postgresql://…/scratch] [--cpu-prof DIR] [--skip-waiting | --skip-run]
 *
 * For each N: N simulated sites (statistics office, tiny, seeds 1..N, one port each, served by
 * a few other processes so their CPU is not the worker's), a fresh database (SQLite in a temp
 * folder unless --database-url names a scratch PostgreSQL database, which is wiped), and ONE
 * `forage worker --concurrency N` process, measured from the outside (/proc):
 *  - waiting: N crawls whose politeness delay (10 s) holds them after their first pages; the
 *    worker's RSS once all of them have fetched it, minus the idle worker's, ÷ N;
 *  - run: N crawls of `--requests` requests at `--delay-ms`; wall time until the last finished,
 *    requests, the worker's CPU (user + system) per request, peak RSS (VmHWM).
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import type { Db } from "../../lib/store/prisma-client";
import { PROJECT_ROOT } from "../../lib/store/migrations";
import { procStats, scratchDatabase, waitReady, type ProcStats, type Scratch } from "./bench-process";

const BIN = path.join(PROJECT_ROOT, "bin/forage.mjs");
const SELF = path.join(PROJECT_ROOT, "test/bench/many-crawls.ts");
const PORT_BASE = 41_000;
/** robots.txt, this long, the root page, this long, a HEAD typing its first link, this long again: the RSS is read in the third wait. */
const WAITING_DELAY_MS = 10_000;

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Child mode: serves sites `first..first+count-1` on PORT_BASE + index until killed. */
async function serveSites(first: number, count: number): Promise<void> {
  const running: RunningSite[] = [];
  for (let index = first; index < first + count; index++) {
    const site = buildSite({ shape: "statistics-office", seed: index + 1, size: "tiny" });
    running.push(await startSiteServer(site, { port: PORT_BASE + index }));
  }
  process.stdout.write(`ready ${running.length}\n`);
  process.once("SIGTERM", () => process.exit(0));
  // The bench died without stopping its sites: they go too (their ports and its output pipe).
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && process.exit(0), 1_000).unref();
}

/** Starts `count` sites spread over `processes` child processes; resolves when all listen. */
async function startSites(count: number, processes: number): Promise<ChildProcess[]> {
  const children: ChildProcess[] = [];
  const per = Math.ceil(count / processes);
  const ready: Promise<void>[] = [];
  for (let first = 0; first < count; first += per) {
    const child = spawn(process.execPath, ["--import", "tsx", SELF, "--serve-sites", String(first), String(Math.min(per, count - first))], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    children.push(child);
    ready.push(
      new Promise((resolve, reject) => {
        child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
        child.once("exit", (code) => reject(new Error(`site process exited (${code})`)));
      }),
    );
  }
  try {
    await Promise.all(ready);
  } catch (error) {
    for (const child of children) child.kill("SIGTERM");
    throw error;
  }
  return children;
}

async function queueCrawls(db: Db, count: number, requests: number, delayMs: number): Promise<void> {
  for (let index = 0; index < count; index++) {
    const config = parseCrawlConfig({
      rootUrl: `http://127.0.0.1:${PORT_BASE + index}/`,
      strategy: "sb",
      seed: index + 1,
      budget: { requests },
      politeness: { delayMs },
      archive: { keepWarc: false },
    });
    await insertCrawl(db, config);
  }
}

function startWorker(scratch: Scratch, concurrency: number, nodeFlags: string[]): ChildProcess {
  const child = spawn(process.execPath, [...nodeFlags, BIN, "worker", "--concurrency", String(concurrency)], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...scratch.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr!.on("data", (chunk: Buffer) => process.stderr.write(`[worker] ${chunk}`));
  return child;
}

async function stopWorker(worker: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.once("exit", resolve));
  worker.kill(signal);
  await exited;
}

/** RSS of a waiting crawl: N crawls held by their 10 s politeness delay after their first page. */
async function measureWaiting(count: number, databaseUrl: string | undefined): Promise<{ idleRss: number; waitingRss: number }> {
  const scratch = await scratchDatabase(databaseUrl, "forage-many-");
  const worker = startWorker(scratch, count, []);
  try {
    await waitReady(worker);
    await sleep(2_000);
    const idleRss = procStats(worker.pid!).rssBytes;
    await queueCrawls(scratch.db, count, 1_000, WAITING_DELAY_MS);
    const deadline = Date.now() + 4 * WAITING_DELAY_MS;
    // The root page read, its first link typed (a HEAD): the crawl holds its links and waits.
    const waitingCrawls = async () => (await scratch.db.crawlRequest.groupBy({ by: ["crawlId"], where: { seq: { gte: 2 } } })).length;
    while ((await waitingCrawls()) < count) {
      if (Date.now() > deadline) {
        const states = await scratch.db.crawl.groupBy({ by: ["status", "stopDetail"], _count: true });
        console.error(JSON.stringify(states));
        throw new Error(`the waiting crawls did not all fetch their root page and first link within ${(4 * WAITING_DELAY_MS) / 1000} s`);
      }
      await sleep(250);
    }
    await sleep(1_000); // the flushes settle; the next request is WAITING_DELAY_MS away
    return { idleRss, waitingRss: procStats(worker.pid!).rssBytes };
  } finally {
    await stopWorker(worker, "SIGKILL");
    await scratch.dispose();
  }
}

interface RunResult {
  wallMs: number;
  requests: number;
  finished: number;
  cpuMs: number;
  peakRssBytes: number;
}

async function measureRun(count: number, requests: number, delayMs: number, databaseUrl: string | undefined, cpuProfDir: string | undefined): Promise<RunResult> {
  const scratch = await scratchDatabase(databaseUrl, "forage-many-");
  const flags = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfDir)}`] : [];
  const worker = startWorker(scratch, count, flags);
  let last: ProcStats | null = null;
  try {
    // Measured from the ready worker on: its start (compiling the TypeScript, migrations) is not a crawl's cost.
    await waitReady(worker);
    const before = procStats(worker.pid!);
    const started = performance.now();
    await queueCrawls(scratch.db, count, requests, delayMs);
    const over = ["finished", "failed", "cancelled"];
    for (;;) {
      await sleep(500);
      last = procStats(worker.pid!);
      const done = await scratch.db.crawl.count({ where: { status: { in: over } } });
      if (done === count) break;
      if (worker.exitCode !== null) throw new Error(`worker exited (${worker.exitCode})`);
      if (performance.now() - started > 300_000) throw new Error("the crawls did not finish within 5 minutes");
    }
    const wallMs = performance.now() - started;
    const stats = procStats(worker.pid!);
    stats.cpuMs -= before.cpuMs;
    const sum = await scratch.db.crawl.aggregate({ _sum: { requestsCount: true } });
    const finished = await scratch.db.crawl.count({ where: { status: "finished" } });
    return { wallMs, requests: sum._sum.requestsCount ?? 0, finished, cpuMs: stats.cpuMs, peakRssBytes: stats.peakRssBytes };
  } catch (error) {
    console.error(`last worker stats: ${JSON.stringify(last)}`);
    throw error;
  } finally {
    await stopWorker(worker, "SIGTERM");
    await scratch.dispose();
  }
}

async function main(): Promise<void> {
  const counts = (option("crawls") ?? "64,200").split(",").map(Number);
  const requests = Number(option("requests") ?? 150);
  const delayMs = Number(option("delay-ms") ?? 500);
  const siteProcesses = Number(option("site-processes") ?? 2);
  const databaseUrl = option("database-url");
  const cpuProfDir = option("cpu-prof");
  const skipWaiting = process.argv.includes("--skip-waiting");
  const skipRun = process.argv.includes("--skip-run");
  const sites = await startSites(Math.max(...counts), siteProcesses);
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  const rows: string[] = [];
  try {
    for (const count of counts) {
      const waiting = skipWaiting ? null : await measureWaiting(count, databaseUrl);
      const run = skipRun ? null : await measureRun(count, requests, delayMs, databaseUrl, cpuProfDir);
      const perWaiting = waiting ? ((waiting.waitingRss - waiting.idleRss) / count / 2 ** 20).toFixed(2) : "–";
      rows.push(
        (run
          ? `| ${count} | ${run.finished}/${count} | ${(run.wallMs / 1000).toFixed(1)} | ${run.requests} | ${(run.cpuMs / Math.max(1, run.requests)).toFixed(2)} | ${mb(run.peakRssBytes)} | `
          : `| ${count} | – | – | – | – | – | `) +
          `${waiting ? mb(waiting.idleRss) : "–"} | ${waiting ? mb(waiting.waitingRss) : "–"} | ${perWaiting} |`,
      );
      console.error(rows.at(-1));
    }
  } finally {
    for (const site of sites) site.kill("SIGTERM");
  }
  console.log(`\n${databaseUrl ? "PostgreSQL" : "SQLite"}, ${requests} requests a crawl at ${delayMs} ms politeness, statistics office (tiny), one worker\n`);
  console.log("| crawls | finished | wall s | requests | worker CPU ms/request | peak RSS MB | idle RSS MB | RSS with N waiting MB | MB per waiting crawl |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
}

if (process.argv[2] === "--serve-sites") void serveSites(Number(process.argv[3]), Number(process.argv[4]));
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
