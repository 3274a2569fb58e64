import * as cheerio from "cheerio";
import { gunzipSync } from "node:zlib";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildSite, hasMediaExtension, mimeOf, SIM_TARGET_MIME_TYPES, SITE_SHAPES, startSiteServer,
  type GroundTruth, type RunningSite, type SiteShape,
} from "../../lib/sitesim";

const agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
afterAll(() => agent.close());

async function get(url: string, method: "GET" | "HEAD" = "GET", headers: Record<string, string> = {}) {
  const res = await request(url, { method, dispatcher: agent, headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers as Record<string, string>, body };
}

interface HttpBfsResult {
  requests: number;
  targets: Array<{ path: string; mime: string; request: number }>;
  htmlPages: string[];
}

/**
 * An independent breadth-first crawler over HTTP, written from the rules in
 * lib/sitesim/ground-truth.ts: FIFO, dedup without fragment, robots.txt and media
 * extensions skipped without a request, redirects followed by hand (one request per hop),
 * stop when only trap URLs are left in the queue.
 */
async function httpBfs(root: string, trapPrefixes: readonly string[]): Promise<HttpBfsResult> {
  const rootUrl = new URL(root);
  const robots = (await get(new URL("/robots.txt", root).href)).body.toString("utf8");
  const star = robots.split(/\n\s*\n/).find((group) => /^User-agent: \*$/m.test(group)) ?? "";
  const disallow = [...star.matchAll(/^Disallow: (\S+)$/gm)].map((m) => m[1]!);
  const keyOf = (u: URL) => u.pathname + u.search;
  const isTrap = (u: URL) => trapPrefixes.some((p) => keyOf(u).startsWith(p));
  const targetMimes = new Set(SIM_TARGET_MIME_TYPES);
  const seen = new Set<string>([rootUrl.href]);
  const queue: URL[] = [rootUrl];
  let head = 0;
  let nonTrap = 1;
  const out: HttpBfsResult = { requests: 0, targets: [], htmlPages: [] };

  const admit = (u: URL): boolean => {
    if (seen.has(u.href)) return false;
    seen.add(u.href);
    return !disallow.some((d) => keyOf(u).startsWith(d)) && !hasMediaExtension(u.pathname);
  };

  while (head < queue.length && nonTrap > 0) {
    let url = queue[head++]!;
    if (!isTrap(url)) nonTrap--;
    for (let hop = 0; hop <= 10; hop++) {
      out.requests++;
      const res = await get(url.href);
      if (res.status >= 300 && res.status < 400) {
        const next = new URL(res.headers.location!, url);
        next.hash = "";
        if (next.hostname !== rootUrl.hostname || !admit(next)) break;
        url = next;
        continue;
      }
      if (res.status !== 200) break;
      const mime = mimeOf(res.headers["content-type"] ?? "");
      if (targetMimes.has(mime)) out.targets.push({ path: keyOf(url), mime, request: out.requests });
      if (mime !== "text/html") break;
      if (!isTrap(url)) out.htmlPages.push(keyOf(url));
      const $ = cheerio.load(res.body.toString("utf8"));
      const hrefs: string[] = [];
      for (const [sel, attr] of [["a[href]", "href"], ["area[href]", "href"], ["frame[src]", "src"], ["iframe[src]", "src"]] as const) {
        $(sel).each((_, el) => void hrefs.push($(el).attr(attr)!));
      }
      for (const href of hrefs) {
        let link: URL;
        try {
          link = new URL(href.trim(), url);
        } catch {
          continue;
        }
        link.hash = "";
        if (!/^https?:$/.test(link.protocol) || link.hostname !== rootUrl.hostname || !admit(link)) continue;
        queue.push(link);
        if (!isTrap(link)) nonTrap++;
      }
      break;
    }
  }
  return out;
}

function requestsTo(targets: HttpBfsResult["targets"], fraction: number): number {
  return targets[Math.max(1, Math.ceil(targets.length * fraction - 1e-9)) - 1]!.request;
}

describe.each(Object.keys(SITE_SHAPES) as SiteShape[])("%s over HTTP", (shape) => {
  let running: RunningSite;
  let truth: GroundTruth;

  beforeAll(async () => {
    const site = buildSite({ shape, seed: 11, size: "tiny" });
    truth = site.groundTruth();
    running = await startSiteServer(site, { port: 0 });
  });
  afterAll(() => running.close());

  it("a breadth-first crawl over HTTP finds exactly the ground-truth targets, with the same request counts", async () => {
    const bfs = await httpBfs(running.rootUrl, truth.trapPrefixes);
    expect(bfs.targets.map((t) => t.path)).toEqual(truth.targets.map((t) => t.path));
    expect(bfs.targets.map((t) => t.mime)).toEqual(truth.targets.map((t) => t.mime));
    expect(bfs.htmlPages).toEqual(truth.htmlPages);
    expect(bfs.requests).toBe(truth.bfsRequests);
    expect(requestsTo(bfs.targets, 0.5)).toBe(truth.bfsRequestsTo50);
    expect(requestsTo(bfs.targets, 0.9)).toBe(truth.bfsRequestsTo90);
    expect(requestsTo(bfs.targets, 1)).toBe(truth.bfsRequestsToAll);
    // BFS is +1 for robots.txt.
    expect(running.requestCount()).toBe(bfs.requests + 1);
  });

  it("GET and HEAD agree on status, Content-Type and Content-Length; the body has that length", async () => {
    const urls = [truth.htmlPages[0]!, truth.htmlPages.at(-1)!, truth.targets[0]!.path, truth.targets.at(-1)!.path, "/definitely/missing"];
    for (const path of urls) {
      const url = running.origin + path;
      const g = await get(url);
      const h = await get(url, "HEAD");
      expect(h.status).toBe(g.status);
      expect(h.headers["content-type"]).toBe(g.headers["content-type"]);
      expect(h.headers["content-length"]).toBe(g.headers["content-length"]);
      expect(Number(g.headers["content-length"])).toBe(g.body.length);
      expect(h.body.length).toBe(0);
    }
    const t = truth.targets[0]!;
    const g = await get(running.origin + t.path);
    expect(mimeOf(g.headers["content-type"]!)).toBe(t.mime);
    expect(g.body.length).toBe(t.bytes);
  });
});

describe("site server", () => {
  let running: RunningSite;
  beforeAll(async () => {
    running = await startSiteServer(buildSite({ shape: "statistics-office", seed: 1, size: "small" }));
  });
  afterAll(() => running.close());

  it("listens on 127.0.0.1 and serves robots.txt", async () => {
    expect(running.origin).toBe(`http://127.0.0.1:${running.port}`);
    expect(running.rootUrl).toBe(running.origin + "/");
    const res = await get(running.origin + "/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(res.body.toString()).toContain("Disallow: /admin/\nDisallow: /search\n");
  });

  it("answers 404 with an HTML page, redirects with an absolute Location, 405 for other methods", async () => {
    const missing = await get(running.origin + "/no/such/page");
    expect(missing.status).toBe(404);
    expect(missing.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(missing.body.toString()).toContain("Page not found");
    const moved = await get(running.origin + "/old/pub/1003");
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe(`${running.origin}/publications/1003`);
    const lang = await get(running.origin + "/de/");
    expect(lang.status).toBe(302);
    const post = await request(running.origin + "/", { method: "POST", dispatcher: agent, body: "x" });
    await post.body.dump();
    expect(post.statusCode).toBe(405);
  });

  it("writes same-origin absolute links with the request's Host and never links another port of 127.0.0.1", async () => {
    const html = (await get(running.rootUrl)).body.toString();
    expect(html).toContain(`href="${running.origin}/"`);
    const $ = cheerio.load(html);
    $("a[href]").each((_, el) => {
      const u = new URL($(el).attr("href")!.trim(), running.rootUrl);
      if (u.hostname === "127.0.0.1") expect(u.port).toBe(String(running.port));
    });
  });

  it("sustains well over 1 000 requests per second on small pages and files", async () => {
    const truth = running.site.groundTruth();
    const paths = [...truth.htmlPages.slice(0, 300), ...truth.targets.filter((t) => t.bytes < 20_000).slice(0, 100).map((t) => t.path)];
    const total = 2_000;
    let next = 0;
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < total) {
        const res = await get(running.origin + paths[next++ % paths.length]!);
        expect(res.status).toBe(200);
      }
    }));
    const perSecond = total / ((performance.now() - t0) / 1000);
    console.info(`sitesim throughput: ${Math.round(perSecond)} requests/s (client and server in one process)`);
    // The client shares this process and the machine's two cores: a loose floor.
    expect(perSecond).toBeGreaterThan(400);
  });
});

describe("site server options", () => {
  it("gzips text bodies when asked and when the client accepts gzip", async () => {
    const running = await startSiteServer(buildSite({ shape: "deep-sparse", seed: 1, size: "tiny" }), { gzip: true });
    try {
      const plain = await get(running.rootUrl);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      const zipped = await get(running.rootUrl, "GET", { "accept-encoding": "gzip" });
      expect(zipped.headers["content-encoding"]).toBe("gzip");
      expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
      const head = await get(running.rootUrl, "HEAD", { "accept-encoding": "gzip" });
      expect(head.headers["content-length"]).toBe(zipped.headers["content-length"]);
    } finally {
      await running.close();
    }
  });

  it("delays every response by delayMs", async () => {
    const running = await startSiteServer(buildSite({ shape: "deep-sparse", seed: 1, size: "tiny" }), { delayMs: 60 });
    try {
      const t0 = performance.now();
      await get(running.rootUrl);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(55);
    } finally {
      await running.close();
    }
  });
});
