import fs from "node:fs";
import { crawlConfigSchema, STRATEGIES } from "../../crawl-config";
import { DATA_FILES_MIME_TYPES, DOCUMENT_MIME_TYPES } from "../../crawler/defaults";
import { runBenchCrawl, type BenchRunInput } from "../../bench/bench-run";
import { formatBenchSummary, summarizeBenchRuns, type SeededBenchRows } from "../../bench/bench-summary";
import { formatBenchTable, runBench, type BenchStrategy } from "../../bench/run-bench";
import { APPLICATION_SEEDS_FROM, NAMED_SHAPES, SITE_SHAPES, type SiteShape } from "../../sitesim";
import { runFamilyBench, seedsOfSplit, type SplitChoice } from "../../bench/family-bench";
import { familyRowsCsv, formatFamilyByRegime, formatFamilySummary, summarizeFamily } from "../../bench/family-summary";
import { formatRecrawlBench, runRecrawlBench } from "../../bench/recrawl-bench";
import { DEFAULT_BUDGET_FACTOR, runRecrawlFamilyBench } from "../../bench/recrawl-family-bench";
import { formatRecrawlFamilySeeds, formatRecrawlFamilySummary, summarizeRecrawlFamily } from "../../bench/recrawl-family-summary";
import { CliUsageError } from "../cli-error";
import { parseIntegerOption, parseOptions } from "../parse-options";
import { parseSiteOptions } from "./demo";

export const benchHelp =
  "forage bench [--shapes a,b] [--size small] [--seed N | --seeds 1,2,3] [--strategies sb,bfs,…] [--budget-factor 1.3] [--params JSON] [--port-base N]\n" +
  "             [--target-mime data-files|documents|a/b,c/d]\n" +
  "             every strategy on every simulator shape; prints a Markdown table\n" +
  "             (one per seed, then the means over the seeds)\n" +
  "             (sb-paper = the paper's algorithm exactly, none of Forage's additions)\n" +
  "forage bench --family N | --family-seeds a..b [--split validation|tuning|all] [--strategies sb,sb-paper,bfs,focused]\n" +
  "             [--jobs 1] [--json FILE(.json|.csv)] [--budget-factor 1.3] [--params JSON] [--port-base 42000]\n" +
  "             the procedural site family, seeds 1..N (odd = tuning, even = validation; the validation seeds by default):\n" +
  "             median / p90 / worst of requests to 90 % ÷ the site's FIFO BFS and ÷ its floor, per strategy\n" +
  "forage bench --recrawl [--items 600] [--seed N]\n" +
  "             an evolving catalogue: crawl version 1, re-crawl version 2 with --after (with and without checking\n" +
  "             known files) and crawl it afresh; requests, recall of the new files, reported changes vs the truth\n" +
  "forage bench --recrawl --family N [--from S] [--split validation|tuning|all] [--budget B] [--params JSON] [--json FILE] [--port-base 44000]\n" +
  "             evolving sites of the family, seeds S..S+N-1 (validation seeds by default): version 1 crawled, versions 2\n" +
  `             and 3 re-crawled each after the last run; recall of new files and requests ÷ the first crawl, per seed and\n` +
  `             as distributions split by whether the site marks its changes (budget: ${DEFAULT_BUDGET_FACTOR} × the site's BFS by default)`;

const BENCH_STRATEGIES: BenchStrategy[] = ["sb", "sb-paper", "bfs", "dfs", "random", "focused", "tp-off", "tres"];

