/**
 * The recipes against the real applications, installed from Debian and served on loopback
 * (scripts/real-apps/<app>.sh): what `forage detect` recognises there and on what evidence;
 * each enumeration of the recipe paged through to its end (as shipped, and with small pages so
 * that the continuation is exercised) and its files compared with those the script uploaded;
 * then crawls as the worker runs them (runBenchCrawl) — SB with recipes, SB without, BFS.
 *
 *   npm run bench:real-apps -- [--app mediawiki] [--dir DIR] [--files 300] [--budget 1500] [--port 8391]
 *
 * --dir reuses an instance set up earlier (`scripts/real-apps/mediawiki.sh setup DIR`); without
 * it a fresh one is set up in a temporary folder (and the time it takes is printed). Exit 2 when
 * the application's packages are missing (the message names the apt-get line).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runBenchCrawl, type BenchRunResult } from "../../lib/bench/bench-run";
import type { Strategy } from "../../lib/crawl-config";
import { detectApplications } from "../../lib/recipes/detect-application";
import { loadRecipes } from "../../lib/recipes/load-recipes";
import type { Enumeration } from "../../lib/recipes/recipe-schema";
import {
  fetchText,
  fileName,
  instanceFiles,
  missingPackages,
  readWholeEnumeration,
  serveInstance,
  setupInstance,
  type RealApp,
} from "../../scripts/real-apps/real-app-instance";

/**
 * The target types: the generated CSV, PDF, XLSX and ZIP files. The scripts upload PNG and GIF
 * images too; the enumerations must list them, but a crawl's default settings block images
 * (extensions and MIME prefixes), so they are not counted as files a crawl should find.
 */
const TARGET_MIME_TYPES = ["text/csv", "application/pdf", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "application/zip"];
const TARGET_EXTENSIONS = /\.(csv|pdf|xlsx|zip)$/i;

/**
 * Per application, the enumeration read again in small pages (query parameters replaced), so
 * that its continuation runs through many pages. `known` marks a reading the application itself
 * gets wrong (said in the output, not counted as a failure of the recipe).
 */
const SMALL_PAGES: Record<RealApp, Array<{ label: string; query: Record<string, string>; known?: string }>> = {
  mediawiki: [
    {
      label: "50 a page, newest first",
      query: { ailimit: "50" },
      known:
        "MediaWiki 1.39 orders aisort=timestamp by img_timestamp alone while its continuation assumes (timestamp, name): files uploaded in the same second are repeated and skipped at page boundaries whenever the database breaks ties otherwise (SQLite: by row; MariaDB: by name through the index, but ascending under a filesort)",
    },
    { label: "50 a page, by name", query: { ailimit: "50", aisort: "name", aidir: "ascending" } },
  ],
  wordpress: [{ label: "20 a page", query: { per_page: "20" } }],
};

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

function withQuery(enumeration: Enumeration, query: Record<string, string>): Enumeration {
  const paging = enumeration.paging;
  const resized = (paging.kind === "page" || paging.kind === "offset") && paging.sizeParam && query[paging.sizeParam] !== undefined;
  return {
    ...enumeration,
    query: { ...enumeration.query, ...query },
    ...(resized ? { paging: { ...paging, size: Number(query[paging.sizeParam!]) } } : {}),
  } as Enumeration;
}

/** Counted requests when `share` of the files named in `names` were stored (Infinity when never). */
function requestsToShare(result: BenchRunResult, names: ReadonlySet<string>, share: number): number {
  const needed = Math.ceil(names.size * share);
  let found = 0;
  for (const [index, url] of result.targetUrls.entries()) {
    if (!names.has(fileName(url))) continue;
    found += 1;
    if (found >= needed) return result.targetSeqs[index]!;
  }
  return Infinity;
}

const format = (n: number) => (Number.isFinite(n) ? n.toLocaleString("en-US") : "never");

