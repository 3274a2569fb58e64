import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type FetchResult, HttpFetcher, RobotsCache, robotsFetchFor } from "../../lib/crawler/fetch";
import { freePort, listenOnFreePort } from "../helpers/ports";

/** Each "site" is its own server on 127.0.0.1, so its own origin (port). */
const ROBOTS = `User-agent: *
Disallow: /private/
Crawl-delay: 2

User-agent: Forage
Disallow: /no-forage/
Allow: /no-forage/ok
Crawl-delay: 0.25

Sitemap: http://example.test/sitemap.xml
`;

const sites = {
  rules: (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(ROBOTS),
  missing: (_req, res) => res.writeHead(404).end("no"),
  broken: (_req, res) => res.writeHead(500).end("oops"),
  redirects: (req, res) => {
    const hop = Number(new URL(req.url ?? "/", "http://x").searchParams.get("hop") ?? 0);
    if (hop < 3) return void res.writeHead(302, { location: `/robots.txt?hop=${hop + 1}` }).end();
    res.end("User-agent: *\nDisallow: /after-redirects/\n");
  },
  loop: (req, res) => {
    const hop = Number(new URL(req.url ?? "/", "http://x").searchParams.get("hop") ?? 0);
    res.writeHead(301, { location: `/robots.txt?hop=${hop + 1}` }).end();
  },
  limited: (_req, res) => res.writeHead(429, { "retry-after": "1" }).end(),
  // RFC 9309 2.2.4: the Sitemap line does not end Forage's group, so BarBot's Disallow is Forage's too.
  sitemapBetweenAgents: (_req, res) =>
    res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: Forage\nSitemap: /maps/sitemap.xml\nUser-agent: BarBot\nDisallow: /\n"),
  // RFC 9309 2.1 / 5.1: an empty group for Forage allows everything; the * group does not apply to it.
  emptyGroup: (_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nDisallow: /\n\nUser-agent: forage\n"),
} satisfies Record<string, http.RequestListener>;

const servers: http.Server[] = [];
const origins: Record<string, string> = {};
const fetcher = new HttpFetcher({ allowPrivateNetwork: true });
const fetched: FetchResult[] = [];
const robots = () => new RobotsCache(robotsFetchFor(fetcher, { onResult: (r) => void fetched.push(r) }));
const url = (site: keyof typeof sites, path: string) => origins[site] + path;

beforeAll(async () => {
  for (const [name, handler] of Object.entries(sites)) {
    const server = http.createServer(handler);
    await listenOnFreePort(server);
    servers.push(server);
    origins[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
});
afterAll(async () => {
  await fetcher.close();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("RobotsCache", () => {
  it("applies the rules of our group, its Crawl-delay, and fetches robots.txt once", async () => {
    const cache = robots();
    const before = fetched.length;
    expect(await cache.isAllowed(url("rules", "/no-forage/x"))).toBe(false);
    expect(await cache.isAllowed(url("rules", "/no-forage/ok"))).toBe(true);
    // Our own group replaces `*`: /private/ is only closed to other robots.
    expect(await cache.isAllowed(url("rules", "/private/x"))).toBe(true);
    expect(await cache.isAllowed(url("rules", "/private/x"), "OtherBot")).toBe(false);
    expect(await cache.crawlDelayMs(url("rules", "/"))).toBe(250);
    expect(await cache.crawlDelayMs(url("rules", "/"), "OtherBot")).toBe(2000);
    const rules = await cache.rulesFor(url("rules", "/"));
    expect(rules).toMatchObject({ status: "parsed", sitemaps: ["http://example.test/sitemap.xml"] });
    expect(fetched.length - before).toBe(1);
  });

  it("shares one fetch between concurrent callers", async () => {
    const cache = robots();
    const before = fetched.length;
    await Promise.all([1, 2, 3].map((n) => cache.isAllowed(url("rules", `/p${n}`))));
    expect(fetched.length - before).toBe(1);
  });

  it("allows everything when robots.txt is 404", async () => {
    const rules = await robots().rulesFor(url("missing", "/"));
    expect(rules).toMatchObject({ status: "allow-all" });
    expect(rules.isAllowed(url("missing", "/anything"))).toBe(true);
  });

  it("disallows everything on 500 and on 429, and retries after unreachableTtlMs", async () => {
    const cache = new RobotsCache(robotsFetchFor(fetcher), { unreachableTtlMs: 50 });
    expect(await cache.isAllowed(url("broken", "/x"))).toBe(false);
    expect(await cache.isAllowed(url("limited", "/x"))).toBe(false);
    const first = await cache.rulesFor(url("broken", "/"));
    expect(first.expiresAtMs - first.fetchedAtMs).toBe(50);
    // The cache's clock (Date) moved past the TTL; timers and sockets keep real time.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60 });
    try {
      expect(await cache.rulesFor(url("broken", "/"))).not.toBe(first);
    } finally {
      vi.useRealTimers();
    }
  });

  it("disallows everything when the host is unreachable", async () => {
    const deadPort = await freePort(); // nothing listens there
    const rules = await robots().rulesFor(`http://127.0.0.1:${deadPort}/page`);
    expect(rules).toMatchObject({ status: "disallow-all", reason: "unreachable: connection-refused" });
    expect(rules.isAllowed(`http://127.0.0.1:${deadPort}/page`)).toBe(false);
  });

  it("follows up to 5 redirects, each one a recorded fetch, and gives up with allow-all after", async () => {
    const cache = robots();
    const before = fetched.length;
    expect(await cache.isAllowed(url("redirects", "/after-redirects/x"))).toBe(false);
    expect(fetched.length - before).toBe(4);
    const loop = await cache.rulesFor(url("loop", "/"));
    expect(loop).toMatchObject({ status: "allow-all", reason: "more than 5 redirects" });
    expect(fetched.length - before).toBe(4 + 6);
  });

  it("keeps a group open across a Sitemap line (RFC 9309 2.2.4) and resolves a relative sitemap", async () => {
    const rules = await robots().rulesFor(url("sitemapBetweenAgents", "/"));
    expect(rules.isAllowed(url("sitemapBetweenAgents", "/x"))).toBe(false);
    expect(rules.isAllowed(url("sitemapBetweenAgents", "/x"), "OtherBot")).toBe(true);
    expect(rules.sitemaps).toEqual([url("sitemapBetweenAgents", "/maps/sitemap.xml")]);
  });

  it("lets an empty group naming Forage allow everything (RFC 9309 5.1, quxbot)", async () => {
    const rules = await robots().rulesFor(url("emptyGroup", "/"));
    expect(rules.isAllowed(url("emptyGroup", "/anything"))).toBe(true);
    expect(rules.isAllowed(url("emptyGroup", "/anything"), "OtherBot")).toBe(false);
  });

  it("refuses a user-agent token RFC 9309 does not allow", () => {
    expect(() => new RobotsCache(robotsFetchFor(fetcher), { userAgentToken: "Forage/1.0" })).toThrow(/product token/);
  });

  it("always allows /robots.txt itself", async () => {
    expect(await robots().isAllowed(url("broken", "/robots.txt"))).toBe(true);
  });
});