/** `forage bench`: the crawl-efficiency benchmark (docs/BENCHMARKS.md). */
export async function benchCommand(argv: string[]): Promise<number> {
  if (argv.includes("--recrawl")) {
    const rest = argv.filter((arg) => arg !== "--recrawl");
    return rest.some((arg) => /^--family(=|$)/.test(arg)) ? recrawlFamilyBenchCommand(rest) : recrawlBenchCommand(rest);
  }
  if (argv.some((arg) => /^--family(-seeds)?(=|$)/.test(arg))) return familyBenchCommand(argv);
  const { values } = parseOptions(argv, {
    shapes: { type: "string" },
    size: { type: "string" },
    seed: { type: "string" },
    seeds: { type: "string" },
    strategies: { type: "string" },
    "budget-factor": { type: "string" },
    params: { type: "string" },
    "port-base": { type: "string" },
    "target-mime": { type: "string" },
  });
  const shapes = (values.shapes?.split(",").map((s) => s.trim()) ?? NAMED_SHAPES) as SiteShape[];
  for (const shape of shapes) if (!(shape in SITE_SHAPES)) throw new CliUsageError(`--shapes: unknown shape "${shape}" (${Object.keys(SITE_SHAPES).join(", ")})`);
  if (values.seed !== undefined && values.seeds !== undefined) throw new CliUsageError("give --seed or --seeds, not both");
  const { size, seed } = parseSiteOptions({ size: values.size, seed: values.seed });
  const seeds = values.seeds === undefined ? [seed] : values.seeds.split(",").map(parseSeed);
  const strategies = parseStrategies(values.strategies) ?? [...BENCH_STRATEGIES];
  if (!strategies.includes("bfs")) strategies.push("bfs"); // the ratio column needs it
  const budgetFactor = parseBudgetFactor(values["budget-factor"]);
  const params = parseParams(values.params);
  const targetMimeTypes = values["target-mime"] === undefined ? undefined : parseBenchTargetMime(values["target-mime"]);
  const started = Date.now();
  const portBase = parseIntegerOption("port-base", values["port-base"], { min: 1024, max: 65000 }) ?? 39200;
  const runs: SeededBenchRows[] = [];
  for (const runSeed of seeds) {
    const rows = await runBench({ shapes, size, seed: runSeed, strategies, budgetFactor, params, targetMimeTypes, portBase, log: (line) => console.error(`[bench] ${line}`) });
    runs.push({ seed: runSeed, rows });
    if (seeds.length > 1) console.log(`Seed ${runSeed}:\n`);
    console.log(formatBenchTable(rows));
    if (seeds.length > 1) console.log("");
  }
  if (seeds.length > 1) console.log(`Means over seeds ${seeds.join(", ")} (requests to 90 % of the targets):\n\n${formatBenchSummary(seeds, summarizeBenchRuns(runs))}`);
  console.error(`[bench] ${((Date.now() - started) / 1000).toFixed(0)} s; size ${size}, seed${seeds.length > 1 ? "s" : ""} ${seeds.join(", ")}`);
  return 0;
}

/** Target lists `--target-mime` knows by name (the cockpit's presets). */
const TARGET_MIME_PRESETS: Record<string, readonly string[]> = { "data-files": DATA_FILES_MIME_TYPES, documents: DOCUMENT_MIME_TYPES };

/** `--target-mime`: a preset name or a comma-separated list of MIME types, checked as the crawl settings check them. */
function parseBenchTargetMime(raw: string): string[] {
  const preset = TARGET_MIME_PRESETS[raw.trim()];
  if (preset) return [...preset];
  const list = raw.split(",").map((mime) => mime.trim()).filter(Boolean);
  const parsed = crawlConfigSchema.shape.targetMimeTypes.safeParse(list);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const entry = typeof issue?.path[0] === "number" ? ` "${list[issue.path[0]]}"` : "";
    throw new CliUsageError(`--target-mime${entry}: ${issue?.message ?? "is not valid"} (or a preset: ${Object.keys(TARGET_MIME_PRESETS).join(", ")})`);
  }
  return parsed.data;
}

const FAMILY_STRATEGIES: BenchStrategy[] = ["sb", "sb-paper", "bfs", "focused"];
const SPLITS: readonly SplitChoice[] = ["validation", "tuning", "all"];

