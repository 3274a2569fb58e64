/**
 * The family bench: every strategy on many seeds of the simulator's procedural site family
 * (lib/sitesim/family), each crawl in its own process against the site in another one, as the
 * named-shape bench does. Per seed it records requests to 90 % of the targets against the site's
 * FIFO BFS reference and against its floor (lib/sitesim/floor.ts); family-summary.ts turns the
 * rows into distributions.
 *
 * Seeds are split once and for all: odd seeds tune, even seeds validate. A run crawls the seeds of
 * one split (or both), so tuning on one never peeks at the other.
 */
import { buildSite, computeSiteFloor, drawFamilyParams, familyApplication, familySiteSize, requestsToFraction, SIM_TARGET_MIME_TYPES } from "../sitesim";
import type { BenchRunInput, BenchRunResult } from "./bench-run";
import { requestsToReach } from "./curve-metrics";
import { benchStrategySettings, runForage, startSiteProcess, type BenchStrategy } from "./run-bench";

export type SeedSplit = "tuning" | "validation";
export type SplitChoice = SeedSplit | "all";

/** What the seed drew: its target density, or the application (and variant) of an application seed. */
function regimeOf(seed: number, size: number): string {
  const application = familyApplication(seed);
  return application ? `${application.shape}${application.variant === "standard" ? "" : ` (${application.variant})`}` : drawFamilyParams(seed, size).regime;
}

/** Odd seeds tune, even seeds validate. */
export function splitOf(seed: number): SeedSplit {
  return seed % 2 === 1 ? "tuning" : "validation";
}

/** The seeds of `seeds` that belong to `choice`. */
export function seedsOfSplit(seeds: readonly number[], choice: SplitChoice): number[] {
  return choice === "all" ? [...seeds] : seeds.filter((seed) => splitOf(seed) === choice);
}

export interface FamilyBenchOptions {
  seeds: number[];
  strategies: BenchStrategy[];
  /** Budget = factor × the requests of the site's reference BFS. */
  budgetFactor: number;
  params?: Record<string, unknown>;
  /**
   * Seed s's site listens on portBase + s: the URL classifier's features include the port, so a
   * seed must always be crawled on the same one (whatever the order or parallelism).
   */
  portBase: number;
  /** Seeds crawled at the same time (each: one site process, its crawls one after another). */
  jobs: number;
  log: (line: string) => void;
}

/** One crawl of one seed (or the seed's BFS reference / floor, as pseudo-strategies). */
export interface FamilySeedRow {
  seed: number;
  split: SeedSplit;
  /** The site's nominal URL count and target regime (what the seed drew). */
  size: number;
  regime: string;
  strategy: string;
  targets: number;
  found: number;
  requests: number;
  /** Requests to ceil(90 %) of the targets; null when not reached within the budget. */
  to90: number | null;
  bfsTo90: number;
  floorTo90: number;
  ratioToBfs90: number | null;
  ratioToFloor90: number | null;
  cpuMsPerRequest: number | null;
  stopReason: string;
}

export const FLOOR_ROW = "floor";
export const BFS_REFERENCE_ROW = "bfs (site reference)";

/** Crawls every seed with every strategy; rows in seed order, strategies in the given order, then the BFS reference and the floor. */
export async function runFamilyBench(options: FamilyBenchOptions): Promise<FamilySeedRow[]> {
  const bySeed = new Map<number, FamilySeedRow[]>();
  let next = 0;
  const worker = async () => {
    while (next < options.seeds.length) {
      const seed = options.seeds[next++]!;
      bySeed.set(seed, await benchSeed(seed, options));
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, options.seeds.length)) }, worker));
  return options.seeds.flatMap((seed) => bySeed.get(seed) ?? []);
}

async function benchSeed(seed: number, options: FamilyBenchOptions): Promise<FamilySeedRow[]> {
  const size = familySiteSize(seed);
  const site = buildSite({ shape: "family", seed, size });
  const truth = site.groundTruth();
  const floor = computeSiteFloor(site);
  const total = truth.targets.length;
  const base = { seed, split: splitOf(seed), size, regime: regimeOf(seed, size), targets: total };
  if (total === 0 || floor.to90 === null) {
    options.log(`seed ${seed}: no target; skipped`);
    return [];
  }
  const bfsTo90 = requestsToFraction(truth.targets, 0.9)!;
  const floorTo90 = floor.to90;
  const budgetRequests = Math.ceil(options.budgetFactor * truth.bfsRequests);
  const rows: FamilySeedRow[] = [];
  const server = await startSiteProcess("family", size, seed, options.portBase + seed);
  try {
    for (const strategy of options.strategies) {
      const settings = benchStrategySettings(strategy, options.params);
      const input: BenchRunInput = {
        rootUrl: server.rootUrl,
        strategy: settings.strategy,
        seed,
        budgetRequests,
        targetMimeTypes: [...SIM_TARGET_MIME_TYPES],
        params: settings.params,
      };
      const output = await runForage(["bench-run", JSON.stringify(input)]).catch((error: unknown) => {
        throw new Error(`family seed ${seed}, ${strategy}: ${error instanceof Error ? error.message : String(error)}`);
      });
      const result = JSON.parse(output.trim().split("\n").pop()!) as BenchRunResult;
      const to90 = requestsToReach(result.targetSeqs, total, 0.9);
      rows.push({
        ...base, strategy, found: result.targets, requests: result.requests, to90, bfsTo90, floorTo90,
        ratioToBfs90: to90 === null ? null : to90 / bfsTo90,
        ratioToFloor90: to90 === null ? null : to90 / floorTo90,
        cpuMsPerRequest: result.requests ? result.cpuMs / result.requests : null,
        stopReason: result.stopReason,
      });
    }
  } finally {
    server.stop();
  }
  rows.push(
    { ...base, strategy: BFS_REFERENCE_ROW, found: total, requests: truth.bfsRequests, to90: bfsTo90, bfsTo90, floorTo90, ratioToBfs90: 1, ratioToFloor90: bfsTo90 / floorTo90, cpuMsPerRequest: null, stopReason: truth.bfsStop },
    { ...base, strategy: FLOOR_ROW, found: total, requests: floor.toAll!, to90: floorTo90, bfsTo90, floorTo90, ratioToBfs90: floorTo90 / bfsTo90, ratioToFloor90: 1, cpuMsPerRequest: null, stopReason: "-" },
  );
  const line = rows.slice(0, -2).map((row) => `${row.strategy} ${row.ratioToBfs90 === null ? "miss" : row.ratioToBfs90.toFixed(2)}`).join(", ");
  options.log(`seed ${seed} (${base.split}, ${base.regime}, ${total} targets, BFS ${bfsTo90} / floor ${floorTo90} to 90 %): ÷ BFS ${line}`);
  return rows;
}
