/**
 * Many crawls in one worker: what a crawl costs when a worker holds hundreds of them at once.
 *
 *   npm run bench:many -- [--crawls 64,200] [--requests 150] [--delay-ms 500] [--site-processes 2]
 *                         [--database-url postgresql://…/scratch] [--cpu-prof DIR] [--skip-waiting | --skip-run] [--port-base 61000]
 *
 * For each N: N simulated sites (statistics office, tiny, seeds 1..N, one port each, served by
 * a few other processes so their CPU is not the worker's), a fresh database (SQLite in a temp
 * folder unless --database-url names a scratch PostgreSQL database, which is wiped), and ONE
 * `forage worker --concurrency N` process, measured from the outside (/proc):
 *  - waiting: N crawls whose politeness delay (10 s) holds them after their first pages; the
 *    worker's RSS once all of them have fetched it, minus the idle worker's, ÷ N;
 *  - run: N crawls of `--requests` requests at `--delay-ms`; wall time until the last finished,
 *    requests, the worker's CPU (user + system) per request, peak RSS (VmHWM), the most file
 *    descriptors it held, and the shortest gap any host saw between two requests (the sites
 *    time every request they answer: the politeness the hosts saw, not what the worker believes).
 *
 * Ports: PORT_BASE + index (61,000 … 62,999 for 2,000 crawls; `--port-base` moves them), checked
 * against the ephemeral range. File descriptors: a worker holds
 * about one keep-alive socket per host, a site process one listening socket per site plus its
 * connections; the bench refuses to start when `ulimit -n` is below what that needs (say how to
 * raise it) instead of failing halfway with EMFILE.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import type { Db } from "../../lib/store/prisma-client";
import { PROJECT_ROOT } from "../../lib/store/migrations";
import { procStats, scratchDatabase, waitReady, type ProcStats, type Scratch } from "./bench-process";

const BIN = path.join(PROJECT_ROOT, "bin/forage.mjs");
const SELF = path.join(PROJECT_ROOT, "test/bench/many-crawls.ts");
/**
 * The first site's port. Outside Linux's default ephemeral range (32768–60999): an outgoing
 * connection of any process on the machine may hold a port there, and a site asked to listen on
 * it fails with EADDRINUSE (seen at 41,500 with 2,000 connections open). 61,000 … 63,999 leaves room for 3,000 sites.
 */
const PORT_BASE = Number(option("port-base") ?? 61_000);
/** robots.txt, this long, the root page, this long, a HEAD typing its first link, this long again: the RSS is read in the third wait. */
const WAITING_DELAY_MS = 10_000;

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Child mode: serves sites `first..first+count-1` on PORT_BASE + index until killed. Each site
 * times the requests it answers; on a line `gaps` on stdin the child prints `gaps <ms>`, the
 * shortest time between two consecutive requests of any one site since the last `reset` line
 * (`-1`: no site had two).
 */