/** `forage bench --family N`: distributions over the procedural site family (lib/bench/family-bench.ts). */
async function familyBenchCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, {
    family: { type: "string" },
    "family-seeds": { type: "string" },
    split: { type: "string" },
    strategies: { type: "string" },
    jobs: { type: "string" },
    json: { type: "string" },
    "budget-factor": { type: "string" },
    params: { type: "string" },
    "port-base": { type: "string" },
  });
  if (values.family !== undefined && values["family-seeds"] !== undefined) throw new CliUsageError("give --family or --family-seeds, not both");
  const allSeeds = values["family-seeds"] !== undefined ? parseSeedRange(values["family-seeds"]) : range(1, parseIntegerOption("family", values.family, { min: 1, max: 20_000 })!);
  const split = (values.split ?? "validation") as SplitChoice;
  if (!SPLITS.includes(split)) throw new CliUsageError(`--split must be one of ${SPLITS.join(", ")}, got "${values.split}"`);
  const seeds = seedsOfSplit(allSeeds, split);
  if (seeds.length === 0) throw new CliUsageError(`no ${split} seed among ${describeSeeds(allSeeds)} (odd seeds tune, even seeds validate)`);
  const strategies = parseStrategies(values.strategies) ?? [...FAMILY_STRATEGIES];
  const budgetFactor = parseBudgetFactor(values["budget-factor"]);
  const params = parseParams(values.params);
  const jobs = parseIntegerOption("jobs", values.jobs, { min: 1, max: 8 }) ?? 1;
  const portBase = parseIntegerOption("port-base", values["port-base"], { min: 1024, max: 65000 }) ?? 42_000;
  const maxSeed = Math.max(...seeds);
  if (portBase + maxSeed > 65_535) throw new CliUsageError(`--port-base ${portBase} + seed ${maxSeed} is above port 65535 (seed s listens on port-base + s)`);
  const started = Date.now();
  const log = (line: string) => console.error(`[bench] ${line}`);
  log(`family: ${seeds.length} ${split} seed${seeds.length > 1 ? "s" : ""} of ${describeSeeds(allSeeds)}, strategies ${strategies.join(", ")}, ${jobs} job${jobs > 1 ? "s" : ""}`);
  const rows = await runFamilyBench({ seeds, strategies, budgetFactor, params, portBase, jobs, log });
  if (values.json !== undefined) {
    const out = values.json.endsWith(".csv") ? familyRowsCsv(rows) : JSON.stringify({ seeds, split, strategies, budgetFactor, params: params ?? {}, summary: summarizeFamily(rows), rows }, null, 2) + "\n";
    fs.writeFileSync(values.json, out);
    log(`per-seed rows written to ${values.json}`);
  }
  const summarized = [...new Set(rows.map((row) => row.seed))].length;
  console.log(`Site family, ${split} seeds (${summarized} of ${describeSeeds(allSeeds)}): requests to 90 % of the targets\n\n${formatFamilySummary(summarizeFamily(rows))}`);
  console.log(`\nMedian ÷ BFS by density regime (seeds):\n\n${formatFamilyByRegime(rows)}`);
  log(`${((Date.now() - started) / 1000).toFixed(0)} s`);
  return 0;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function describeSeeds(seeds: readonly number[]): string {
  const contiguous = seeds.every((seed, i) => i === 0 || seed === seeds[i - 1]! + 1);
  return contiguous && seeds.length > 2 ? `seeds ${seeds[0]}..${seeds.at(-1)}` : `seed${seeds.length > 1 ? "s" : ""} ${seeds.join(", ")}`;
}

/** `--family-seeds`: "a..b" (inclusive) or a comma-separated list. */
function parseSeedRange(raw: string): number[] {
  const m = /^\s*(\d+)\s*\.\.\s*(\d+)\s*$/.exec(raw);
  if (m) {
    const [from, to] = [Number(m[1]), Number(m[2])];
    if (from < 1 || to < from || to - from >= 20_000) throw new CliUsageError(`--family-seeds must be a..b with 1 ≤ a ≤ b (at most 20000 seeds), got "${raw}"`);
    return range(from, to);
  }
  if (!/^\s*\d+(\s*,\s*\d+)*\s*$/.test(raw)) throw new CliUsageError(`--family-seeds must be a..b or a comma-separated list of seeds, got "${raw}"`);
  return [...new Set(raw.split(",").map((seed) => parseIntegerOption("family-seeds", seed.trim(), { min: 1, max: 60_000 })!))];
}

function parseStrategies(raw: string | undefined): BenchStrategy[] | undefined {
  if (raw === undefined) return undefined;
  const strategies = raw.split(",").map((s) => s.trim()) as BenchStrategy[];
  for (const strategy of strategies) {
    const known = strategy === "sb-paper" || ((STRATEGIES as readonly string[]).includes(strategy) && strategy !== "sb-oracle");
    if (!known) throw new CliUsageError(`--strategies: unknown strategy "${strategy}"`);
  }
  return strategies;
}

function parseBudgetFactor(raw: string | undefined): number {
  const budgetFactor = raw === undefined ? 1.3 : Number(raw);
  if (!(budgetFactor > 0 && budgetFactor <= 20)) throw new CliUsageError(`--budget-factor must be a number in (0, 20], got "${raw}"`);
  return budgetFactor;
}

function parseParams(raw: string | undefined): Record<string, unknown> | undefined {
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw new CliUsageError(`--params must be JSON, e.g. '{"banditAlpha":1}'`);
  }
}

