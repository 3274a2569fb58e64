/**
 * Politeness as a site operator sees it: several crawls share one worker's HostPoliteness, and
 * every site logs when each request reached it. Whatever kind of request it is (robots.txt,
 * HEAD bootstrap, GET, a redirect hop, a retry after 503, a GET where HEAD was refused, a
 * request from another site's crawl that a redirect sent here), two requests to one host never
 * arrive closer than the delay.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { createCrawlEngine } from "../../lib/crawler/engine/create-engine";
import { MemorySink } from "../../lib/crawler/engine/memory-sink";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { page, testCrawlConfig } from "../helpers/crawl-fixtures";
import { listenOnFreePort } from "../helpers/ports";

const SITES = 8;
const DELAY_MS = 300;
const ROBOTS_TXT = "User-agent: *\nDisallow: /private/\n";

interface Arrival {
  atMs: number;
  method: string;
  path: string;
}

interface GapSite {
  origin: string;
  arrivals: Arrival[];
  server: http.Server;
}

/**
 * One site: robots.txt with a rule, a root page whose links are typed by HEAD, a redirect, a
 * page answering 503 (Retry-After: 0, i.e. "at once") to its first request, a page refusing
 * HEAD, a CSV target, and a download that redirects to the next site's file.
 */
function handler(arrivals: Arrival[], nextOrigin: () => string, robotsTxt: string, retryAfter: string): http.RequestListener {
  let flakyAnswered = false;
  return (req, res) => {
    arrivals.push({ atMs: performance.now(), method: req.method ?? "?", path: req.url ?? "" });
    const html = (body: string, status = 200) =>
      res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(req.method === "HEAD" ? undefined : body);
    switch (req.url) {
      case "/robots.txt":
        return void res.writeHead(200, { "content-type": "text/plain" }).end(robotsTxt);
      case "/":
        return html(page(["/a", "/r", "/flaky", "/no-head", "/data.csv", "/away", "/private/x"]));
      case "/a":
        return html(page(["/b"]));
      case "/b":
        return html(page([]));
      case "/r":
        return void res.writeHead(302, { location: "/moved" }).end();
      case "/moved":
        return html(page(["/c"]));
      case "/c":
        return html(page([]));
      case "/flaky":
        if (!flakyAnswered) {
          flakyAnswered = true;
          return void res.writeHead(503, { "retry-after": retryAfter }).end();
        }
        return html(page([]));
      case "/no-head":
        if (req.method === "HEAD") return void res.writeHead(405, { allow: "GET" }).end();
        return html(page([]));
      case "/data.csv":
        return void res.writeHead(200, { "content-type": "text/csv" }).end(req.method === "HEAD" ? undefined : "a,b\n1,2\n");
      case "/away":
        return void res.writeHead(302, { location: `${nextOrigin()}/shared.csv` }).end();
      case "/shared.csv":
        return void res.writeHead(200, { "content-type": "text/csv" }).end(req.method === "HEAD" ? undefined : "x\n");
      default:
        return html("<html><body>Not found</body></html>", 404);
    }
  };
}

async function startSites(count: number, robotsTxt = ROBOTS_TXT, retryAfter = "0"): Promise<GapSite[]> {
  const sites: GapSite[] = [];
  for (let i = 0; i < count; i++) {
    const arrivals: Arrival[] = [];
    const server = http.createServer(handler(arrivals, () => sites[(i + 1) % count]!.origin, robotsTxt, retryAfter));
    await listenOnFreePort(server);
    sites.push({ origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, server });
  }
  return sites;
}

/** Smallest time between two consecutive arrivals, with the pair it was measured on. */
function shortestGap(arrivals: readonly Arrival[]): { gapMs: number; between: string } {
  const sorted = [...arrivals].sort((a, b) => a.atMs - b.atMs);
  let best = { gapMs: Infinity, between: "" };
  for (let i = 1; i < sorted.length; i++) {
    const gapMs = sorted[i]!.atMs - sorted[i - 1]!.atMs;
    if (gapMs < best.gapMs) best = { gapMs, between: `${sorted[i - 1]!.method} ${sorted[i - 1]!.path} → ${sorted[i]!.method} ${sorted[i]!.path}` };
  }
  return best;
}

