/**
 * What rendering a script-built page costs: a shell page whose script fetches a JSON listing and
 * writes its links, rendered `--pages` times through one browser pool (`--contexts` at once), every
 * subrequest answered from a site on 127.0.0.1 in this process, as the engine would. Prints CPU ms
 * per rendered page (the browser's whole process tree, plus this process: Playwright's side, the
 * site and the answers), wall ms per page, the pool's resident memory (largest seen, and after),
 * its proportional memory (PSS: RSS counts Chromium's shared code in every process), and
 * subrequests per page. The browser's start is measured apart (one page before the runs), and a
 * page without scripts afterwards: the floor a fresh context per page costs.
 * Aims (issue #37): at most 150 ms CPU per rendered page; the pool under 1 GiB with the defaults.
 *
 *   npx tsx test/bench/render-cost.ts [--pages 50] [--contexts 2]
 */
import { loadConfig } from "../../lib/config";
import { BrowserPool } from "../../lib/render/browser-pool";
import { findChromium, INSTALL_CHROMIUM_HINT } from "../../lib/render/chromium-path";
import { ChromiumRenderer } from "../../lib/render/chromium-renderer";
import { treePssBytes } from "../../lib/render/process-tree";
import { engineSide, SHELL_PAGE, startRenderSite } from "../helpers/render-site";

function arg(name: string, fallback: string): string {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1]! : fallback;
}
const PAGES = Number(arg("pages", "50"));
const CONTEXTS = Number(arg("contexts", "2"));

const MIB = 1024 * 1024;

function processCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const executablePath = findChromium(config.chromiumPath);
  if (!executablePath) throw new Error(`no Chromium: ${INSTALL_CHROMIUM_HINT}`);
  const site = await startRenderSite();
  const pool = new BrowserPool({ executablePath, maxContexts: CONTEXTS });
  const renderer = new ChromiumRenderer(pool, { pageTimeLimitMs: config.renderPageMs });
  const engine = engineSide(site.origin);
  const render = (index: number) => renderer.render({ url: `${site.origin}/datasets?run=${index}`, html: SHELL_PAGE, headers: { "content-type": "text/html" }, fetch: engine.fetch });

  try {
    const startCpu = processCpuMs();
    const startWall = performance.now();
    const first = await render(-1);
    if (first.error || !first.html?.includes("/datasets/p1-0")) throw new Error(`the first page did not render: ${first.error ?? "no links"}`);
    const startup = { cpuMs: pool.cpuMs() + processCpuMs() - startCpu, wallMs: performance.now() - startWall };

    const pss = () => (pool.browserPid() === null ? 0 : treePssBytes(pool.browserPid()!));
    let largestRss = pool.memoryBytes();
    let largestPss = pss();
    const sampling = setInterval(() => {
      largestRss = Math.max(largestRss, pool.memoryBytes());
      largestPss = Math.max(largestPss, pss());
    }, 250);
    const cpuBefore = pool.cpuMs() + processCpuMs();
    const wallBefore = performance.now();
    const results = await Promise.all(Array.from({ length: PAGES }, (_, index) => render(index)));
    const wallMs = performance.now() - wallBefore;
    const cpuMs = pool.cpuMs() + processCpuMs() - cpuBefore;
    clearInterval(sampling);
    largestRss = Math.max(largestRss, pool.memoryBytes());

    // The floor: a page of the same site without scripts or subrequests (a navigation of the site's kept context).
    const floorPages = Math.max(1, Math.round(PAGES / 2));
    const floorBefore = pool.cpuMs() + processCpuMs();
    await Promise.all(Array.from({ length: floorPages }, (_, index) => renderer.render({ url: `${site.origin}/static-${index}`, html: "<!doctype html><p>static</p>", headers: {}, fetch: engine.fetch })));
    const floorCpuMs = (pool.cpuMs() + processCpuMs() - floorBefore) / floorPages;

    const failed = results.filter((result) => result.error || !result.html?.includes("/datasets/p1-4"));
    if (failed.length > 0) throw new Error(`${failed.length} of ${PAGES} pages did not render: ${failed[0]!.error ?? "links missing"}`);
    const subrequests = results.reduce((sum, result) => sum + result.subrequests.answered + result.subrequests.refused + result.subrequests.blocked, 0);
    const pageMs = results.map((result) => result.durationMs).sort((a, b) => a - b);

    const rows: Array<[string, string]> = [
      ["pages rendered", `${PAGES} (${CONTEXTS} contexts at once)`],
      ["browser start + first page", `${startup.cpuMs.toFixed(0)} ms CPU, ${startup.wallMs.toFixed(0)} ms wall`],
      ["CPU per rendered page", `${(cpuMs / PAGES).toFixed(1)} ms (browser tree + this process; aim ≤ 150)`],
      ["CPU per static page (the floor)", `${floorCpuMs.toFixed(1)} ms (a navigation of the site's kept page, no script)`],
      ["wall per page (throughput)", `${(wallMs / PAGES).toFixed(1)} ms`],
      ["one page's render (median / p90)", `${pageMs[Math.floor(PAGES / 2)]} / ${pageMs[Math.floor(PAGES * 0.9)]} ms`],
      ["pool RSS, largest", `${(largestRss / MIB).toFixed(0)} MiB (counts the code shared by Chromium's processes once per process)`],
      ["pool RSS, after", `${(pool.memoryBytes() / MIB).toFixed(0)} MiB`],
      ["pool PSS, largest / after", `${(largestPss / MIB).toFixed(0)} / ${(pss() / MIB).toFixed(0)} MiB (shared pages divided among the processes; aim < 1024)`],
      ["subrequests per page", `${(subrequests / PAGES).toFixed(1)}`],
    ];
    const width = Math.max(...rows.map(([name]) => name.length));
    console.log(`render cost (${executablePath})`);
    for (const [name, value] of rows) console.log(`  ${name.padEnd(width)}  ${value}`);
  } finally {
    await pool.close();
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
});
