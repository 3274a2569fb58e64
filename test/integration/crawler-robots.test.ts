import { afterEach, describe, expect, it } from "vitest";
import { page, runTestCrawl, startRouteSite, type Route, type TestSite } from "../helpers/crawl-fixtures";

const ROBOTS = "User-agent: *\nDisallow: /private/\n";

/** /private/ is linked directly (a page and a target), from a second page, and reached by a redirect. */
function routes(robots: Route): Record<string, Route> {
  return {
    "/robots.txt": robots,
    "/": page(["/a", "/private/x", "/private/data.csv", "/r"]),
    "/a": page(["/b", "/private/y"]),
    "/b": page([]),
    "/r": { status: 302, headers: { location: "/private/z" } },
    "/private/x": page(["/private/deeper"]),
    "/private/y": page([]),
    "/private/z": page([]),
    "/private/deeper": page([]),
    "/private/data.csv": { type: "text/csv", body: "a,b\n1,2\n" },
  };
}

const DISALLOWED = ["/private/x", "/private/data.csv", "/private/z", "/private/y"];

let site: TestSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

describe("crawl engine and robots.txt", () => {
  it("never requests a disallowed URL (linked, redirected to, or a target), counts each as a robots skip with an uncounted row", async () => {
    site = await startRouteSite(routes({ type: "text/plain", body: ROBOTS }));
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl });

    expect(crawl.stopReason).toBe("site-exhausted");
    expect(site.log.filter((r) => r.path.startsWith("/private/"))).toEqual([]);
    // robots.txt is read once, as an uncounted "robots" row.
    expect(site.paths().filter((p) => p === "/robots.txt")).toHaveLength(1);
    expect(crawl.rows.filter((row) => row.kind === "robots")).toMatchObject([{ seq: 0, status: 200, url: `${site.origin}/robots.txt` }]);

    const skips = crawl.rows.filter((row) => row.outcome === "robots-disallowed");
    expect(skips.map((row) => new URL(row.url).pathname).sort()).toEqual([...DISALLOWED].sort());
    for (const row of skips) {
      expect(row).toMatchObject({ seq: 0, status: null, bytes: 0 });
      expect(row.error).toMatch(/^robots\.txt: /);
    }
    expect(crawl.counters.robotsSkips).toBe(DISALLOWED.length);
    // The allowed part is crawled completely; skips cost no budget.
    expect(site.paths("GET")).toEqual(expect.arrayContaining(["/", "/a", "/b", "/r"]));
    expect(crawl.counters.requests).toBe(crawl.counted.length);
    expect(crawl.counted.every((row) => !row.url.includes("/private/"))).toBe(true);
  });

  it("fetches the disallowed URLs when obeyRobots is false, without reading robots.txt", async () => {
    site = await startRouteSite(routes({ type: "text/plain", body: ROBOTS }));
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, politeness: { obeyRobots: false } });

    expect(crawl.stopReason).toBe("site-exhausted");
    expect(site.saw("/robots.txt")).toBe(false);
    for (const path of [...DISALLOWED, "/private/deeper"]) expect(site.saw(path), path).toBe(true);
    expect(crawl.counters.robotsSkips).toBe(0);
    expect(crawl.rows.some((row) => row.outcome === "robots-disallowed")).toBe(false);
    expect(crawl.sink.targets.map((t) => new URL(t.url).pathname)).toEqual(["/private/data.csv"]);
  });

  it.each([500, 503])("treats a robots.txt answering %i as disallow-all: nothing but robots.txt is requested", async (status) => {
    site = await startRouteSite(routes({ status, type: "text/plain", body: "down" }));
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl });

    expect(site.log).toEqual([{ method: "GET", path: "/robots.txt" }]);
    expect(crawl.counters.requests).toBe(0);
    expect(crawl.counted).toEqual([]);
    expect(crawl.counters.robotsSkips).toBe(1);
    expect(crawl.rows.map((row) => [row.kind, row.outcome, row.status, new URL(row.url).pathname])).toEqual([
      ["robots", "ok", status, "/robots.txt"],
      ["page", "robots-disallowed", null, "/"],
    ]);
    // Not "site exhausted": the cockpit shows "Failed: robots.txt refuses the root URL (…)".
    expect(crawl.stopReason).toBe("failed");
    expect(crawl.stopDetail).toMatch(new RegExp(`^robots\\.txt refuses the root URL \\(${status}`));
  });

  it("is refused what a group shared across a Sitemap line forbids (RFC 9309 2.2.4)", async () => {
    site = await startRouteSite(routes({ type: "text/plain", body: "User-agent: Forage\nSitemap: /sitemap.xml\nUser-agent: OtherBot\nDisallow: /private/\n" }));
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl });

    expect(crawl.stopReason).toBe("site-exhausted");
    expect(site.log.filter((r) => r.path.startsWith("/private/"))).toEqual([]);
    expect(crawl.counters.robotsSkips).toBe(DISALLOWED.length);
  });

  it("crawls everything when Forage's own group is empty, whatever the * group says (RFC 9309 5.1)", async () => {
    site = await startRouteSite(routes({ type: "text/plain", body: "User-agent: *\nDisallow: /\n\nUser-agent: Forage\n" }));
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl });

    expect(crawl.stopReason).toBe("site-exhausted");
    expect(crawl.counters.robotsSkips).toBe(0);
    for (const path of [...DISALLOWED, "/private/deeper"]) expect(site.saw(path), path).toBe(true);
  });
});
