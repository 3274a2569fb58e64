/**
 * Fuzz bench: every target of test/fuzz/*.fuzz.ts for 100,000 generated inputs, each in its own
 * child process (a target's heap and caches do not weigh on the next), one after the other.
 *
 *   node --import tsx test/bench/fuzz.ts [--runs 100000] [--seed S] [--only a,b] [--except c,d]
 *
 * `--only` / `--except`: comma-separated parts of target names to run / to leave out.
 *
 * Prints a table: target, inputs, failures (with fast-check's counterexample and the seed and path
 * that replay it), seconds, peak heap growth vs the target's bound, heap retained after a full
 * collection. Exits 1 when a target failed or passed its bound.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fuzzFiles, loadTargets, runMeasured, type TargetReport } from "../fuzz/load-targets";

interface Options {
  runs: number;
  seed: number;
  only: string | null;
  except: string[];
  child: string | null;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { runs: 100_000, seed: Date.now() % 2 ** 31, only: null, except: [], child: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === "--runs") options.runs = Number(value());
    else if (arg === "--seed") options.seed = Number(value());
    else if (arg === "--only") options.only = value();
    else if (arg === "--except") options.except = value().split(",");
    else if (arg === "--child") options.child = value();
    else throw new Error(`unknown option ${arg}`);
  }
  if (!Number.isInteger(options.runs) || options.runs < 1) throw new Error("--runs must be a positive whole number");
  if (!Number.isInteger(options.seed)) throw new Error("--seed must be a whole number");
  return options;
}

/** Child: runs the one target named exactly `--only` of file `--child` and prints its report as JSON. */
async function runChild(options: Options): Promise<void> {
  const target = (await loadTargets(options.child!)).find((t) => t.name === options.only);
  if (!target) throw new Error(`no target ${options.only} in ${options.child}`);
  const report = await runMeasured(target, options.runs, options.seed);
  process.stdout.write(`\n@@report ${JSON.stringify(report)}\n`);
}

async function runParent(options: Options): Promise<void> {
  const reports: TargetReport[] = [];
  console.log(`fuzz bench: ${options.runs} inputs per target, seed ${options.seed}`);
  for (const file of fuzzFiles()) {
    for (const target of await loadTargets(file)) {
      if (options.only !== null && !options.only.split(",").some((part) => target.name.includes(part))) continue;
      if (options.except.some((part) => target.name.includes(part))) continue;
      const child = spawnSync(
        process.execPath,
        ["--import", "tsx", "--expose-gc", import.meta.filename, "--child", file, "--only", target.name, "--runs", String(options.runs), "--seed", String(options.seed)],
        { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
      );
      const line = child.stdout.split("\n").find((l) => l.startsWith("@@report "));
      const report: TargetReport = line
        ? (JSON.parse(line.slice("@@report ".length)) as TargetReport)
        : { name: target.name, inputs: options.runs, memoryBoundMiB: target.memoryBoundMiB, failure: `child exited ${child.status ?? child.signal}: ${child.stderr.slice(-2000)}`, peakGrowthMiB: NaN, retainedMiB: NaN, seconds: NaN };
      reports.push(report);
      console.log(`${path.basename(file)}  ${row(report)}`);
    }
  }
  console.log("\n| target | inputs | failures | seconds | peak heap growth MiB / bound | retained MiB |\n|---|---:|---:|---:|---:|---:|");
  for (const r of reports) console.log(`| ${r.name} | ${r.inputs} | ${r.failure ? 1 : 0} | ${r.seconds.toFixed(1)} | ${r.peakGrowthMiB.toFixed(1)} / ${r.memoryBoundMiB} | ${r.retainedMiB.toFixed(1)} |`);
  const failed = reports.filter((r) => r.failure !== null || !(r.peakGrowthMiB < r.memoryBoundMiB));
  for (const r of failed) console.log(`\n### ${r.name}\n${r.failure ?? `peak heap growth ${r.peakGrowthMiB.toFixed(1)} MiB over the bound ${r.memoryBoundMiB} MiB`}`);
  process.exitCode = failed.length > 0 ? 1 : 0;
}

function row(r: TargetReport): string {
  const verdict = r.failure ? "FAILED" : r.peakGrowthMiB < r.memoryBoundMiB ? "ok" : "OVER BOUND";
  return `${r.name}: ${verdict}, ${r.seconds.toFixed(1)} s, peak +${r.peakGrowthMiB.toFixed(1)} MiB (bound ${r.memoryBoundMiB})`;
}

const options = parseArgs(process.argv.slice(2));
if (options.child !== null) await runChild(options);
else await runParent(options);