async function serveSites(first: number, count: number): Promise<void> {
  const running: RunningSite[] = [];
  const lastAt = new Float64Array(count).fill(-1);
  let minGapMs = Number.POSITIVE_INFINITY;
  for (let index = first; index < first + count; index++) {
    const site = buildSite({ shape: "statistics-office", seed: index + 1, size: "tiny" });
    const slot = index - first;
    const respond = site.respond.bind(site);
    site.respond = (method, pathAndQuery, headers) => {
      const now = performance.now();
      if (lastAt[slot]! >= 0) minGapMs = Math.min(minGapMs, now - lastAt[slot]!);
      lastAt[slot] = now;
      return respond(method, pathAndQuery, headers);
    };
    running.push(await startSiteServer(site, { port: PORT_BASE + index }));
  }
  let input = "";
  process.stdin.on("data", (chunk: Buffer) => {
    input += chunk.toString();
    for (let newline = input.indexOf("\n"); newline >= 0; newline = input.indexOf("\n")) {
      const line = input.slice(0, newline).trim();
      input = input.slice(newline + 1);
      if (line === "reset") {
        lastAt.fill(-1);
        minGapMs = Number.POSITIVE_INFINITY;
        process.stdout.write("reset done\n");
      } else if (line === "gaps") process.stdout.write(`gaps ${Number.isFinite(minGapMs) ? minGapMs.toFixed(1) : -1}\n`);
    }
  });
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
    const child = spawn(process.execPath, ["--import", "tsx", SELF, "--serve-sites", String(first), String(Math.min(per, count - first)), "--port-base", String(PORT_BASE)], {
      cwd: PROJECT_ROOT,
      stdio: ["pipe", "pipe", "inherit"],
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

/** Sends `command` to every site process and collects each one's answer line starting with `answer`. */
async function askSites(sites: ChildProcess[], command: string, answer: string): Promise<string[]> {
  return Promise.all(
    sites.map(
      (child) =>
        new Promise<string>((resolve) => {
          let text = "";
          const onData = (chunk: Buffer) => {
            text += chunk.toString();
            const line = text.split("\n").find((l) => l.startsWith(answer));
            if (line === undefined || !text.includes("\n", text.indexOf(answer))) return;
            child.stdout!.off("data", onData);
            resolve(line.slice(answer.length).trim());
          };
          child.stdout!.on("data", onData);
          child.stdin!.write(`${command}\n`);
        }),
    ),
  );
}

/** The shortest gap between two requests any site saw since the last reset (null: none had two). */
async function minimumGapMs(sites: ChildProcess[]): Promise<number | null> {
  const gaps = (await askSites(sites, "gaps", "gaps ")).map(Number).filter((gap) => gap >= 0);
  return gaps.length === 0 ? null : Math.min(...gaps);
}

/**
 * File descriptors the run needs: the worker's socket per host (plus its files, database and
 * pipes), a site process's listening socket and connection per site. Refused below that, with
 * the command that raises the limit, rather than EMFILE halfway.
 */
function checkDescriptorLimit(crawls: number, siteProcesses: number): void {
  const limitText = execFileSync("sh", ["-c", "ulimit -n"], { encoding: "utf8" }).trim();
  const limit = limitText === "unlimited" ? Number.POSITIVE_INFINITY : Number(limitText);
  const needed = Math.max(crawls + 256, 2 * Math.ceil(crawls / siteProcesses) + 256);
  if (limit < needed) {
    throw new Error(`${crawls} crawls need about ${needed} open files per process and \`ulimit -n\` is ${limitText}: run \`ulimit -n ${needed}\` (or raise the hard limit) first`);
  }
}

/** Refuses site ports inside the kernel's ephemeral range or past 65535 (see PORT_BASE). */
function checkPorts(count: number): void {
  const last = PORT_BASE + count - 1;
  if (last > 65_535) throw new Error(`${count} sites from port ${PORT_BASE} go past 65535: use a lower --port-base`);
  let range: number[] = [];
  try {
    range = fs.readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
  } catch {
    return; // not Linux: nothing to check against
  }
  const [low, high] = range as [number, number];
  if (PORT_BASE <= high && last >= low) {
    throw new Error(`site ports ${PORT_BASE}–${last} overlap the ephemeral range ${low}–${high}, where outgoing connections take their ports: choose --port-base outside it`);
  }
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
      // Each site links a partner that redirects to another host: the engine follows such hops
      // (files on CDNs), so thousands of crawls would each ask DNS for a name this offline machine
      // cannot resolve; a throttled resolver then held libuv's four threads, and every crawl's file writes queued behind them.
      blocklist: { urlPatterns: ["*/go/*"] },
    });
    await insertCrawl(db, config);
  }
}

/** A scratch folder that cannot be removed (a file appeared during the removal) costs a line, not the figures measured. */
async function disposeQuietly(scratch: Scratch): Promise<void> {
  await scratch.dispose().catch((error: unknown) => console.error(`scratch database not removed: ${error instanceof Error ? error.message : String(error)}`));
}

