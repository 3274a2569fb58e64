/**
 * How long one crawl holds the event loop: real crawls as a worker runs them (runStoredCrawl,
 * a SQLite database, the web archive on, checkpoints on, a step watch as the worker's), each
 * site served by `forage demo` in another process so that only the crawler's work is on this
 * thread. Two clocks watch the loop meanwhile:
 * - perf_hooks `monitorEventLoopDelay` (its max: the longest delay of its 10 ms timer);
 * - a timer-gap sampler: a 5 ms timer whose lateness is each block's length, kept with the
 *   moment it ended, so the longest blocks are listed with the crawl's progress at that moment
 *   and with the steps the step watch reported slow (a block that no step names ran outside it).
 * Which work a block was: run under `node --cpu-prof` and read the profile's long busy runs
 * between idle samples.
 *
 *   node --import tsx test/bench/event-loop-holds.ts [--sites documentation-site:large,statistics-office:large,family:large:4]
 *       [--requests 12000] [--warm-up 300] [--limit-ms 100]
 *
 * Each site is first crawled `--warm-up` requests unmeasured: the first crawl of a process pays
 * once for compiling the code it runs (a worker pays it once, not per crawl); 0 measures it too.
 *
 * A site is `shape:size[:seed]` (seed 1 when absent; family seed 4 draws a section with a
 * mega-page listing every item on one page).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { loadConfig } from "../../lib/config";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { StepWatch, type SlowStep } from "../../lib/crawler/step-watch";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { SIM_TARGET_MIME_TYPES } from "../../lib/sitesim";
import { ensureMigrated, openDatabase } from "../../lib/store";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { freePort } from "../helpers/ports";
import { PROJECT_ROOT } from "../helpers/paths";

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
}
const SITES = arg("sites", "documentation-site:large,statistics-office:large,family:large:4").split(",");
const REQUESTS = Number(arg("requests", "12000"));
const WARM_UP = Number(arg("warm-up", "300"));
const LIMIT_MS = Number(arg("limit-ms", "100"));
const SAMPLE_MS = 5;

interface Site {
  readonly rootUrl: string;
  stop(): void;
}

async function startSite(shape: string, size: string, seed: string): Promise<Site> {
  const port = await freePort();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["bin/forage.mjs", "demo", "--shape", shape, "--size", size, "--seed", seed, "--port", String(port)], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    child.stdout.on("data", (chunk: Buffer) => {
      const match = /\[forage demo\] (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve({ rootUrl: match[1]!, stop: () => child.kill("SIGTERM") });
    });
    child.on("exit", (code) => reject(new Error(`demo site exited (${code})`)));
  });
}

/**
 * A block of the event loop: how long, the process's CPU time meanwhile (on a shared machine a
 * gap can be time the process was not scheduled at all: a block with little CPU was not the
 * crawl's work; zlib's and the file system's pool threads add to it), when it ended (ms since the
 * crawl started), the crawl's requests then.
 */
interface Block {
  readonly ms: number;
  readonly cpuMs: number;
  readonly atMs: number;
  readonly requests: number;
}

/** A 5 ms timer whose lateness measures each block of the loop; keeps the longest ones. */
function startGapSampler(progress: () => number, startedAt: number) {
  const blocks: Block[] = [];
  let last = performance.now();
  let lastCpu = process.cpuUsage();
  let timer: NodeJS.Timeout;
  const tick = () => {
    const now = performance.now();
    const cpu = process.cpuUsage(lastCpu);
    const late = now - last - SAMPLE_MS;
    if (late > 20) blocks.push({ ms: Math.round(late), cpuMs: Math.round((cpu.user + cpu.system) / 1000), atMs: Math.round(now - startedAt), requests: progress() });
    last = now;
    lastCpu = process.cpuUsage();
    timer = setTimeout(tick, SAMPLE_MS);
  };
  timer = setTimeout(tick, SAMPLE_MS);
  return {
    blocks,
    stop: () => clearTimeout(timer),
  };
}

