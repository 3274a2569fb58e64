import { afterEach, describe, expect, it } from "vitest";
import { page, pathOf, runTestCrawl, sendRoute, startTestSite, type TestSite } from "../helpers/crawl-fixtures";

let site: TestSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

/** Sequences over {a, b} with each letter at most twice: 1 + 2 + 4 + 6 + 6. */
const REPEAT_TRAP_PAGES = 19;

describe("robot traps", () => {
  it("a relative-link trap (/docs/a/b/a/b/a/…) stops where a segment would occur 3 times", async () => {
    site = await startTestSite((req, res) => {
      const path = req.url ?? "/";
      if (path === "/") return sendRoute(page(["/docs/"]), req, res);
      // Every page under /docs/ links "a/" and "b/" relatively: an infinite tree of URLs.
      if (/^\/docs\/([ab]\/)*$/.test(path)) return sendRoute(page(["a/", "b/"]), req, res);
      sendRoute({ status: 404, body: "no" }, req, res);
    });
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, budget: { requests: 500 } });

    expect(crawl.stopReason).toBe("site-exhausted");
    const docs = [...new Set(site.paths().filter((path) => path.startsWith("/docs/")))];
    expect(docs).toHaveLength(REPEAT_TRAP_PAGES);
    expect(docs).toContain("/docs/a/b/a/b/");
    for (const path of docs) {
      const segments = path.split("/").filter(Boolean);
      for (const letter of ["a", "b"]) expect(segments.filter((s) => s === letter).length, path).toBeLessThanOrEqual(2);
    }
    expect(crawl.counters.requests).toBeLessThan(2 * (REPEAT_TRAP_PAGES + 2));
  });

  it("an ever-deeper URL trap stops at the URL length limit (root length + trapExtraLengthChars)", async () => {
    const extra = 150;
    site = await startTestSite((req, res) => {
      const path = req.url ?? "/";
      if (path === "/") return sendRoute(page(["/deep/"]), req, res);
      // /deep/level-1-abcdef/level-2-abcdef/…: no segment repeats, only the length grows.
      if (path.startsWith("/deep/")) {
        const depth = path.split("/").filter(Boolean).length;
        return sendRoute(page([`level-${depth}-abcdef/`]), req, res);
      }
      sendRoute({ status: 404, body: "no" }, req, res);
    });
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, params: { trapExtraLengthChars: extra } });

    expect(crawl.stopReason).toBe("site-exhausted");
    const limit = site.rootUrl.length + extra;
    const urls = crawl.counted.map((row) => row.url);
    const longest = Math.max(...urls.map((url) => url.length));
    expect(longest).toBeLessThanOrEqual(limit);
    // The deepest page fetched is the last one under the limit: its child would cross it.
    const segment = "level-00-abcdef/".length;
    expect(longest).toBeGreaterThan(limit - segment);
    expect(crawl.counters.requests).toBeLessThan(40);
  });

  it("a server that stamps a new session id on every link is crawled once, not forever", async () => {
    let sessions = 0;
    const sections = ["/stats/a.do", "/stats/b.do", "/stats/c.do"];
    site = await startTestSite((req, res) => {
      const path = (req.url ?? "/").replace(/;jsessionid=[^?]*/, "");
      // A Java portal without a cookie from the client: a new session, written into every link.
      const id = `;jsessionid=${(++sessions).toString(16).padStart(8, "0")}`;
      if (path === "/" || sections.some((s) => path.startsWith(s))) {
        return sendRoute(page([...sections.map((s) => `${s}${id}?lang=en`), `/files/table.csv${id}`]), req, res);
      }
      if (path === "/files/table.csv") return sendRoute({ type: "text/csv", body: "year,value\n2024,1\n" }, req, res);
      sendRoute({ status: 404, body: "no" }, req, res);
    });
    const crawl = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "bfs", budget: { requests: 200 } });

    expect(crawl.stopReason).toBe("site-exhausted");
    const gets = crawl.counted.filter((row) => row.method === "GET").map((row) => pathOf(row.url));
    expect(gets.sort()).toEqual(["/", "/files/table.csv", "/stats/a.do?lang=en", "/stats/b.do?lang=en", "/stats/c.do?lang=en"]);
    expect(crawl.counted.filter((row) => row.method === "HEAD")).toHaveLength(4); // the root's four links, typed once each
    expect(crawl.sink.targets).toHaveLength(1);
  });

  /**
   * A small data section next to an infinite calendar (each month links the previous and next
   * month and three events). Depth-first falls into the calendar for good; SB-CLASSIFIER learns
   * that the calendar's groups give nothing and finds every target.
   */
  async function calendarSite(): Promise<TestSite> {
    const tools = `<div class="tools"><a class="calendar-link" href="/cal?m=600">Calendar</a></div>`;
    return startTestSite((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      const m = Number(url.searchParams.get("m"));
      let html: string | null = null;
      if (url.pathname === "/") html = `<html><body><nav class="main"><a href="/data">Data</a></nav>${tools}</body></html>`;
      else if (url.pathname === "/data") html = page([1, 2, 3, 4, 5].map((k) => `/data/s${k}`), tools);
      else if (/^\/data\/s[1-5]$/.test(url.pathname)) {
        const k = url.pathname.slice(-1);
        html = `<html><body><table class="files">${[1, 2, 3, 4, 5].map((i) => `<tr><td><a href="/files/${k}-${i}.csv">csv</a></td></tr>`).join("")}</table>${tools}</body></html>`;
      } else if (url.pathname === "/cal") {
        const events = [1, 2, 3].map((n) => `<li><a class="event" href="/event?m=${m}&n=${n}">event</a></li>`).join("");
        html = `<html><body><nav class="cal"><a class="prev" href="/cal?m=${m - 1}">prev</a><a class="next" href="/cal?m=${m + 1}">next</a></nav><ul class="events">${events}</ul></body></html>`;
      } else if (url.pathname === "/event") html = `<html><body><article><a class="back" href="/cal?m=${m}">back</a></article></body></html>`;
      else if (url.pathname.startsWith("/files/")) return sendRoute({ type: "text/csv", body: `file,${url.pathname}\n` }, req, res);
      sendRoute(html === null ? { status: 404, body: "no" } : html, req, res);
    });
  }

  it("an infinite calendar does not eat the budget of SB-CLASSIFIER (depth-first, as a control, never leaves it)", async () => {
    site = await calendarSite();
    const budget = { requests: 200 };
    const sb = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "sb", budget });
    const dfs = await runTestCrawl({ rootUrl: site.rootUrl, strategy: "dfs", budget });
    const isCalendar = (url: string) => /^\/(cal|event)\b/.test(pathOf(url));
    const lastTarget = Math.max(...sb.sink.targets.map((t) => t.requestSeq));
    const calendarBeforeLast = sb.counted.filter((row) => row.seq <= lastTarget && isCalendar(row.url)).length;
    console.log(
      `calendar trap: sb found ${sb.sink.targets.length}/25 targets by request ${lastTarget} (${calendarBeforeLast} calendar requests before); ` +
        `dfs ${dfs.sink.targets.length}/25 with ${dfs.counted.filter((row) => isCalendar(row.url)).length}/${dfs.counters.requests} calendar requests`,
    );

    expect(sb.sink.targets).toHaveLength(25);
    expect(calendarBeforeLast).toBeLessThan(lastTarget / 2);
    // The calendar is infinite: whatever is left of the budget ends there.
    expect(sb.stopReason).toBe("budget-requests");
    expect(dfs.stopReason).toBe("budget-requests");
    expect(dfs.sink.targets).toHaveLength(0);
  });
});
