import { spawn } from "node:child_process";
import path from "node:path";
import type { Strategy } from "../crawl-config";
import { buildSite, requestsToFraction, SIM_TARGET_MIME_TYPES, type SiteShape, type SiteSize } from "../sitesim";
import { PROJECT_ROOT } from "../store/migrations";
import type { BenchRunInput, BenchRunResult } from "./bench-run";
import { atLeastAsGoodAfter, requestsToReach, targetsCurve } from "./curve-metrics";

/** A strategy of the crawl settings (`sb-paper` among them: the paper's algorithm, to show what Forage's additions buy). */
export type BenchStrategy = Strategy;

/** The row of the simulator's reference BFS (the paper's BFS: FIFO over every link, no classifier). */
export const SITE_REFERENCE_BFS = "bfs (site reference)";

export interface BenchOptions {
  shapes: SiteShape[];
  size: SiteSize;
  seed: number;
  strategies: BenchStrategy[];
  /** Budget = factor × the requests of the site's reference BFS. @default 1.3 */
  budgetFactor: number;
  params?: Record<string, unknown>;
  /**
   * The crawls' target MIME types; the site's targets, the paper's BFS and OMNISCIENT count only
   * files of these types. @default the simulator's 12 target types
   */
  targetMimeTypes?: readonly string[];
  /**
   * Port of the first shape's site (the next shapes use the next ports). Fixed, because the URL
   * classifier's features include host and port: the same crawl on another port is another crawl.
   * @default 39200
   */
  portBase: number;
  /** Progress messages (stderr). */
  log: (line: string) => void;
}

export interface BenchRow {
  shape: SiteShape;
  strategy: string;
  targets: number;
  totalTargets: number;
  to50: number | null;
  to90: number | null;
  ratioToBfs90: number | null;
  /**
   * Requests to 90 % ÷ the site's reference BFS (FIFO over every link, targets queued like pages:
   * the paper kit's BFS, which has no URL classifier), the baseline of the paper's ratios.
   */
  ratioToPaperBfs90: number | null;
  atLeastBfsAfter: number | null;
  requests: number;
  cpuMsPerRequest: number | null;
  engineMsPerRequest: number | null;
  requestsPerSecond: number | null;
  peakRssMb: number | null;
  stopReason: string;
}

const CURVE_STEP = 50;
const BIN = path.join(PROJECT_ROOT, "bin/forage.mjs");

/** Runs a child `forage` process and returns its stdout (stderr is passed through on failure). */
export function runForage(args: string[], onLine?: (line: string, stop: () => void) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: PROJECT_ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      if (onLine) for (const line of chunk.toString().split("\n")) if (line) onLine(line, () => child.kill("SIGTERM"));
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 || onLine ? resolve(stdout) : reject(new Error(`forage ${args[0]} failed (${code}): ${stderr.trim().slice(-500)}`))));
  });
}

/**
 * Starts the site in its own process (its CPU must not count as the crawler's); resolves its root URL and a stop function.
 * The port is fixed (the classifier sees it), and the bench's ports lie in Linux's ephemeral range, where an outgoing
 * connection of another program may hold one for a while: a port in use is tried again for up to a minute.
 */
export async function startSiteProcess(shape: SiteShape, size: SiteSize, seed: number, port: number): Promise<{ rootUrl: string; stop: () => void }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSiteOnce(shape, size, seed, port);
    } catch (error) {
      if (attempt >= 12 || !(error instanceof Error) || !error.message.includes("EADDRINUSE")) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5_000));
    }
  }
}

function startSiteOnce(shape: SiteShape, size: SiteSize, seed: number, port: number): Promise<{ rootUrl: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "demo", "--shape", shape, "--size", String(size), "--seed", String(seed), "--port", String(port)], {
      cwd: PROJECT_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on("data", (chunk: Buffer) => {
      const match = /\[forage demo\] (http:\/\/\S+)/.exec(chunk.toString());
      if (match) resolve({ rootUrl: match[1]!, stop: () => child.kill("SIGTERM") });
    });
    child.on("exit", (code) => reject(new Error(`demo site exited (${code}): ${stderr}`)));
  });
}

/**
 * The efficiency benchmark: every strategy on every simulator shape, same seed, 0 ms delay,
 * each crawl in a fresh process against a site in another process. Compares requests to 50 %
 * and 90 % of the targets the site holds with the same engine's BFS, with the paper's BFS (the
 * site's reference BFS) and with OMNISCIENT.
 */