const sites: GapSite[] = [];
afterAll(async () => {
  await Promise.all(
    sites.map(
      (site) =>
        new Promise<void>((resolve) => {
          site.server.close(() => resolve());
          site.server.closeAllConnections();
        }),
    ),
  );
});

describe("politeness at the site", () => {
  it(`never lets a site see two requests closer than the delay (${SITES} crawls of ${SITES} hosts in one worker, ${DELAY_MS} ms)`, async () => {
    const started = await startSites(SITES);
    sites.push(...started);
    const politeness = new HostPoliteness();
    const runs = started.map((site, i) => {
      const sink = new MemorySink();
      const config = testCrawlConfig({ rootUrl: `${site.origin}/`, seed: i + 1, politeness: { delayMs: DELAY_MS } });
      const run = createCrawlEngine({ config, sink, signal: new AbortController().signal, politeness, keepPageBodies: false, owner: `crawl-${i}` });
      return { run, sink };
    });
    const ends = await Promise.all(runs.map(({ run }) => run.engine.run().finally(() => run.close())));

    // The crawls did what the site offers: every kind of request happened on every site.
    for (const [i, site] of started.entries()) {
      expect(ends[i]).toMatchObject({ kind: "stopped", reason: "site-exhausted" });
      const seen = site.arrivals.map((a) => `${a.method} ${a.path}`);
      expect(seen[0]).toBe("GET /robots.txt");
      expect(seen).toEqual(
        expect.arrayContaining(["HEAD /a", "GET /r", "GET /moved", "GET /no-head", "HEAD /no-head", "GET /data.csv", "GET /shared.csv"]),
      );
      expect(seen.filter((s) => s.endsWith(" /flaky"))).toHaveLength(3); // 503, its retry, then the page
      expect(seen.some((s) => s.includes("/private/"))).toBe(false);
      // robots.txt twice: this site's crawl, and the crawl whose /away redirected here.
      expect(seen.filter((s) => s === "GET /robots.txt")).toHaveLength(2);
      expect(runs[i]!.sink.targets.map((t) => new URL(t.url).pathname).sort()).toEqual(["/data.csv", "/shared.csv"]);
    }

    const gaps = started.map((site) => shortestGap(site.arrivals));
    const shortest = gaps.reduce((a, b) => (b.gapMs < a.gapMs ? b : a));
    console.info(
      `shortest gap at a site: ${shortest.gapMs.toFixed(1)} ms (${shortest.between}); per site: ${gaps.map((g) => g.gapMs.toFixed(1)).join(", ")}`,
    );
    for (const gap of gaps) expect(gap.gapMs, gap.between).toBeGreaterThanOrEqual(DELAY_MS);
  });

  it("keeps a robots.txt Crawl-delay longer than the crawl's delay from the first page on, and a Retry-After after a 503", async () => {
    const [site] = await startSites(1, "User-agent: *\nCrawl-delay: 0.4\nDisallow: /private/\n", "1");
    sites.push(site!);
    const config = testCrawlConfig({ rootUrl: `${site!.origin}/`, politeness: { delayMs: 50 } });
    const run = createCrawlEngine({ config, sink: new MemorySink(), signal: new AbortController().signal, politeness: new HostPoliteness() });
    const end = await run.engine.run().finally(() => run.close());
    expect(end).toMatchObject({ kind: "stopped", reason: "site-exhausted" });

    const arrivals = site!.arrivals;
    expect(shortestGap(arrivals).gapMs).toBeGreaterThanOrEqual(400);
    const refused = arrivals.findIndex((a) => a.path === "/flaky");
    expect(arrivals[refused + 1]!.atMs - arrivals[refused]!.atMs).toBeGreaterThanOrEqual(1000);
    expect(arrivals[refused + 1]!.path).toBe("/flaky");
  });
});
