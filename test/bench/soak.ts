/**
 * Soak bench: many harvests of many hosts for a long time, one worker, the dashboard polled every
 * second (test/bench/soak-run.ts says what runs and what is read).
 *
 *   npm run bench:soak -- [--minutes 60] [--hosts 100] [--delay-ms 2000] [--requests 60]
 *                         [--sample-seconds 30] [--database-url postgresql://…/scratch] [--out DIR]
 *
 * Prints the judged figures (memory growth after the first ten minutes, CPU per request,
 * event-loop p99, open descriptors, database size, errors) and writes the samples as CSV and
 * the curves as an SVG picture into --out (default docs/images).
 */
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../lib/store/migrations";
import { runSoak, summariseSoak, type SoakSample } from "./soak-run";
import { soakCurvesSvg } from "./soak-svg";

function option(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
}

function positive(name: string, fallback: number): number {
  const value = Number(option(name, String(fallback)));
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} must be a positive number (got "${option(name, "")}")`);
    process.exit(2);
  }
  return value;
}

const COLUMNS: Array<keyof SoakSample> = [
  "atSeconds", "requests", "runsFinished", "runsFailed", "workerRssBytes", "workerCpuMs", "workerFds", "workerLoopP99Ms",
  "dashboardRssBytes", "dashboardCpuMs", "dashboardFds", "dashboardLoopP99Ms", "databaseBytes",
];

async function main(): Promise<void> {
  const minutes = positive("minutes", 60);
  const hosts = Math.round(positive("hosts", 100));
  const delayMs = positive("delay-ms", 2_000);
  const requestsPerRun = Math.round(positive("requests", 60));
  const sampleSeconds = positive("sample-seconds", 30);
  const out = path.resolve(PROJECT_ROOT, option("out", "docs/images"));
  const databaseUrl = process.argv.includes("--database-url") ? option("database-url", "") : undefined;
  console.error(`soak: ${minutes} min, ${hosts} hosts, ${delayMs} ms delay, ${requestsPerRun} requests a run, ${databaseUrl ? "PostgreSQL" : "SQLite"}`);
  const result = await runSoak({ durationMs: minutes * 60_000, hosts, delayMs, requestsPerRun, sampleEveryMs: sampleSeconds * 1000, databaseUrl, progress: (line) => console.error(line) });
  const settleSeconds = Math.min(600, (minutes * 60) / 6);
  const summary = summariseSoak(result.samples, settleSeconds);
  const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
  const pct = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;
  console.log(`\nSoak: ${minutes} min, ${hosts} hosts (harvest every minute), ${delayMs} ms delay, ${databaseUrl ? "PostgreSQL" : "SQLite"}; dashboard polled ${result.polls} times\n`);
  console.log("| figure | value |");
  console.log("|---|---|");
  console.log(`| requests / runs finished | ${summary.requests} / ${summary.runsFinished} |`);
  console.log(`| worker CPU per request | ${summary.workerCpuMsPerRequest.toFixed(2)} ms |`);
  console.log(`| worker RSS after ${(settleSeconds / 60).toFixed(1)} min → end | ${mb(result.samples.find((s) => s.atSeconds >= settleSeconds)?.workerRssBytes ?? 0)} → ${mb(result.samples.at(-1)!.workerRssBytes)} MB (${pct(summary.workerRssGrowth)}) |`);
  console.log(`| dashboard RSS growth after ${(settleSeconds / 60).toFixed(1)} min | ${pct(summary.dashboardRssGrowth)} |`);
  console.log(`| event-loop p99, worst sample (worker / dashboard) | ${summary.workerLoopP99MaxMs.toFixed(0)} / ${summary.dashboardLoopP99MaxMs.toFixed(0)} ms |`);
  console.log(`| open descriptors, most (worker / dashboard) | ${summary.workerFdsMax} / ${summary.dashboardFdsMax} |`);
  console.log(`| database size at the end | ${mb(summary.databaseBytes)} MB |`);
  console.log(`| errors | ${result.errors.length} |`);
  for (const error of result.errors.slice(0, 20)) console.log(`  - ${error}`);
  fs.mkdirSync(out, { recursive: true });
  const csv = [COLUMNS.join(","), ...result.samples.map((sample) => COLUMNS.map((column) => sample[column]).join(","))].join("\n");
  fs.writeFileSync(path.join(out, "soak-samples.csv"), `${csv}\n`);
  fs.writeFileSync(path.join(out, "soak-curves.svg"), soakCurvesSvg(result.samples, { title: `Soak: ${minutes} min, ${hosts} hosts, ${databaseUrl ? "PostgreSQL" : "SQLite"}` }));
  console.log(`\nSamples: ${path.relative(PROJECT_ROOT, path.join(out, "soak-samples.csv"))}; curves: ${path.relative(PROJECT_ROOT, path.join(out, "soak-curves.svg"))}`);
  if (result.errors.length > 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
