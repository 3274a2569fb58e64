import { crawlConfigSchema, STRATEGIES } from "../../crawl-config";
import { DATA_FILES_MIME_TYPES, DOCUMENT_MIME_TYPES } from "../../crawler/defaults";
import { runBenchCrawl, type BenchRunInput } from "../../bench/bench-run";
import { formatBenchSummary, summarizeBenchRuns, type SeededBenchRows } from "../../bench/bench-summary";
import { formatBenchTable, runBench, type BenchStrategy } from "../../bench/run-bench";
import { SITE_SHAPES, type SiteShape } from "../../sitesim";
import { formatRecrawlBench, runRecrawlBench } from "../../bench/recrawl-bench";
import { CliUsageError } from "../cli-error";
import { parseIntegerOption, parseOptions } from "../parse-options";
import { parseSiteOptions } from "./demo";

export const benchHelp =
  "forage bench [--shapes a,b] [--size small] [--seed N | --seeds 1,2,3] [--strategies sb,bfs,…] [--budget-factor 1.3] [--params JSON] [--port-base N]\n" +
  "             [--target-mime data-files|documents|a/b,c/d]\n" +
  "             every strategy on every simulator shape; prints a Markdown table\n" +
  "             (one per seed, then the means over the seeds)\n" +
  "             (sb-paper = the paper's algorithm exactly, none of Forage's additions)\n" +
  "forage bench --recrawl [--items 600] [--seed N]\n" +
  "             an evolving catalogue: crawl version 1, re-crawl version 2 with --after (with and without checking\n" +
  "             known files) and crawl it afresh; requests, recall of the new files, reported changes vs the truth";

const BENCH_STRATEGIES: BenchStrategy[] = ["sb", "sb-paper", "bfs", "dfs", "random", "focused", "tp-off"];

/** `forage bench`: the crawl-efficiency benchmark (docs/BENCHMARKS.md). */
export async function benchCommand(argv: string[]): Promise<number> {
  if (argv.includes("--recrawl")) return recrawlBenchCommand(argv.filter((arg) => arg !== "--recrawl"));
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
  const shapes = (values.shapes?.split(",").map((s) => s.trim()) ?? Object.keys(SITE_SHAPES)) as SiteShape[];
  for (const shape of shapes) if (!(shape in SITE_SHAPES)) throw new CliUsageError(`--shapes: unknown shape "${shape}" (${Object.keys(SITE_SHAPES).join(", ")})`);
  if (values.seed !== undefined && values.seeds !== undefined) throw new CliUsageError("give --seed or --seeds, not both");
  const { size, seed } = parseSiteOptions({ size: values.size, seed: values.seed });
  const seeds = values.seeds === undefined ? [seed] : values.seeds.split(",").map(parseSeed);
  const strategies = (values.strategies?.split(",").map((s) => s.trim()) ?? BENCH_STRATEGIES) as BenchStrategy[];
  for (const strategy of strategies) {
    const known = strategy === "sb-paper" || ((STRATEGIES as readonly string[]).includes(strategy) && strategy !== "sb-oracle");
    if (!known) throw new CliUsageError(`--strategies: unknown strategy "${strategy}"`);
  }
  if (!strategies.includes("bfs")) strategies.push("bfs"); // the ratio column needs it
  const budgetFactor = values["budget-factor"] === undefined ? 1.3 : Number(values["budget-factor"]);
  if (!(budgetFactor > 0 && budgetFactor <= 20)) throw new CliUsageError(`--budget-factor must be a number in (0, 20], got "${values["budget-factor"]}"`);
  let params: Record<string, unknown> | undefined;
  if (values.params !== undefined) {
    try {
      params = JSON.parse(values.params) as Record<string, unknown>;
    } catch {
      throw new CliUsageError(`--params must be JSON, e.g. '{"banditAlpha":1}'`);
    }
  }
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
