/**
 * Crawls of script-built sites (lib/sitesim/scripted) through the real engine, HttpFetcher and a
 * real Chromium (lib/render): what `render` off / auto finds, that plain pages are never rendered,
 * that a page's scripts reach nothing the crawl's rules refuse, and that a script that never ends
 * costs a time limit, not the crawl.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scriptBuiltSigns } from "@/lib/crawler/render-need";
import type { CreateEngineOptions } from "@/lib/crawler/engine/create-engine";
import { ChromiumRenderer, createRenderer } from "@/lib/render/chromium-renderer";
import { buildSite, scriptedTruth, type ScriptedShape } from "@/lib/sitesim";
import { pathOf, runTestCrawl, startSimulatedSite, type TestSite } from "../helpers/crawl-fixtures";
import { listenOnFreePort } from "../helpers/ports";

let renderer: ChromiumRenderer;

beforeAll(() => {
  const made = createRenderer({ chromiumPath: null, renderContexts: 2, renderPageMs: 8_000 });
  if (!made.renderer) throw new Error(`these tests need Chromium: ${made.why}`);
  renderer = made.renderer;
});

afterAll(async () => {
  await renderer?.pool.close();
});

const withBrowser = (): NonNullable<CreateEngineOptions["rendering"]> => ({ renderer, unavailable: null, signs: scriptBuiltSigns });

async function crawlShape(shape: ScriptedShape, render: "off" | "auto", rendering: CreateEngineOptions["rendering"], budget = 1_500) {
  const built = buildSite({ shape, seed: 1, size: "tiny" });
  const truth = scriptedTruth(built);
  const site = await startSimulatedSite(built);
  try {
    const result = await runTestCrawl({ rootUrl: site.rootUrl, render, budget: { requests: budget }, params: { earlyStop: false } }, { rendering });
    const found = new Set(result.sink.targets.map((target) => pathOf(target.url)));
    const recall = truth.targets.filter((path) => found.has(path)).length / truth.targets.length;
    return { result, truth, recall, found };
  } finally {
    await site.close();
  }
}

describe("crawling script-built sites", () => {
  // The whole listing (≈ 75 shells) takes a minute of rendering: its full recall is measured by `npm run bench:render`; here a budget cuts it short.
  it("finds nothing on a scripted listing with render off; with auto, renders only its shells and finds their files", async () => {
    const off = await crawlShape("scripted-listing", "off", withBrowser());
    expect(off.truth.htmlTargets).toEqual([]);
    expect(off.result.sink.targets).toHaveLength(0);
    expect(off.result.counters.renderedPages).toBe(0);

    const auto = await crawlShape("scripted-listing", "auto", withBrowser(), 90);
    expect(auto.found.size).toBeGreaterThan(10);
    expect([...auto.found].filter((path) => !auto.truth.targets.includes(path))).toEqual([]);
    // The home page is plain HTML: never rendered. Every rendered page is a shell of the truth.
    const rendered = auto.result.counters.renderedPages;
    expect(rendered).toBeGreaterThan(0);
    const renderedUrls = new Set(auto.result.counted.filter((row) => row.kind === "render").map((row) => pathOf(row.referrer!)));
    expect([...renderedUrls].filter((path) => !auto.truth.shells.includes(path))).toEqual([]);
    // The browser's requests are counted requests of the crawl, logged as kind "render".
    const renderRows = auto.result.counted.filter((row) => row.kind === "render");
    expect(renderRows.length).toBeGreaterThan(0);
    expect(renderRows.every((row) => !row.isTarget)).toBe(true);
    expect(auto.result.sink.events.find((event) => event.kind === "render-reason")?.message).toMatch(/^Rendering pages in a browser because /);
    expect(auto.result.sink.events.find((event) => event.kind === "render-summary")?.message).toMatch(new RegExp(`^Rendered ${rendered} pages in a browser: `));
  });

  it("follows Load more buttons and infinite scroll to ≥ 95 % of the files", async () => {
    for (const shape of ["load-more", "infinite-scroll"] as const) {
      const auto = await crawlShape(shape, "auto", withBrowser());
      expect(auto.recall, shape).toBeGreaterThanOrEqual(0.95);
    }
  });

  it("without a browser, says once that pages need one and crawls on with the HTML", async () => {
    const none = await crawlShape("scripted-listing", "auto", { renderer: null, unavailable: "no Chromium found: install Chromium", signs: scriptBuiltSigns });
    expect(none.result.stopReason).toBe("site-exhausted");
    const told = none.result.sink.events.filter((event) => event.kind === "render-unavailable");
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain("no Chromium found");
    expect(none.result.counters.renderedPages).toBe(0);
  });

  it("renders no page of a plain-HTML site in auto", async () => {
    const built = buildSite({ shape: "statistics-office", seed: 2, size: "tiny" });
    const site = await startSimulatedSite(built);
    try {
      const result = await runTestCrawl({ rootUrl: site.rootUrl, render: "auto", budget: { requests: 300 } }, { rendering: withBrowser() });
      expect(result.counted.length).toBeGreaterThan(100);
      expect(result.counters.renderedPages).toBe(0);
      expect(result.counted.some((row) => row.kind === "render")).toBe(false);
    } finally {
      await site.close();
    }
  });
});

describe("what a rendered page's scripts may reach", () => {
  let canary: http.Server;
  let canaryHits = 0;
  let canaryUrl = "";

  beforeAll(async () => {
    canary = http.createServer((_req, res) => {
      canaryHits += 1;
      res.end("reached");
    });
    canary.on("connection", () => void (canaryHits += 1));
    await listenOnFreePort(canary);
    canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/secret`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => canary.close(() => resolve()));
  });

  it("reaches no forbidden address, whatever the scripts try, and still finds the honest files", async () => {
    const forbidden = [canaryUrl, "http://169.254.169.254/latest/meta-data/", "http://[::ffff:169.254.169.254]/", "http://0xA9FEA9FE/", "http://10.0.0.1/"];
    const built = buildSite({ shape: "hostile-scripted", seed: 1, size: "tiny", forbiddenUrls: forbidden });
    const truth = scriptedTruth(built);
    const site: TestSite = await startSimulatedSite(built);
    const sitePort = new URL(site.origin).port;
    try {
      // As a server would run it: no private network but the site's own address and port.
      const result = await runTestCrawl(
        { rootUrl: site.rootUrl, render: "auto", allowPrivateNetwork: false, budget: { requests: 600 } },
        { rendering: withBrowser(), privateNetworks: [`127.0.0.1/32:${sitePort}`] },
      );
      expect(result.counters.renderedPages).toBeGreaterThan(0);
      expect(canaryHits).toBe(0);
      const forbiddenHosts = new Set(forbidden.map((url) => new URL(url).host));
      expect(result.rows.filter((row) => forbiddenHosts.has(new URL(row.url).host))).toEqual([]);
      const found = new Set(result.sink.targets.map((target) => pathOf(target.url)));
      expect(truth.targets.filter((path) => found.has(path)).length / truth.targets.length).toBeGreaterThanOrEqual(0.95);
    } finally {
      await site.close();
    }
  });

  it("ends a page whose script never stops at the time limit and goes on with the crawl", async () => {
    const started = performance.now();
    const auto = await crawlShape("never-ending", "auto", withBrowser());
    expect(auto.result.stopReason).toBe("site-exhausted");
    // /ping renders all of its links, then polls forever: the page never goes quiet, and its DOM at the time limit has every file.
    const pingFiles = (auto.truth.renderedLinks("/ping") ?? []).filter((path) => auto.truth.targets.includes(path));
    expect(pingFiles.length).toBeGreaterThan(0);
    expect(pingFiles.filter((path) => auto.found.has(path))).toEqual(pingFiles);
    expect(performance.now() - started).toBeLessThan(60_000);
    const cut = auto.result.sink.events.filter((event) => event.kind === "render-failed");
    expect(cut.map((event) => event.message).join("\n")).toMatch(/Could not render http:\/\/127\.0\.0\.1:\d+\/(spin|ping) to the end: time limit of 8000 ms/);
  });
});