export async function runBench(options: BenchOptions): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [shapeIndex, shape] of options.shapes.entries()) {
    const site = buildSite({ shape, size: options.size, seed: options.seed });
    const truth = site.groundTruth();
    const targetMimeTypes = options.targetMimeTypes ?? SIM_TARGET_MIME_TYPES;
    const wanted = new Set(targetMimeTypes);
    // In the reference BFS's fetch order, so the paper's BFS to 50 % / 90 % of these types reads off it.
    const targets = truth.targets.filter((target) => wanted.has(target.mime));
    const total = targets.length;
    if (total === 0) {
      options.log(`${shape}: no target of the requested types; skipped`);
      continue;
    }
    const paperBfs50 = requestsToFraction(targets, 0.5);
    const paperBfs90 = requestsToFraction(targets, 0.9);
    const budgetRequests = Math.ceil(options.budgetFactor * truth.bfsRequests);
    options.log(`${shape}: ${total} targets, reference BFS ${truth.bfsRequests} requests; budget ${budgetRequests}`);
    const server = await startSiteProcess(shape, options.size, options.seed, options.portBase + shapeIndex);
    const results = new Map<string, BenchRunResult>();
    try {
      for (const strategy of options.strategies) {
        const input: BenchRunInput = {
          rootUrl: server.rootUrl,
          strategy,
          seed: options.seed,
          budgetRequests,
          targetMimeTypes: [...targetMimeTypes],
          params: options.params,
        };
        const output = await runForage(["bench-run", JSON.stringify(input)]);
        const result = JSON.parse(output.trim().split("\n").pop()!) as BenchRunResult;
        results.set(strategy, result);
        options.log(`  ${strategy}: ${result.targets} targets, ${result.requests} requests, ${(result.cpuMs / Math.max(1, result.requests)).toFixed(2)} CPU ms/request`);
      }
    } finally {
      server.stop();
    }
    const bfs = results.get("bfs");
    const bfsCurve = bfs ? targetsCurve(bfs.targetSeqs, budgetRequests, CURVE_STEP) : null;
    const bfs90 = bfs ? requestsToReach(bfs.targetSeqs, total, 0.9) : null;
    for (const [strategy, result] of results) {
      const to90 = requestsToReach(result.targetSeqs, total, 0.9);
      rows.push({
        shape,
        strategy,
        targets: result.targets,
        totalTargets: total,
        to50: requestsToReach(result.targetSeqs, total, 0.5),
        to90,
        ratioToBfs90: ratioTo(to90, bfs90),
        ratioToPaperBfs90: ratioTo(to90, paperBfs90),
        atLeastBfsAfter: bfsCurve ? atLeastAsGoodAfter(targetsCurve(result.targetSeqs, budgetRequests, CURVE_STEP), bfsCurve, CURVE_STEP) : null,
        requests: result.requests,
        cpuMsPerRequest: result.requests ? result.cpuMs / result.requests : null,
        engineMsPerRequest: result.requests ? result.engineMs / result.requests : null,
        requestsPerSecond: result.wallMs ? (1000 * result.requests) / result.wallMs : null,
        peakRssMb: result.peakRssBytes / (1024 * 1024),
        stopReason: result.stopReason,
      });
    }
    const omniscient = (fraction: number) => Math.ceil(total * fraction - 1e-9);
    rows.push({
      shape, strategy: "omniscient", targets: total, totalTargets: total, to50: omniscient(0.5), to90: omniscient(0.9),
      ratioToBfs90: ratioTo(omniscient(0.9), bfs90), ratioToPaperBfs90: ratioTo(omniscient(0.9), paperBfs90), atLeastBfsAfter: 0, requests: total,
      cpuMsPerRequest: null, engineMsPerRequest: null, requestsPerSecond: null, peakRssMb: null, stopReason: "-",
    });
    rows.push({
      shape, strategy: SITE_REFERENCE_BFS, targets: total, totalTargets: total, to50: paperBfs50, to90: paperBfs90,
      ratioToBfs90: ratioTo(paperBfs90, bfs90), ratioToPaperBfs90: ratioTo(paperBfs90, paperBfs90), atLeastBfsAfter: null, requests: truth.bfsRequests,
      cpuMsPerRequest: null, engineMsPerRequest: null, requestsPerSecond: null, peakRssMb: null, stopReason: truth.bfsStop,
    });
  }
  return rows;
}

/** value ÷ baseline, or null when either is missing. */
function ratioTo(value: number | null, baseline: number | null): number | null {
  return value !== null && baseline ? value / baseline : null;
}

/** The rows as a Markdown table (what `forage bench` prints and docs/BENCHMARKS.md keeps). */
export function formatBenchTable(rows: BenchRow[]): string {
  const fmt = (value: number | null, digits = 0) => (value === null ? "–" : value.toFixed(digits));
  const lines = [
    "| shape | strategy | targets | req. to 50 % | req. to 90 % | ÷ BFS (90 %) | ÷ paper's BFS (90 %) | ≥ BFS from | requests | engine ms/req | process CPU ms/req | req/s | peak RSS MB | stop |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.shape} | ${row.strategy} | ${row.targets}/${row.totalTargets} | ${fmt(row.to50)} | ${fmt(row.to90)} | ${fmt(row.ratioToBfs90, 2)} | ${fmt(row.ratioToPaperBfs90, 2)} | ` +
        `${fmt(row.atLeastBfsAfter)} | ${row.requests} | ${fmt(row.engineMsPerRequest, 2)} | ${fmt(row.cpuMsPerRequest, 2)} | ${fmt(row.requestsPerSecond)} | ${fmt(row.peakRssMb)} | ${row.stopReason} |`,
    );
  }
  return lines.join("\n");
}

/** The crawl strategy and parameters a bench strategy stands for (every bench strategy is a crawl strategy). */
export function benchStrategySettings(strategy: BenchStrategy, params?: Record<string, unknown>): { strategy: Strategy; params?: Record<string, unknown> } {
  return { strategy, params };
}
