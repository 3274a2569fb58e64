import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { page, pathOf, runTestCrawl, startRouteSite, startTestSite, sendRoute, type TestSite } from "../helpers/crawl-fixtures";

let sim: RunningSite;
beforeAll(async () => {
  sim = await startSiteServer(buildSite({ shape: "statistics-office", seed: 1, size: "tiny" }));
});
afterAll(() => sim.close());

let site: TestSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

describe("crawl budgets and stop reasons", () => {
  it("stops at exactly budget.requests counted requests, and the site saw exactly those", async () => {
    const before = sim.requestCount();
    const crawl = await runTestCrawl({ rootUrl: sim.rootUrl, budget: { requests: 25 } });

    expect(crawl.stopReason).toBe("budget-requests");
    expect(crawl.counters.requests).toBe(25);
    expect(crawl.counters.getRequests + crawl.counters.headRequests).toBe(25);
    expect(crawl.counted.map((row) => row.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    // 25 counted requests + robots.txt (uncounted): nothing else reached the server.
    expect(sim.requestCount() - before).toBe(26);
  });

  it("stops with budget-bytes at the first request that reaches budget.bytes", async () => {
    const limit = 150_000;
    const crawl = await runTestCrawl({ rootUrl: sim.rootUrl, budget: { requests: 10_000, bytes: limit } });

    expect(crawl.stopReason).toBe("budget-bytes");
    const bytes = crawl.counted.map((row) => row.bytes);
    const total = bytes.reduce((a, b) => a + b, 0);
    expect(total).toBe(crawl.counters.targetBytes + crawl.counters.nonTargetBytes);
    expect(total).toBeGreaterThanOrEqual(limit);
    expect(total - bytes.at(-1)!).toBeLessThan(limit);
    expect(crawl.counters.requests).toBeLessThan(10_000);
  });

  it("stops with budget-time once budget.seconds of running time are spent (slow server)", async () => {
    const delayMs = 150;
    const slow = await startSiteServer(buildSite({ shape: "statistics-office", seed: 1, size: "tiny" }), { delayMs });
    try {
      const crawl = await runTestCrawl({ rootUrl: slow.rootUrl, budget: { requests: 10_000, seconds: 1 } });
      expect(crawl.stopReason).toBe("budget-time");
      expect(crawl.counters.activeMs).toBeGreaterThanOrEqual(1000);
      // No request starts after the deadline: at most one request (and robots.txt) of overshoot.
      expect(crawl.counters.activeMs).toBeLessThan(1000 + 3 * delayMs + 500);
      expect(crawl.counters.requests).toBeGreaterThanOrEqual(3);
      expect(crawl.counters.requests).toBeLessThanOrEqual(Math.ceil(1000 / delayMs));
    } finally {
      await slow.close();
    }
  });

  it("ends with site-exhausted on a finite site, having fetched every page and file once", async () => {
    site = await startRouteSite({
      "/": page(["/a", "/b", "/f.csv"]),
      "/a": page(["/b", "/", "/c", "/a#top"]),
      "/b": page(["/a", "/g.json"]),
      "/c": page([]),
      "/f.csv": { type: "text/csv", body: "x\n1\n" },
      "/g.json": { type: "application/json", body: "[]" },
    });
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, budget: { requests: 1000 } });

    expect(crawl.stopReason).toBe("site-exhausted");
    const gets = site.paths("GET").filter((path) => path !== "/robots.txt");
    // And /sitemap.xml, where a site without Sitemap lines in robots.txt may have one (404 here).
    expect([...gets].sort()).toEqual(["/", "/a", "/b", "/c", "/f.csv", "/g.json", "/sitemap.xml"]);
    // Each new link is typed once (HEAD, the classifier being untrained on so few labels).
    expect([...site.paths("HEAD")].sort()).toEqual(["/a", "/b", "/c", "/f.csv", "/g.json"]);
    expect(crawl.counters.requests).toBe(12);
    expect(crawl.sink.targets.map((t) => pathOf(t.url)).sort()).toEqual(["/f.csv", "/g.json"]);
  });

  it("stops early (early-stop) when the targets run out, well before the budget", async () => {
    // Eight files on the home page, then an endless chain of pages without any.
    site = await startTestSite((req, res) => {
      const path = req.url ?? "/";
      if (path === "/") return sendRoute(page([...Array.from({ length: 8 }, (_, i) => `/files/${i}.csv`), "/p/1"]), req, res);
      if (path.startsWith("/files/")) return sendRoute({ type: "text/csv", body: `n\n${path}\n` }, req, res);
      const n = /^\/p\/(\d+)$/.exec(path)?.[1];
      if (n) return sendRoute(page([`/p/${Number(n) + 1}`]), req, res);
      sendRoute({ status: 404, body: "no" }, req, res);
    });
    const window = 20;
    const crawl = await runTestCrawl({
      rootUrl: site.rootUrl,
      budget: { requests: 2000 },
      // No sitemap request after the root: the windows then close on multiples of `window`.
      params: { earlyStopWindowRequests: window, earlyStopPatienceWindows: 2, earlyStopBeta: 0.5, useSitemaps: false },
    });

    expect(crawl.stopReason).toBe("early-stop");
    expect(crawl.sink.targets).toHaveLength(8);
    const windows = crawl.sink.metricRows.filter((row) => row.slope !== null);
    expect(windows.length).toBeGreaterThanOrEqual(3);
    windows.forEach((row, i) => expect(row.requests).toBe((i + 1) * window));
    // e = β e + (1 − β) s from e₁ = s₁; stop at the second consecutive window with e < τ = 0.01.
    let ema = 0;
    windows.forEach((row, i) => {
      ema = i === 0 ? row.slope! : 0.5 * ema + 0.5 * row.slope!;
      expect(row.ema).toBeCloseTo(ema, 12);
    });
    expect(windows.map((row) => row.patience).slice(-3)).toEqual([0, 1, 2]);
    // Stops within one page of the window that ran out of patience.
    const stoppedAt = windows.at(-1)!.requests;
    expect(crawl.counters.requests).toBeGreaterThanOrEqual(stoppedAt);
    expect(crawl.counters.requests).toBeLessThanOrEqual(stoppedAt + 2);
    expect(crawl.counters.requests).toBeLessThan(400);
  });
});
