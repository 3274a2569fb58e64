import { runInNewContext } from "node:vm";
import v8 from "node:v8";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrawlEngine, type CrawlRun } from "../../lib/crawler/engine/create-engine";
import { MemorySink } from "../../lib/crawler/engine/memory-sink";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { buildSite } from "../../lib/sitesim";
import { page, runTestCrawl, sendRoute, startSimulatedSite, startTestSite, testCrawlConfig, type TestSite } from "../helpers/crawl-fixtures";

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
const heapUsed = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

const PAGES = 40;
const LINKS_PER_PAGE = 25;
/** ≈ 200 KB of text per section page. */
const FILLER = `<p>${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(3500)}</p>`;

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite((req, res) => {
    const path = req.url ?? "/";
    if (path === "/") return sendRoute(page(Array.from({ length: PAGES }, (_, k) => `/s/${k}`)), req, res);
    const section = /^\/s\/(\d+)$/.exec(path)?.[1];
    if (section !== undefined) {
      const items = Array.from(
        { length: LINKS_PER_PAGE },
        (_, i) => `<li><a href="/s/${section}/release-${i}">Statistical release number ${i} of section ${section}</a></li>`,
      ).join("");
      return sendRoute(`<html><body>${FILLER}<ul class="releases">${items}</ul></body></html>`, req, res);
    }
    sendRoute(page([]), req, res);
  });
});
afterAll(() => site.close());

describe("frontier memory", () => {
  /*
   * Strings cut from a page (anchor texts, class names in tag paths) are V8 slices that keep
   * the whole page alive. The frontier must hold only its own strings: 40 pages × 200 KB of
   * HTML and 1 000 frontier links may retain < 2 MB (it retained ≈ 8 MB before the fix).
   */
  it("frontier links do not keep the HTML of the pages they were found on alive", async () => {
    const baseline = heapUsed();
    let sink: MemorySink | null = new MemorySink(false);
    let run: CrawlRun | null = createCrawlEngine({
      // BFS crawls the home page and the 40 section pages first; their 1 000 release links stay in the frontier.
      config: testCrawlConfig({ rootUrl: site.rootUrl, strategy: "bfs", budget: { requests: 80 } }),
      sink,
      signal: new AbortController().signal,
      politeness: new HostPoliteness(),
      keepPageBodies: false,
    });
    await run.engine.run();
    await run.close();
    const frontier = run.counters.frontierSize;
    const withEngine = heapUsed();
    run = null;
    sink = null;
    const retained = withEngine - heapUsed();
    console.log(`engine holds ${(retained / 1024 / 1024).toFixed(2)} MiB for a frontier of ${frontier} links (heap grew ${((withEngine - baseline) / 1024 / 1024).toFixed(2)} MiB)`);
    expect(frontier).toBeGreaterThan(700);
    expect(retained).toBeLessThan(2 * 1024 * 1024);
  });
});

describe("HTTP connections", () => {
  /*
   * undici closes a connection after a HEAD (nodejs/undici#258); on a shared pool every later
   * GET then opened a new connection (80 requests → ~80 connections). HEADs have their own
   * pool, so a crawl opens no more connections than HEAD requests plus a few.
   */
  it("reuses keep-alive connections: a crawl opens no more connections than HEAD requests plus a few", async () => {
    const sim = await startSimulatedSite(buildSite({ shape: "statistics-office", seed: 1, size: "tiny" }));
    try {
      const crawl = await runTestCrawl({ rootUrl: sim.rootUrl, strategy: "bfs", budget: { requests: 80 } });
      console.log(`${crawl.counters.requests} requests (${crawl.counters.headRequests} HEAD) over ${sim.connections()} connections`);
      expect(crawl.counters.getRequests).toBeGreaterThan(60);
      expect(sim.connections()).toBeLessThanOrEqual(crawl.counters.headRequests + 3);
    } finally {
      await sim.close();
    }
  });
});
