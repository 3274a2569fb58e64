/**
 * Application-aware crawling, measured: each simulated application (lib/sitesim/applications)
 * crawled by SB with its recipes and without, and by BFS, as the worker runs crawls (runBenchCrawl:
 * Prisma sink, files on disk, 0 ms politeness), the site served by another process.
 *
 *   npm run bench:applications -- [--seeds 1,2] [--only ckan-portal:standard]
 *
 * Per shape and variant: the targets (files the HTML reaches, and those only the API lists), the
 * API floor (API pages listing every file at the recipe's page size), requests to 90 % of the
 * files the HTML reaches (the basis both runs share) and of all files, the aim
 * (≤ 1.1 × (API floor + 90 % of the targets)), and CPU per request.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { runBenchCrawl, type BenchRunResult } from "../../lib/bench/bench-run";
import { buildSite, SIM_TARGET_MIME_TYPES } from "../../lib/sitesim";
import { applicationTruth } from "../../lib/sitesim/applications/truth";
import type { SiteSize } from "../../lib/sitesim/types";
import { PROJECT_ROOT } from "../../lib/store/migrations";

interface Case {
  shape: "ckan-portal" | "wordpress-site";
  variant: string;
  size: SiteSize;
}

const CASES: Case[] = [
  { shape: "ckan-portal", variant: "standard", size: "large" },
  { shape: "ckan-portal", variant: "sub-path", size: "medium" },
  { shape: "ckan-portal", variant: "api-error", size: "medium" },
  { shape: "ckan-portal", variant: "off-site-files", size: "medium" },
  { shape: "ckan-portal", variant: "robots-disallow-api", size: "medium" },
  { shape: "wordpress-site", variant: "standard", size: "medium" },
  { shape: "wordpress-site", variant: "rest-disabled-401", size: "medium" },
  { shape: "wordpress-site", variant: "rest-disabled-404", size: "medium" },
];

const PORT = 43_100;

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

async function serve(item: Case, seed: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "lib/sitesim/serve-main.ts", "--shape", item.shape, "--variant", item.variant, "--seed", String(seed), "--size", String(item.size), "--port", String(PORT)],
    { cwd: PROJECT_ROOT, stdio: ["ignore", "ignore", "inherit"] },
  );
  for (let attempt = 0; attempt < 400; attempt++) {
    const up = await fetch(`http://127.0.0.1:${PORT}/robots.txt`).then(() => true, () => false);
    if (up) return child;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  child.kill();
  throw new Error(`the site ${item.shape}/${item.variant} did not start on port ${PORT}`);
}

/** Counted requests when `count` of the files in `paths` were stored (Infinity when never). */
function requestsTo(result: BenchRunResult, paths: ReadonlySet<string>, count: number): number {
  let found = 0;
  for (const [index, url] of result.targetUrls.entries()) {
    if (!paths.has(new URL(url).pathname)) continue;
    found += 1;
    if (found >= count) return result.targetSeqs[index]!;
  }
  return Infinity;
}

const format = (n: number) => (Number.isFinite(n) ? n.toLocaleString("en-US") : "never");

async function main(): Promise<void> {
  const seeds = (option("seeds") ?? "1").split(",").map(Number);
  const only = option("only");
  const rows: string[] = [];
  rows.push("| site | variant | files (HTML / API only) | API floor | run | requests | to 90 % of HTML files | to 90 % of all files | aim ≤ | CPU ms / request |");
  rows.push("|---|---|---|---|---|---|---|---|---|---|");
  for (const item of CASES) {
    if (only && only !== `${item.shape}:${item.variant}`) continue;
    for (const seed of seeds) {
      const site = buildSite({ shape: item.shape, seed, size: item.size, variant: item.variant });
      const truth = applicationTruth(site);
      const htmlFiles = new Set(truth.htmlFiles);
      const allFiles = new Set(truth.targets);
      const floor = truth.apiFloor?.pages ?? 0;
      const aim = Math.ceil(1.1 * (floor + 0.9 * allFiles.size));
      const server = await serve(item, seed);
      try {
        for (const run of [
          { label: "sb + recipes", strategy: "sb" as const, applications: { use: true } },
          { label: "sb, HTML only", strategy: "sb" as const, applications: { use: false } },
          { label: "bfs", strategy: "bfs" as const, applications: { use: false } },
        ]) {
          const result = await runBenchCrawl({
            rootUrl: `http://127.0.0.1:${PORT}/`,
            strategy: run.strategy,
            seed,
            budgetRequests: Math.max(2_000, Math.ceil((site.groundTruth().htmlPages.length + site.groundTruth().targets.length) * 1.3)),
            targetMimeTypes: [...SIM_TARGET_MIME_TYPES],
            applications: run.applications,
          });
          const to90Html = requestsTo(result, htmlFiles, Math.ceil(0.9 * htmlFiles.size));
          const to90All = requestsTo(result, allFiles, Math.ceil(0.9 * allFiles.size));
          rows.push(
            `| ${item.shape} ${item.size} #${seed} | ${item.variant} | ${format(htmlFiles.size)} / ${format(truth.apiOnlyFiles.length)} | ${truth.apiFloor ? format(floor) : "–"} | ${run.label} | ${format(result.requests)} | ${format(to90Html)} | ${format(to90All)} | ${format(aim)} | ${(result.cpuMs / Math.max(1, result.requests)).toFixed(2)} |`,
          );
          process.stderr.write(`${rows.at(-1)}\n`);
        }
      } finally {
        server.kill();
        await new Promise((resolve) => server.once("exit", resolve));
      }
    }
  }
  console.log(rows.join("\n"));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
