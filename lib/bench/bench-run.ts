import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../config";
import { parseCrawlConfig, type Strategy } from "../crawl-config";
import { HostPoliteness } from "../crawler/fetch/host-politeness";
import { EngineMeter } from "../crawler/engine/engine-meter";
import { runStoredCrawl } from "../worker/run-stored-crawl";
import { ensureMigrated, openDatabase } from "../store";
import { insertCrawl } from "../store/insert-crawl";

export interface BenchRunInput {
  rootUrl: string;
  strategy: Strategy;
  seed: number;
  budgetRequests: number;
  targetMimeTypes: string[];
  /** Extra algorithm settings (e.g. a θ sweep). */
  params?: Record<string, unknown>;
  /** The crawl's application settings (recipes); default: on, automatic. */
  applications?: { use: boolean; recipe?: string };
}

export interface BenchRunResult {
  strategy: Strategy;
  requests: number;
  targets: number;
  /** Counted request number that fetched each target, in fetch order. */
  targetSeqs: number[];
  /** Each target's URL, in the same order. */
  targetUrls: string[];
  stopReason: string;
  /** CPU of this process (user + system) during the crawl: engine, HTTP client, sockets, files, database. */
  cpuMs: number;
  /** The engine's own time (EngineMeter): parsing, rules, grouping, bandit, classifier, bookkeeping, DB writes. */
  engineMs: number;
  wallMs: number;
  /** Largest resident set size of the process. */
  peakRssBytes: number;
  groups: number;
}

/**
 * One crawl for the benchmark, exactly as the worker runs it (same engine, Prisma sink on a
 * fresh SQLite database, files on disk, 0 ms politeness), measured from the outside:
 * the site runs in another process so its CPU is not counted here.
 */
export async function runBenchCrawl(input: BenchRunInput): Promise<BenchRunResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-bench-"));
  try {
    const forage = loadConfig({ DATABASE_URL: `file:${path.join(dir, "bench.db")}`, FORAGE_DATA_DIR: dir });
    await ensureMigrated(forage, { apply: true });
    const db = await openDatabase(forage);
    const config = parseCrawlConfig({
      rootUrl: input.rootUrl,
      strategy: input.strategy,
      seed: input.seed,
      targetMimeTypes: input.targetMimeTypes,
      budget: { requests: input.budgetRequests },
      politeness: { delayMs: 0, obeyRobots: true },
      allowPrivateNetwork: true,
      // The bench measures the crawler; the web archive's own cost is measured by test/bench/warc-cost.ts.
      archive: { keepWarc: false },
      params: input.params ?? {},
      ...(input.applications ? { applications: input.applications } : {}),
    });
    const crawlId = await insertCrawl(db, config);
    const cpuBefore = process.cpuUsage();
    const wallBefore = performance.now();
    const meter = new EngineMeter();
    const end = await runStoredCrawl({ db, forage, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal, meter });
    const cpu = process.cpuUsage(cpuBefore);
    const wallMs = performance.now() - wallBefore;
    const crawl = await db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
    const targets = await db.target.findMany({ where: { crawlId }, select: { requestSeq: true, url: true }, orderBy: { requestSeq: "asc" } });
    await db.$disconnect();
    return {
      strategy: input.strategy,
      requests: crawl.requestsCount,
      targets: crawl.targetsCount,
      targetSeqs: targets.map((target) => target.requestSeq),
      targetUrls: targets.map((target) => target.url),
      stopReason: end.kind === "stopped" ? end.reason : "paused",
      cpuMs: (cpu.user + cpu.system) / 1000,
      engineMs: meter.ms,
      wallMs,
      peakRssBytes: process.resourceUsage().maxRSS * 1024,
      groups: crawl.groupsCount,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
