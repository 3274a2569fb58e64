/**
 * Script-built sites crawled with `render` off and auto: each shape of lib/sitesim/scripted
 * through the real engine and HttpFetcher (MemorySink, no politeness delay) with the Chromium
 * renderer a worker uses (2 contexts, 15 s per page). Prints, per shape and mode: the files found
 * of the site's truth, counted requests (the browser's among them), pages rendered, the browser's
 * CPU per rendered page (its whole process tree) and the pool's largest resident memory.
 * Aims (issue #37): ≥ 95 % of the files with auto where off finds none; ≤ 150 ms CPU per rendered
 * page; the pool under 1 GiB.
 *
 *   npm run bench:render-sites [-- --seed 1]
 */
import { scriptBuiltSigns } from "../../lib/crawler/render-need";
import { createRenderer } from "../../lib/render/chromium-renderer";
import { buildSite, scriptedTruth, SCRIPTED_SHAPES, type ScriptedShape } from "../../lib/sitesim";
import { pathOf, runTestCrawl, startSimulatedSite } from "../helpers/crawl-fixtures";

const seedAt = process.argv.indexOf("--seed");
const SEED = seedAt >= 0 ? Number(process.argv[seedAt + 1]) : 1;
const MIB = 1024 * 1024;

async function main(): Promise<void> {
  const made = createRenderer({ chromiumPath: process.env.FORAGE_CHROMIUM_PATH ?? null, renderContexts: 2, renderPageMs: 15_000 });
  if (!made.renderer) throw new Error(made.why);
  const renderer = made.renderer;
  let maxRss = 0;
  const sampler = setInterval(() => (maxRss = Math.max(maxRss, renderer.pool.memoryBytes())), 200);
  const rows: string[][] = [];
  try {
    for (const shape of Object.keys(SCRIPTED_SHAPES) as ScriptedShape[]) {
      const built = buildSite({ shape, seed: SEED, size: "tiny" });
      const truth = scriptedTruth(built);
      for (const render of ["off", "auto"] as const) {
        const site = await startSimulatedSite(built);
        const cpuBefore = renderer.pool.cpuMs();
        const started = performance.now();
        const result = await runTestCrawl(
          { rootUrl: site.rootUrl, seed: SEED, render, budget: { requests: 5_000 }, params: { earlyStop: false } },
          { rendering: { renderer, unavailable: null, signs: scriptBuiltSigns } },
        );
        const wallS = (performance.now() - started) / 1000;
        await site.close();
        const found = new Set(result.sink.targets.map((target) => pathOf(target.url)));
        const hits = truth.targets.filter((path) => found.has(path)).length;
        const rendered = result.counters.renderedPages;
        const browserCpu = renderer.pool.cpuMs() - cpuBefore;
        rows.push([
          shape,
          render,
          `${hits} / ${truth.targets.length} (${((100 * hits) / truth.targets.length).toFixed(0)} %)`,
          String(result.counted.length),
          String(result.counted.filter((row) => row.kind === "render").length),
          String(rendered),
          rendered > 0 ? (browserCpu / rendered).toFixed(0) : "–",
          wallS.toFixed(1),
        ]);
        console.error(`[bench] ${shape} ${render}: ${rows.at(-1)!.slice(2).join(" · ")}`);
      }
    }
  } finally {
    clearInterval(sampler);
    await renderer.pool.close();
  }
  const header = ["shape", "render", "files found", "requests", "of them the browser's", "pages rendered", "browser CPU ms / rendered page", "wall s"];
  console.log(`| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
  console.log(`\nbrowser pool: largest resident memory ${(maxRss / MIB).toFixed(0)} MiB (2 contexts)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