function cpuProfFlags(cpuProfDir: string | undefined): string[] {
  return cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(cpuProfDir)}`] : [];
}

function startWorker(scratch: Scratch, concurrency: number, nodeFlags: string[]): ChildProcess {
  const child = spawn(process.execPath, [...nodeFlags, BIN, "worker", "--concurrency", String(concurrency)], {
    cwd: PROJECT_ROOT,
    // Warnings and errors only: the worker writes its log to stdout synchronously, and thousands of
    // "crawl claimed" lines filled this (busy) bench's pipe and held the worker's event loop in the write.
    env: { FORAGE_LOG_LEVEL: "warn", ...process.env, ...scratch.env },
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
async function measureWaiting(count: number, databaseUrl: string | undefined, cpuProfDir: string | undefined): Promise<{ idleRss: number; waitingRss: number }> {
  const scratch = await scratchDatabase(databaseUrl, "forage-many-");
  const worker = startWorker(scratch, count, cpuProfFlags(cpuProfDir));
  try {
    await waitReady(worker);
    await sleep(2_000);
    const idleRss = procStats(worker.pid!).rssBytes;
    await queueCrawls(scratch.db, count, 1_000, WAITING_DELAY_MS);
    // Claiming and starting crawls takes a while at thousands: the deadline grows with them.
    const deadlineMs = 4 * WAITING_DELAY_MS + 100 * count;
    const deadline = Date.now() + deadlineMs;
    // The root page read, its first link typed (a HEAD): the crawl holds its links and waits.
    const waitingCrawls = async () => (await scratch.db.crawlRequest.groupBy({ by: ["crawlId"], where: { seq: { gte: 2 } } })).length;
    while ((await waitingCrawls()) < count) {
      if (Date.now() > deadline) {
        const states = await scratch.db.crawl.groupBy({ by: ["status", "stopDetail"], _count: true });
        console.error(JSON.stringify(states));
        throw new Error(`the waiting crawls did not all fetch their root page and first link within ${deadlineMs / 1000} s`);
      }
      await sleep(250);
    }
    await sleep(1_000); // the flushes settle; the next request is WAITING_DELAY_MS away
    return { idleRss, waitingRss: procStats(worker.pid!).rssBytes };
  } finally {
    // A profiled worker must exit by itself to write its profile.
    await stopWorker(worker, cpuProfDir ? "SIGTERM" : "SIGKILL");
    await disposeQuietly(scratch);
  }
}

interface RunResult {
  wallMs: number;
  requests: number;
  finished: number;
  cpuMs: number;
  peakRssBytes: number;
  /** The most file descriptors the worker held at one of the half-second looks. */
  peakFds: number;
  /** The shortest gap between two requests to one host (null: no host had two). */
  minGapMs: number | null;
  /** The 1-minute load average when the run ended (the machine is shared). */
  loadAverage: number;
}

async function measureRun(
  count: number,
  requests: number,
  delayMs: number,
  databaseUrl: string | undefined,
  cpuProfDir: string | undefined,
  sites: ChildProcess[],
): Promise<RunResult> {
  const scratch = await scratchDatabase(databaseUrl, "forage-many-");
  const worker = startWorker(scratch, count, cpuProfFlags(cpuProfDir));
  let last: ProcStats | null = null;
  try {
    // Measured from the ready worker on: its start (compiling the TypeScript, migrations) is not a crawl's cost.
    await waitReady(worker);
    await askSites(sites, "reset", "reset done");
    const before = procStats(worker.pid!);
    let peakFds = before.openFds;
    const started = performance.now();
    // Every crawl needs its requests at its delay; claiming and starting thousands adds a little each.
    // A loaded machine claims and starts a few crawls a second: 2,000 took over ten minutes.
    const timeoutMs = 300_000 + 2 * requests * delayMs + 500 * count;
    await queueCrawls(scratch.db, count, requests, delayMs);
    const over = ["finished", "failed", "cancelled"];
    for (;;) {
      await sleep(500);
      last = procStats(worker.pid!);
      peakFds = Math.max(peakFds, last.openFds);
      const done = await scratch.db.crawl.count({ where: { status: { in: over } } });
      if (done === count) break;
      if (worker.exitCode !== null) throw new Error(`worker exited (${worker.exitCode})`);
      if (performance.now() - started > timeoutMs) throw new Error(`the crawls did not finish within ${Math.round(timeoutMs / 1000)} s`);
    }
    const wallMs = performance.now() - started;
    const stats = procStats(worker.pid!);
    stats.cpuMs -= before.cpuMs;
    const sum = await scratch.db.crawl.aggregate({ _sum: { requestsCount: true } });
    const finished = await scratch.db.crawl.count({ where: { status: "finished" } });
    const minGapMs = await minimumGapMs(sites);
    return { wallMs, requests: sum._sum.requestsCount ?? 0, finished, cpuMs: stats.cpuMs, peakRssBytes: stats.peakRssBytes, peakFds, minGapMs, loadAverage: os.loadavg()[0]! };
  } catch (error) {
    console.error(`last worker stats: ${JSON.stringify(last)}`);
    throw error;
  } finally {
    await stopWorker(worker, "SIGTERM");
    await disposeQuietly(scratch);
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
  checkDescriptorLimit(Math.max(...counts), siteProcesses);
  checkPorts(Math.max(...counts));
  const sites = await startSites(Math.max(...counts), siteProcesses);
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  const rows: string[] = [];
  try {
    for (const count of counts) {
      const waiting = skipWaiting ? null : await measureWaiting(count, databaseUrl, cpuProfDir);
      // Said at once: a run that fails afterwards does not lose it.
      if (waiting) console.error(`${count} waiting crawls: idle RSS ${mb(waiting.idleRss)} MB, with them ${mb(waiting.waitingRss)} MB`);
      const run = skipRun ? null : await measureRun(count, requests, delayMs, databaseUrl, cpuProfDir, sites);
      const perWaiting = waiting ? ((waiting.waitingRss - waiting.idleRss) / count / 2 ** 20).toFixed(2) : "–";
      rows.push(
        (run
          ? `| ${count} | ${run.finished}/${count} | ${(run.wallMs / 1000).toFixed(1)} | ${run.requests} | ${(run.cpuMs / Math.max(1, run.requests)).toFixed(2)} | ${mb(run.peakRssBytes)} | ` +
            `${run.minGapMs === null ? "–" : run.minGapMs.toFixed(0)} | ${run.peakFds} | ${run.loadAverage.toFixed(1)} | `
          : `| ${count} | – | – | – | – | – | – | – | – | `) +
          `${waiting ? mb(waiting.idleRss) : "–"} | ${waiting ? mb(waiting.waitingRss) : "–"} | ${perWaiting} |`,
      );
      console.error(rows.at(-1));
    }
  } finally {
    for (const site of sites) site.kill("SIGTERM");
  }
  console.log(`\n${databaseUrl ? "PostgreSQL" : "SQLite"}, ${requests} requests a crawl at ${delayMs} ms politeness, statistics office (tiny), one worker\n`);
  console.log(
    "| crawls | finished | wall s | requests | worker CPU ms/request | peak RSS MB | min gap per host ms | peak open files | load avg | idle RSS MB | RSS with N waiting MB | MB per waiting crawl |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
}

if (process.argv[2] === "--serve-sites") void serveSites(Number(process.argv[3]), Number(process.argv[4]));
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