async function crawlSite(spec: string) {
  const [shape = "statistics-office", size = "large", seed = "1"] = spec.split(":");
  const site = await startSite(shape, size, seed);
  try {
    if (WARM_UP > 0) await crawl(spec, site, WARM_UP);
    return await crawl(spec, site, REQUESTS);
  } finally {
    site.stop();
  }
}

async function crawl(spec: string, site: Site, requestBudget: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-event-loop-"));
  try {
    const forage = loadConfig({ DATABASE_URL: `file:${path.join(dir, "bench.db")}`, FORAGE_DATA_DIR: dir });
    await ensureMigrated(forage, { apply: true });
    const db = await openDatabase(forage);
    const config = parseCrawlConfig({
      rootUrl: site.rootUrl,
      strategy: "sb",
      seed: 1,
      targetMimeTypes: [...SIM_TARGET_MIME_TYPES],
      budget: { requests: requestBudget },
      politeness: { delayMs: 0 },
      allowPrivateNetwork: true,
      archive: { keepWarc: true },
    });
    const crawlId = await insertCrawl(db, config);
    const startedAt = performance.now();
    let requests = 0;
    const slowSteps: (SlowStep & { atMs: number; requests: number })[] = [];
    const stepWatch = new StepWatch({
      limitMs: 20,
      onSlowStep: (step) => slowSteps.push({ ...step, atMs: Math.round(performance.now() - startedAt), requests }),
    });
    const histogram = monitorEventLoopDelay({ resolution: 10 });
    const sampler = startGapSampler(() => requests, startedAt);
    histogram.enable();
    await runStoredCrawl({
      db,
      forage,
      crawlId,
      politeness: new HostPoliteness(),
      signal: new AbortController().signal,
      stepWatch,
      onProgress: (counters) => (requests = counters.requests),
    });
    histogram.disable();
    sampler.stop();
    const wallMs = performance.now() - startedAt;
    const row = await db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
    const checkpoints = await db.crawlEvent.findFirst({ where: { crawlId, kind: "checkpoints" }, select: { message: true } });
    await db.$disconnect();
    // A block's own work: its length, or the CPU the process spent meanwhile when that was less.
    const busy = (b: Block) => Math.min(b.ms, b.cpuMs);
    const longest = [...sampler.blocks].sort((a, b) => busy(b) - busy(a)).slice(0, 8);
    return {
      site: spec,
      requests: row.requestsCount,
      wallS: Math.round(wallMs / 100) / 10,
      longestBusyBlockMs: longest[0] ? busy(longest[0]) : 0,
      longestGapMs: Math.max(0, ...sampler.blocks.map((b) => b.ms)),
      histogramMaxMs: Math.round(histogram.max / 1e6),
      histogramP99Ms: Math.round(histogram.percentile(99) / 1e6),
      busyBlocksOverLimit: sampler.blocks.filter((b) => busy(b) > LIMIT_MS).length,
      busyBlocksOver50: sampler.blocks.filter((b) => busy(b) > 50).length,
      longest,
      slowSteps: [...slowSteps].sort((a, b) => b.ms - a.ms).slice(0, 8),
      checkpoints: checkpoints?.message ?? null,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const results = [];
for (const spec of SITES) {
  const result = await crawlSite(spec);
  console.log(JSON.stringify(result, null, 1));
  results.push(result);
}
console.log(`\nlongest event-loop block per crawl (busy: the gap or the CPU meanwhile, whichever is less; ${REQUESTS} requests, limit ${LIMIT_MS} ms):`);
for (const r of results) {
  console.log(
    `  ${r.site.padEnd(28)} busy ${String(r.longestBusyBlockMs).padStart(5)} ms, gap ${r.longestGapMs} ms (histogram max ${r.histogramMaxMs} ms, p99 ${r.histogramP99Ms} ms; ` +
      `${r.busyBlocksOverLimit} busy blocks > ${LIMIT_MS} ms, ${r.busyBlocksOver50} > 50 ms; ${r.requests} requests in ${r.wallS} s)`,
  );
}