async function main(): Promise<number> {
  const app = (option("app") ?? "mediawiki") as RealApp;
  if (app !== "mediawiki" && app !== "wordpress") throw new Error(`--app must be mediawiki or wordpress, not ${app}`);
  const missing = missingPackages(app);
  if (missing) {
    console.error(missing);
    return 2;
  }
  const port = Number(option("port") ?? 8391);
  const budget = Number(option("budget") ?? 1500);
  let dir = option("dir");
  let temporary = false;
  if (!dir) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `forage-real-${app}-`));
    temporary = true;
    console.log(`setting up ${app} in ${dir}…`);
    const setup = setupInstance(app, dir, Number(option("files") ?? 300));
    console.log(`${setup.output}\nsetup took ${(setup.ms / 1000).toFixed(1)} s`);
  }
  const { uploaded, linked } = instanceFiles(dir);
  const wanted = new Set(uploaded.filter((name) => TARGET_EXTENSIONS.test(name)));
  const wantedLinked = new Set(linked.filter((name) => TARGET_EXTENSIONS.test(name)));
  const uploadedNames = new Set(uploaded);
  const served = await serveInstance(app, dir, port);
  let failures = 0;
  try {
    // 1. Recognition, as `forage detect` does it.
    const recipes = loadRecipes().map((loaded) => loaded.recipe);
    const report = await detectApplications(served.rootUrl, recipes, fetchText);
    console.log(`\n## Recognition (${report.requests} requests) of ${report.pageUrl}`);
    for (const detection of report.detections) {
      console.log(`- ${detection.recipe.id} ${detection.version ?? ""} at ${detection.base}: probe ${detection.probe.state}${detection.probe.url ? ` (${detection.probe.url})` : ""}${detection.probe.detail ? `: ${detection.probe.detail}` : ""}`);
      for (const evidence of detection.evidence) console.log(`    evidence: ${evidence}`);
    }
    const detection = report.detections.find((found) => found.recipe.id === app);
    if (!detection || detection.probe.state !== "confirmed") {
      console.error(`${app} was not recognised and confirmed`);
      failures += 1;
    }

    // 2. Each enumeration to its end, as shipped and in small pages.
    let apiPagesShipped = 0;
    if (detection) {
      console.log(`\n## Enumerations (${uploaded.length} files uploaded, ${linked.length} linked from pages)`);
      for (const shipped of detection.recipe.enumerations) {
        const readings = [{ label: "as shipped", enumeration: shipped, known: undefined as string | undefined }];
        for (const small of SMALL_PAGES[app]) readings.push({ label: small.label, enumeration: withQuery(shipped, small.query), known: small.known });
        for (const { label, enumeration, known } of readings) {
          const run = await readWholeEnumeration(enumeration, detection.base);
          if (label === "as shipped") apiPagesShipped += run.pages;
          const listed = new Set(run.files.map((file) => fileName(file.url)));
          const notListed = uploaded.filter((name) => !listed.has(name));
          const unexpected = [...listed].filter((name) => !uploadedNames.has(name));
          const typed = run.files.filter((file) => file.mime).length;
          const ok = notListed.length === 0 && unexpected.length === 0 && !run.problem && run.files.length === listed.size;
          if (!ok && !known) failures += 1;
          console.log(
            `- ${shipped.id} (${label}): ${run.pages} page(s) [${run.pageRecords.join(", ")}], ${run.files.length} files listed, ${typed} with a MIME type; ` +
              `${ok ? "equal to the uploads" : `MISMATCH: ${notListed.length} not listed (${notListed.slice(0, 3).join(", ")}), ${unexpected.length} unexpected (${unexpected.slice(0, 3).join(", ")})${run.problem ? `, problem: ${run.problem}` : ""}`}`,
          );
          if (!ok && known) console.log(`    known defect of the application: ${known}`);
        }
      }
    }

    // 3. Crawls.
    const runs: Array<{ label: string; strategy: Strategy; applications: { use: boolean } }> = [
      { label: "SB with recipes", strategy: "sb", applications: { use: true } },
      { label: "SB without recipes", strategy: "sb", applications: { use: false } },
      { label: "BFS", strategy: "bfs", applications: { use: false } },
    ];
    const rows = [
      `| run | requests | files found (of ${wanted.size}) | to 90 % of the linked files (${wantedLinked.size}) | to 90 % of all files | API pages to list all | stop | wall s |`,
      "|---|---|---|---|---|---|---|---|",
    ];
    for (const run of runs) {
      const result = await runBenchCrawl({
        rootUrl: served.rootUrl,
        strategy: run.strategy,
        seed: 1,
        budgetRequests: budget,
        targetMimeTypes: TARGET_MIME_TYPES,
        applications: run.applications,
      });
      const found = new Set(result.targetUrls.map(fileName).filter((name) => wanted.has(name))).size;
      const apiPages = run.applications.use ? String(apiPagesShipped) : "–";
      rows.push(
        `| ${run.label} | ${format(result.requests)} | ${found} | ${format(requestsToShare(result, wantedLinked, 0.9))} | ${format(requestsToShare(result, wanted, 0.9))} | ${apiPages} | ${result.stopReason} | ${(result.wallMs / 1000).toFixed(1)} |`,
      );
      console.log(`  ${run.label}: ${result.requests} requests, ${found} files, ${(result.wallMs / 1000).toFixed(1)} s`);
    }
    console.log(`\n## Crawls (budget ${budget} requests, seed 1)\n${rows.join("\n")}`);
  } finally {
    await served.stop();
    if (temporary) fs.rmSync(dir, { recursive: true, force: true });
  }
  return failures === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
