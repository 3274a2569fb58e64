/**
 * What a request costs on PostgreSQL against SQLite: the same crawls run by one worker process
 * on each database, measured from the outside.
 *
 *   npm run bench:postgres-cost -- [--crawls 12] [--requests 200] [--delay-ms 0] [--backends sqlite,postgresql]
 *
 * `--crawls` simulated sites (statistics office, tiny, one port and seed each, served by this
 * process), one crawl of `--requests` requests per site at `--delay-ms` politeness, ONE
 * `forage worker --concurrency <crawls>` process. From the ready worker to the last crawl's end:
 * the worker's CPU (user + system, /proc) per request, wall time per request (the worker's whole
 * throughput: wall ÷ requests of all crawls), and on PostgreSQL the statements the worker sent
 * per request (each one round trip; counted inside the worker by count-pg-queries.mjs).
 * PostgreSQL is the test server's (test/helpers/postgres.ts): a fresh database cloned from the
 * migrated template per run. The machine is shared: compare the two rows, not runs of days apart.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { PROJECT_ROOT } from "../../lib/store/migrations";
import { createPostgresDatabase, preparePostgres, type PostgresTestDatabase } from "../helpers/postgres";
import { procStats, scratchDatabase, waitReady, type Scratch } from "./bench-process";

const BIN = path.join(PROJECT_ROOT, "bin/forage.mjs");
const QUERY_COUNTER = path.join(PROJECT_ROOT, "test/bench/count-pg-queries.mjs");
type Backend = "sqlite" | "postgresql";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
}

function numberOption(name: string, fallback: number): number {
  const value = Number(option(name, String(fallback)));
  if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} takes a number ≥ 0, not "${option(name, "")}"`);
  return value;
}

const CRAWLS = numberOption("crawls", 12);
const REQUESTS = numberOption("requests", 200);
const DELAY_MS = numberOption("delay-ms", 0);
const BACKENDS = option("backends", "sqlite,postgresql").split(",") as Backend[];
for (const backend of BACKENDS) if (backend !== "sqlite" && backend !== "postgresql") throw new Error(`--backends lists sqlite and/or postgresql, not "${backend}"`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Cost {
  backend: Backend;
  requests: number;
  finished: number;
  wallMs: number;
  cpuMs: number;
  /** Statements the worker sent to PostgreSQL (null on SQLite: no round trips). */
  statements: number | null;
}

function startWorker(scratch: Scratch, countFile: string): ChildProcess {
  const child = spawn(process.execPath, ["--import", QUERY_COUNTER, BIN, "worker", "--concurrency", String(CRAWLS)], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...scratch.env, FORAGE_BENCH_QUERY_COUNT_FILE: countFile, FORAGE_LOG_LEVEL: "warn", FORAGE_STORAGE_URL: "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr!.on("data", (chunk: Buffer) => process.stderr.write(`[worker] ${chunk}`));
  return child;
}

function readCount(file: string): number {
  return Number(fs.readFileSync(file, "utf8")) || 0;
}

async function measure(backend: Backend, sites: RunningSite[]): Promise<Cost> {
  let database: PostgresTestDatabase | null = null;
  if (backend === "postgresql") {
    const status = await preparePostgres();
    if (!status.available) throw new Error(status.reason);
    database = await createPostgresDatabase(status);
  }
  const scratch = await scratchDatabase(database?.url, "forage-pg-cost-");
  const countFile = path.join(scratch.forage.dataDir, "pg-queries.count");
  const worker = startWorker(scratch, countFile);
  try {
    await waitReady(worker);
    // Measured from the ready worker on: its start (compiling the TypeScript) is no request's cost.
    const before = procStats(worker.pid!);
    const statementsBefore = readCount(countFile);
    const started = performance.now();
    for (const [index, site] of sites.entries()) {
      const config = parseCrawlConfig({
        rootUrl: site.rootUrl,
        strategy: "sb",
        seed: index + 1,
        budget: { requests: REQUESTS },
        politeness: { delayMs: DELAY_MS },
        archive: { keepWarc: false },
      });
      await insertCrawl(scratch.db, config);
    }
    const over = ["finished", "failed", "cancelled"];
    for (;;) {
      await sleep(250);
      if ((await scratch.db.crawl.count({ where: { status: { in: over } } })) === sites.length) break;
      if (worker.exitCode !== null) throw new Error(`worker exited (${worker.exitCode})`);
      if (performance.now() - started > 600_000) throw new Error("the crawls did not finish within 10 minutes");
    }
    const wallMs = performance.now() - started;
    const cpuMs = procStats(worker.pid!).cpuMs - before.cpuMs;
    await sleep(200); // the counter file is rewritten every 100 ms
    const statements = backend === "postgresql" ? readCount(countFile) - statementsBefore : null;
    const requests = (await scratch.db.crawl.aggregate({ _sum: { requestsCount: true } }))._sum.requestsCount ?? 0;
    const finished = await scratch.db.crawl.count({ where: { status: "finished" } });
    return { backend, requests, finished, wallMs, cpuMs, statements };
  } finally {
    if (worker.exitCode === null) {
      const exited = new Promise((resolve) => worker.once("exit", resolve));
      worker.kill("SIGTERM");
      await exited;
    }
    await scratch.dispose();
    await database?.drop();
  }
}

async function main(): Promise<void> {
  const sites = await Promise.all(
    Array.from({ length: CRAWLS }, (_, index) => startSiteServer(buildSite({ shape: "statistics-office", seed: index + 1, size: "tiny" }))),
  );
  const costs: Cost[] = [];
  try {
    for (const backend of BACKENDS) {
      costs.push(await measure(backend, sites));
      console.error(JSON.stringify(costs.at(-1)));
    }
  } finally {
    await Promise.all(sites.map((site) => site.close()));
  }
  const base = costs.find((cost) => cost.backend === "sqlite");
  const perRequest = (cost: Cost, value: number) => value / Math.max(1, cost.requests);
  console.log(`\n${CRAWLS} crawls × ${REQUESTS} requests at ${DELAY_MS} ms politeness, statistics office (tiny), one worker, ${os.cpus().length} CPUs\n`);
  console.log("| database | finished | requests | worker CPU ms/request | wall ms/request | round trips/request | CPU ÷ SQLite | wall ÷ SQLite |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const cost of costs) {
    const cpu = perRequest(cost, cost.cpuMs);
    const wall = perRequest(cost, cost.wallMs);
    const ratio = (value: number, of: number | undefined) => (of ? `${(value / of).toFixed(2)}×` : "–");
    console.log(
      `| ${cost.backend} | ${cost.finished}/${CRAWLS} | ${cost.requests} | ${cpu.toFixed(2)} | ${wall.toFixed(2)} | ` +
        `${cost.statements === null ? "–" : perRequest(cost, cost.statements).toFixed(2)} | ` +
        `${ratio(cpu, base && perRequest(base, base.cpuMs))} | ${ratio(wall, base && perRequest(base, base.wallMs))} |`,
    );
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
