import type http from "node:http";
import { describe, expect, it } from "vitest";
import { page, pathOf, runTestCrawl, sendRoute, startTestSite, type TestCrawlResult } from "../helpers/crawl-fixtures";

/** A site of `sections` listing pages, each linking two more pages and two CSV files (paths by number). */
function siteRoutes(sections: number): Record<string, string> {
  const routes: Record<string, string> = {};
  routes["/"] = page(Array.from({ length: sections }, (_, i) => `/section/${i}`));
  for (let i = 0; i < sections; i++) {
    routes[`/section/${i}`] = page([`/section/${i}/a`, `/section/${i}/b`, `/files/s${i}-1.csv`, `/files/s${i}-2.csv`]);
    routes[`/section/${i}/a`] = page([`/files/s${i}-a.csv`]);
    routes[`/section/${i}/b`] = page([]);
  }
  return routes;
}

/** Serves `routes` to GET (CSV under /files/), and answers every HEAD with `headStatus`. */
function headRefusingHandler(routes: Record<string, string>, headStatus: number) {
  return (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method === "HEAD") return void res.writeHead(headStatus, { "content-type": "text/html", "content-length": "0" }).end();
    const path = req.url ?? "/";
    if (path.startsWith("/files/")) return sendRoute({ type: "text/csv", body: "year,value\n2024,1\n" }, req, res);
    const html = routes[path];
    if (html === undefined) return sendRoute({ status: 404, body: "not found" }, req, res);
    sendRoute(html, req, res);
  };
}

const csvCount = (sections: number) => sections * 3;

async function crawlBehind(headStatus: number): Promise<{ result: TestCrawlResult; heads: string[] }> {
  const sections = 12;
  const site = await startTestSite(headRefusingHandler(siteRoutes(sections), headStatus));
  try {
    const result = await runTestCrawl({ rootUrl: site.rootUrl, budget: { requests: 400 } });
    expect(result.sink.targets).toHaveLength(csvCount(sections));
    return { result, heads: site.paths("HEAD") };
  } finally {
    await site.close();
  }
}

describe("a server that answers HEAD with an error while GET works", () => {
  for (const status of [403, 404]) {
    it(`(HEAD ${status}) is found out by one GET check, and the classifier learns from GET answers`, async () => {
      const { result, heads } = await crawlBehind(status);
      expect(result.stopReason).toBe("site-exhausted");
      // One HEAD, checked by a GET of the same URL: the site refuses HEAD, no HEAD after that.
      expect(heads).toEqual(["/section/0"]);
      expect(result.sink.events.filter((e) => e.kind === "head-refused").map((e) => e.data)).toEqual([{ status }]);
      // Untrained, the classifier types every link as a page; the GETs label them, and once it has
      // learnt, CSV links are downloaded from their page at once ("target" requests), not pulled as pages.
      const csvRequests = result.counted.filter((row) => pathOf(row.url).startsWith("/files/"));
      const downloadedAtOnce = csvRequests.filter((row) => row.kind === "target");
      const pulledAsPages = csvRequests.filter((row) => row.kind === "page");
      expect(pulledAsPages.length).toBeGreaterThan(0);
      expect(downloadedAtOnce.length).toBeGreaterThan(csvRequests.length / 2);
      expect(csvRequests.at(-1)!.kind).toBe("target");
    });
  }

  it("a site whose first links are really dead keeps its HEAD bootstrap after a bounded number of GET checks", async () => {
    const routes: Record<string, string> = {
      "/": page(["/dead/1", "/dead/2", "/dead/3", "/dead/4", "/dead/5", "/ok", "/files/one.csv"]),
      "/ok": page(["/files/two.csv"]),
    };
    const site = await startTestSite((req, res) => {
      const path = req.url ?? "/";
      if (path.startsWith("/files/")) return sendRoute({ type: "text/csv", body: "a,b\n1,2\n" }, req, res);
      const html = routes[path];
      if (html === undefined) return sendRoute({ status: 404, body: "not found" }, req, res);
      sendRoute(html, req, res);
    });
    try {
      const result = await runTestCrawl({ rootUrl: site.rootUrl });
      expect(result.sink.targets.map((t) => pathOf(t.url)).sort()).toEqual(["/files/one.csv", "/files/two.csv"]);
      expect(result.sink.events.filter((e) => e.kind === "head-refused")).toEqual([]);
      // Three GET checks of dead links at most, then the HEADs go on (and type /ok and the files).
      const deadGets = site.paths("GET").filter((p) => p.startsWith("/dead/"));
      expect(deadGets).toEqual(["/dead/1", "/dead/2", "/dead/3"]);
      expect(site.paths("HEAD")).toEqual(["/dead/1", "/dead/2", "/dead/3", "/dead/4", "/dead/5", "/ok", "/files/one.csv", "/files/two.csv"]);
    } finally {
      await site.close();
    }
  });
});
