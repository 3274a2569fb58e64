import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pathOf, page, runTestCrawl, sendRoute, startTestSite, type TestSite } from "../helpers/crawl-fixtures";

/**
 * A site whose files are reachable mainly through its sitemap: the pages link one file; 30 more are
 * listed only in a gzip sitemap, which a sitemap index names, which robots.txt names. The index
 * also names an older sitemap of pages (its `lastmod` is older).
 */
const FILES = Array.from({ length: 30 }, (_, i) => `/data/table-${i + 1}.csv`);

function urlset(origin: string, paths: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${origin}${p}</loc><lastmod>2024-05-01</lastmod></url>`).join("")}</urlset>`;
}

let site: TestSite;
beforeAll(async () => {
  site = await startTestSite((req, res) => {
    const origin = `http://${req.headers.host}`;
    const path = req.url ?? "/";
    const routes: Record<string, () => void> = {
      "/robots.txt": () => sendRoute({ type: "text/plain", body: `User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemaps/index.xml\n` }, req, res),
      "/sitemaps/index.xml": () =>
        sendRoute(
          {
            type: "application/xml",
            body: `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>${origin}/sitemaps/pages.xml</loc><lastmod>2020-01-01T00:00:00Z</lastmod></sitemap>
<sitemap><loc>${origin}/sitemaps/files.xml.gz</loc><lastmod>2024-06-01T00:00:00Z</lastmod></sitemap>
</sitemapindex>`,
          },
          req,
          res,
        ),
      "/sitemaps/files.xml.gz": () => sendRoute({ type: "application/x-gzip", body: gzipSync(urlset(origin, FILES)) }, req, res),
      "/sitemaps/pages.xml": () => sendRoute({ type: "application/xml", body: urlset(origin, ["/about", "/news"]) }, req, res),
      "/": () => sendRoute(page(["/about", "/news"]), req, res),
      "/about": () => sendRoute(page([]), req, res),
      "/news": () => sendRoute(page(["/data/linked.csv"]), req, res),
    };
    if (routes[path]) return routes[path]!();
    if (path.startsWith("/data/")) return sendRoute({ type: "text/csv", body: `file,${path}\n` }, req, res);
    sendRoute({ status: 404, body: "not found" }, req, res);
  });
});
afterAll(async () => {
  await site.close();
});

describe("sitemaps as a link source", () => {
  it("sb reads the sitemaps robots.txt names (index, gzip, newest first) and finds the files only they list", async () => {
    const before = site.log.length;
    // Budget 200: sitemap files are capped at 1 % of it, 2 files: the index and its newest sitemap.
    const result = await runTestCrawl({ rootUrl: site.rootUrl, budget: { requests: 200 } });
    const requested = site.log.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(requested).toContain("GET /sitemaps/index.xml");
    expect(requested).toContain("GET /sitemaps/files.xml.gz");
    expect(requested).not.toContain("GET /sitemaps/pages.xml"); // older lastmod, over the cap
    expect(requested).not.toContain("GET /sitemap.xml"); // robots.txt named the sitemaps
    const sitemapRows = result.counted.filter((row) => row.kind === "sitemap");
    expect(sitemapRows.map((row) => pathOf(row.url))).toEqual(["/sitemaps/index.xml", "/sitemaps/files.xml.gz"]);
    expect(result.sink.targets.map((t) => pathOf(t.url)).sort()).toEqual([...FILES, "/data/linked.csv"].sort());
    // The sitemap's URLs are one action, which paid.
    const sitemapGroup = result.groups.find((g) => g.sampleTagPath === "/sitemap");
    expect(sitemapGroup?.totalReward).toBeGreaterThan(0);
    expect(result.sink.events.some((e) => e.kind === "sitemap-read")).toBe(true);
  });

  it("sb-paper reads no sitemap and finds only the linked file", async () => {
    const before = site.log.length;
    const result = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "sb-paper", budget: { requests: 200 } });
    expect(site.log.slice(before).filter((r) => r.path.startsWith("/sitemap"))).toEqual([]);
    expect(result.sink.targets.map((t) => pathOf(t.url))).toEqual(["/data/linked.csv"]);
  });

  it("guesses /sitemap.xml when robots.txt names none", async () => {
    const other = await startTestSite((req, res) => {
      const path = req.url ?? "/";
      const origin = `http://${req.headers.host}`;
      if (path === "/sitemap.xml") return sendRoute({ type: "application/xml", body: urlset(origin, ["/only-in-sitemap.csv"]) }, req, res);
      if (path === "/") return sendRoute(page([]), req, res);
      if (path.endsWith(".csv")) return sendRoute({ type: "text/csv", body: "a\n1\n" }, req, res);
      sendRoute({ status: 404, body: "no" }, req, res);
    });
    try {
      const result = await runTestCrawl({ rootUrl: other.rootUrl });
      expect(result.sink.targets.map((t) => pathOf(t.url))).toEqual(["/only-in-sitemap.csv"]);
    } finally {
      await other.close();
    }
  });
});
