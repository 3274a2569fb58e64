import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { page, pathOf, runTestCrawl, sendRoute, startRouteSite, startTestSite, type Route, type TestCrawlResult, type TestSite } from "../helpers/crawl-fixtures";

const MESSY = `<html><body><div class=x><a href="/m1">one<a href=/m2>two</div></span></p><table><tr><td><a href='/m3'>three
<p><b><i><a href="/m4">four</b></i>`;

/** HEAD says "a page", GET fails: a page whose rendering crashes. */
const headOkGet = (get: Exclude<Route, (...args: never[]) => void>): Route => (req, res) =>
  req.method === "HEAD" ? sendRoute(page([]), req, res) : sendRoute(get, req, res);

/** The first GET is cut: `mode` "before-headers" drops the socket at once, "mid-body" after part of the body. */
function resetOnce(mode: "before-headers" | "mid-body", then: string): Route {
  let resets = 0;
  return (req, res) => {
    if (req.method === "HEAD" || resets > 0) return sendRoute(then, req, res);
    resets += 1;
    if (mode === "before-headers") return void req.socket.destroy();
    const body = Buffer.from(then);
    res.writeHead(200, { "content-type": "text/html", "content-length": String(body.length + 5000) });
    res.write(body.subarray(0, 20), () => setTimeout(() => req.socket.destroy(), 20));
  };
}

let site: TestSite;
let crawl: TestCrawlResult;

beforeAll(async () => {
  site = await startRouteSite({
    "/": page(["/gone", "/crash", "/dead", "/messy", "/reset-early", "/reset-late", "/ok"]),
    // A moved page whose new address is gone: the GET meets a 404 with links in its body.
    "/gone": { status: 301, headers: { location: "/gone-page" } },
    "/gone-page": { status: 404, body: page(["/only-in-404"]) },
    "/crash": headOkGet({ status: 500, body: page(["/only-in-500"]) }),
    "/dead": { status: 404, body: page(["/only-in-dead"]) },
    "/messy": MESSY,
    "/m1": page([]),
    "/m2": page([]),
    "/m3": page([]),
    "/m4": page([]),
    "/reset-early": resetOnce("before-headers", page(["/after-early-reset"])),
    "/reset-late": resetOnce("mid-body", page(["/after-late-reset"])),
    "/after-early-reset": page([]),
    "/after-late-reset": page([]),
    "/ok": page([]),
  });
  crawl = await runTestCrawl({ rootUrl: site.rootUrl });
});

afterAll(() => site.close());

const rowsOf = (path: string, method = "GET") => crawl.counted.filter((row) => row.method === method && pathOf(row.url) === path);

describe("crawl engine and failing pages", () => {
  it("finishes the crawl (site exhausted) despite 404s, 500s, malformed HTML and connection resets", () => {
    expect(crawl.stopReason).toBe("site-exhausted");
    expect(site.paths("GET")).toEqual(expect.arrayContaining(["/", "/ok", "/messy", "/after-early-reset", "/after-late-reset"]));
  });

  it("counts 404 and 500 answers as errors and extracts no links from them", () => {
    expect(rowsOf("/gone-page")).toMatchObject([{ status: 404, outcome: "ok", isTarget: false }]);
    expect(rowsOf("/crash")).toMatchObject([{ status: 500, outcome: "ok" }]);
    // A link whose HEAD is 404 is typed "neither": never crawled.
    expect(rowsOf("/dead", "HEAD")).toMatchObject([{ status: 404, kind: "bootstrap-head" }]);
    expect(rowsOf("/dead")).toEqual([]);
    for (const path of ["/only-in-404", "/only-in-500", "/only-in-dead"]) expect(site.saw(path), path).toBe(false);
  });

  it("extracts every link of malformed HTML", () => {
    for (const path of ["/m1", "/m2", "/m3", "/m4"]) expect(site.saw(path), path).toBe(true);
  });

  it("retries a reset connection (before headers and mid-body) as a new counted request and crawls the page", () => {
    for (const path of ["/reset-early", "/reset-late"]) {
      const rows = rowsOf(path);
      expect(rows.map((row) => row.outcome), path).toEqual(["error", "ok"]);
      expect(rows[0]!.error, path).toMatch(/^connection-reset: /);
      expect(rows[1]!.seq).toBe(rows[0]!.seq + 1);
    }
  });

  it("counts exactly the failed requests as errors", () => {
    const failed = crawl.counted.filter((row) => row.outcome === "error" || (row.status ?? 0) >= 400);
    expect(failed.map((row) => `${row.method} ${pathOf(row.url)}`).sort()).toEqual(
      ["GET /crash", "GET /gone-page", "GET /reset-early", "GET /reset-late", "HEAD /dead", "GET /sitemap.xml"].sort(),
    );
    expect(crawl.counters.errors).toBe(failed.length);
    expect(crawl.counters.requests).toBe(crawl.counted.length);
  });
});

describe("a site that refuses HEAD requests (405)", () => {
  it("types its links as pages, stops sending HEADs after three refusals, and still finds its files by GET", async () => {
    const routes: Record<string, string> = {
      "/": page(["/a", "/b", "/c", "/d", "/e", "/files/report.csv"]),
      "/a": page(["/a/1", "/a/2"]),
      "/a/1": page(["/files/table.csv"]),
    };
    const refusing = await startTestSite((req, res) => {
      if (req.method === "HEAD") return void res.writeHead(405, { allow: "GET", "content-length": "0" }).end();
      const path = req.url ?? "/";
      if (path.startsWith("/files/")) return sendRoute({ type: "text/csv", body: "year,value\n2024,1\n" }, req, res);
      sendRoute(routes[path] ?? page([]), req, res);
    });
    try {
      const result = await runTestCrawl({ rootUrl: refusing.rootUrl });
      expect(result.stopReason).toBe("site-exhausted");
      expect(refusing.paths("HEAD")).toHaveLength(3);
      expect(result.sink.targets.map((t) => pathOf(t.url)).sort()).toEqual(["/files/report.csv", "/files/table.csv"]);
      expect(refusing.paths("GET")).toEqual(expect.arrayContaining(["/a", "/b", "/c", "/d", "/e", "/a/1", "/a/2"]));
      expect(result.sink.events.filter((e) => e.kind === "head-refused").map((e) => e.data)).toEqual([{ status: 405 }]);
    } finally {
      await refusing.close();
    }
  });
});