/** One entry of `--seeds`. */
function parseSeed(raw: string): number {
  if (raw.trim() === "") throw new CliUsageError("--seeds needs a comma-separated list of integers, e.g. 1,2,3");
  return parseIntegerOption("seeds", raw.trim(), { min: 0, max: 2 ** 31 - 1 })!;
}

/** `forage bench-run <json>`: one benchmark crawl in this process (used by `forage bench`). */
export async function benchRunCommand(argv: string[]): Promise<number> {
  const [json] = argv;
  if (!json) throw new CliUsageError("bench-run needs its input as JSON");
  const result = await runBenchCrawl(JSON.parse(json) as BenchRunInput);
  console.log(JSON.stringify(result));
  return 0;
}

/** `forage bench --recrawl`: the re-crawl benchmark on the evolving catalogue (lib/bench/recrawl-bench.ts). */
async function recrawlBenchCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { items: { type: "string" }, seed: { type: "string" }, budget: { type: "string" } });
  const items = parseIntegerOption("items", values.items, { min: 10, max: 100_000 }) ?? 600;
  const seed = parseIntegerOption("seed", values.seed, { min: 0, max: 2 ** 31 - 1 }) ?? 1;
  const budget = parseIntegerOption("budget", values.budget, { min: 1 }) ?? 100_000;
  const rows = await runRecrawlBench({ items, seed, budget, log: (line) => console.error(`[bench] ${line}`) });
  console.log(formatRecrawlBench(rows));
  return 0;
}

/** `forage bench --recrawl --family N`: re-crawls of evolving family sites (lib/bench/recrawl-family-bench.ts). */
async function recrawlFamilyBenchCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, {
    family: { type: "string" },
    from: { type: "string" },
    split: { type: "string" },
    budget: { type: "string" },
    params: { type: "string" },
    json: { type: "string" },
    "port-base": { type: "string" },
  });
  const count = parseIntegerOption("family", values.family, { min: 1, max: 10_000 })!;
  const from = parseIntegerOption("from", values.from, { min: 1, max: 10_000 }) ?? 1;
  if (from + count - 1 >= APPLICATION_SEEDS_FROM) throw new CliUsageError(`--from ${from} --family ${count} reaches seed ${from + count - 1}: only seeds below ${APPLICATION_SEEDS_FROM} (the family's own sites) evolve`);
  const allSeeds = range(from, from + count - 1);
  const split = (values.split ?? "validation") as SplitChoice;
  if (!SPLITS.includes(split)) throw new CliUsageError(`--split must be one of ${SPLITS.join(", ")}, got "${values.split}"`);
  const seeds = seedsOfSplit(allSeeds, split);
  if (seeds.length === 0) throw new CliUsageError(`no ${split} seed among ${describeSeeds(allSeeds)} (odd seeds tune, even seeds validate)`);
  const budget = parseIntegerOption("budget", values.budget, { min: 1 }) ?? undefined;
  const settings = parseParams(values.params);
  const portBase = parseIntegerOption("port-base", values["port-base"], { min: 1024, max: 65000 }) ?? 44_000;
  const maxSeed = Math.max(...seeds);
  if (portBase + maxSeed > 65_535) throw new CliUsageError(`--port-base ${portBase} + seed ${maxSeed} is above port 65535 (seed s listens on port-base + s)`);
  const started = Date.now();
  const log = (line: string) => console.error(`[bench] ${line}`);
  log(`re-crawl family: ${seeds.length} ${split} seed${seeds.length > 1 ? "s" : ""} of ${describeSeeds(allSeeds)}`);
  const rows = await runRecrawlFamilyBench({ seeds, budget, portBase, settings, log });
  const summary = summarizeRecrawlFamily(rows);
  if (values.json !== undefined) {
    fs.writeFileSync(values.json, JSON.stringify({ seeds, split, budget: budget ?? null, settings: settings ?? {}, summary, rows }, null, 2) + "\n");
    log(`per-seed rows written to ${values.json}`);
  }
  console.log(`Re-crawls of evolving family sites, ${split} seeds (${describeSeeds(seeds)}): versions 2 and 3, each a month after the last run\n\n${formatRecrawlFamilySeeds(rows)}`);
  console.log(`\nBy kind of site (marks its changes or not; where its new items are listed):\n\n${formatRecrawlFamilySummary(summary)}`);
  log(`${((Date.now() - started) / 1000).toFixed(0)} s`);
  return 0;
}
