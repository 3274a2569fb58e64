import { describe, expect, it } from "vitest";
import {
  APPLICATION_SHAPES, buildSite, describeSite, hasMediaExtension, SIM_TARGET_MIME_TYPES, SITE_SHAPES, sizeToUrlCount,
  type SiteShape,
} from "../../lib/sitesim";
import { parseArgs } from "../../lib/sitesim/serve-main";
import { finiteUrls, servedPages } from "../helpers/sitesim-pages";

const SHAPES = Object.keys(SITE_SHAPES) as SiteShape[];
const HOST = "sim.test:8080";
const { linksFromHtml } = servedPages(HOST);

function sample<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const step = items.length / n;
  return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)]!);
}

describe("buildSite", () => {
  it("rejects unknown shapes, sizes and non-integer seeds", () => {
    expect(() => buildSite({ shape: "nope" as SiteShape, seed: 1, size: "tiny" })).toThrow(/unknown site shape/);
    expect(() => buildSite({ shape: "deep-sparse", seed: 1.5, size: "tiny" })).toThrow(/integer/);
    expect(() => sizeToUrlCount("huge" as "tiny")).toThrow(/unknown site size/);
    expect(sizeToUrlCount(5)).toBe(100);
    expect(sizeToUrlCount("medium")).toBe(10_000);
  });

  it.each(SHAPES)("%s: the same spec gives a byte-identical site, another seed a different one", (shape) => {
    const a = buildSite({ shape, seed: 7, size: "tiny" });
    const b = buildSite({ shape, seed: 7, size: "tiny" });
    const c = buildSite({ shape, seed: 8, size: "tiny" });
    const ga = a.groundTruth();
    expect(b.groundTruth()).toEqual(ga);
    for (const key of sample([...ga.htmlPages, ...ga.targets.map((t) => t.path)], 30)) {
      expect(b.respond("GET", key, { host: HOST }).body.equals(a.respond("GET", key, { host: HOST }).body)).toBe(true);
    }
    const gc = c.groundTruth();
    expect(gc.htmlPages.join("\n") + gc.targets.map((t) => t.path).join("\n")).not.toBe(ga.htmlPages.join("\n") + ga.targets.map((t) => t.path).join("\n"));
    // The first page a crawl parses: "/" itself, or where "/" redirects (documentation-site: /en/stable/).
    expect(c.respond("GET", gc.htmlPages[0]!).body.equals(a.respond("GET", ga.htmlPages[0]!).body)).toBe(false);
  });

  it.each(SHAPES.flatMap((shape) => (["tiny", "small"] as const).map((size) => [shape, size] as const)))(
    "%s %s: finite URL count is near the nominal size and there are targets",
    (shape, size) => {
      const site = buildSite({ shape, seed: 1, size });
      const g = site.groundTruth();
      const n = finiteUrls(site);
      // Application shapes are sized by their records (CKAN: 1,500 datasets at large), not by URLs.
      if (!APPLICATION_SHAPES.includes(shape)) expect(n).toBeGreaterThan(sizeToUrlCount(size) * 0.6);
      expect(n).toBeLessThan(sizeToUrlCount(size) * 1.5);
      expect(g.targets.length).toBeGreaterThan(3);
      expect(g.bfsStop).toBe(g.trapPrefixes.length ? "only-trap-left" : "exhausted");
      expect(g.bfsRequestsTo50!).toBeLessThanOrEqual(g.bfsRequestsTo90!);
      expect(g.bfsRequestsTo90!).toBeLessThanOrEqual(g.bfsRequestsToAll!);
      for (const t of g.targets) expect(SIM_TARGET_MIME_TYPES).toContain(t.mime);
      if (shape === "deep-sparse") expect(g.targets.length / n).toBeLessThan(0.03);
    },
  );

  it("builds a large site and its ground truth quickly", () => {
    const t0 = performance.now();
    const site = buildSite({ shape: "statistics-office", seed: 3, size: "large" });
    expect(performance.now() - t0).toBeLessThan(2_000);
    const g = site.groundTruth();
    // < 3 s on an idle machine; generous here because tests share two cores.
    expect(performance.now() - t0).toBeLessThan(8_000);
    expect(finiteUrls(site)).toBeGreaterThan(30_000);
    expect(g.targets.length).toBeGreaterThan(5_000);
  });

  it("deep-sparse is deep: a breadth-first crawl meets 90 % of its few targets only near its end", () => {
    const g = buildSite({ shape: "deep-sparse", seed: 1, size: "tiny" }).groundTruth();
    expect(g.bfsRequestsTo90! / g.bfsRequests).toBeGreaterThan(0.8);
  });
});

describe("respond", () => {
  it.each(SHAPES)("%s: HEAD has GET's status and headers, and no body", (shape) => {
    const site = buildSite({ shape, seed: 2, size: "tiny" });
    const g = site.groundTruth();
    const keys = [...sample(g.htmlPages, 15), ...sample(g.targets.map((t) => t.path), 15), "/no/such/page", "/de/", "/robots.txt"];
    for (const key of keys) {
      const get = site.respond("GET", key, { host: HOST });
      const head = site.respond("HEAD", key, { host: HOST });
      expect(head.status).toBe(get.status);
      expect(head.headers).toEqual(get.headers);
      expect(head.body.length).toBe(0);
      expect(Number(get.headers["content-length"])).toBe(get.body.length);
    }
  });

  it.each(SHAPES)("%s: the links ground truth walks are exactly those a crawler extracts from the HTML", (shape) => {
    const site = buildSite({ shape, seed: 4, size: "tiny" });
    const g = site.groundTruth();
    // Two trap pages: the first one linked from a finite page, and one it links to.
    const trapKeys: string[] = [];
    const inTrap = (k: string) => g.trapPrefixes.some((p) => k.startsWith(p)) && site.links(k) !== null;
    const first = g.htmlPages.flatMap((p) => site.links(p)!).find(inTrap);
    if (first) trapKeys.push(first, site.links(first)!.filter((k) => k !== first).find(inTrap)!);
    if (g.trapPrefixes.length) expect(trapKeys).toHaveLength(2);
    const keys = [...sample(g.htmlPages, 60), ...trapKeys];
    for (const key of keys) {
      const html = site.respond("GET", key, { host: HOST }).body.toString("utf8");
      expect(linksFromHtml(html, key), key).toEqual(site.links(key));
    }
  });

  it("serves HTML with charset, 404 pages, redirects and robots.txt", () => {
    const site = buildSite({ shape: "statistics-office", seed: 1, size: "tiny" });
    const home = site.respond("GET", "/");
    expect(home.status).toBe(200);
    expect(home.headers["content-type"]).toBe("text/html; charset=utf-8");
    const missing = site.respond("GET", "/publications/999999");
    expect(missing.status).toBe(404);
    expect(missing.body.toString()).toContain("<html");
    const moved = site.respond("GET", "/old/pub/1000", { host: HOST });
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe(`http://${HOST}/publications/1000`);
    expect(site.respond("GET", "/de/").headers.location).toBe("/en/");
    expect(site.robotsTxt).toMatch(/User-agent: \*\nDisallow: \/admin\/\nDisallow: \/search\n/);
    expect(site.respond("GET", "/robots.txt").body.toString()).toBe(site.robotsTxt);
  });

  it("the calendar trap links the previous and next month for ever", () => {
    const site = buildSite({ shape: "statistics-office", seed: 1, size: "tiny" });
    const links = site.links("/calendar?month=3001-01")!;
    expect(links).toContain("/calendar?month=3000-12");
    expect(links).toContain("/calendar?month=3001-02");
    expect(site.respond("GET", "/calendar?month=2024-13").status).toBe(404);
  });

  it("target bodies have the advertised size and look like their format", () => {
    const site = buildSite({ shape: "statistics-office", seed: 5, size: "small" });
    const seen = new Set<string>();
    for (const t of site.groundTruth().targets) {
      if (seen.has(t.mime)) continue;
      seen.add(t.mime);
      const res = site.respond("GET", t.path);
      expect(res.body.length).toBe(t.bytes);
      const head = res.body.subarray(0, 8);
      if (t.mime === "application/pdf") expect(head.toString("latin1")).toMatch(/^%PDF-1\./);
      if (t.mime === "text/csv") expect(res.body.toString("latin1")).toMatch(/^id;region;year;value;unit;status\n.+;/);
      if (t.mime === "application/json") expect(() => JSON.parse(res.body.toString("utf8"))).not.toThrow();
      if (t.mime.includes("openxml") || t.mime === "application/zip" || t.mime.includes("opendocument")) {
        expect(head.readUInt32LE(0)).toBe(0x04034b50);
        expect(res.body.readUInt32LE(res.body.length - 22)).toBe(0x06054b50);
      }
      if (t.mime === "application/vnd.ms-excel") expect(head.toString("hex")).toBe("d0cf11e0a1b11ae1");
      expect(t.bytes).toBeGreaterThanOrEqual(1_000);
      expect(t.bytes).toBeLessThanOrEqual(400_000);
    }
    expect(seen.size).toBeGreaterThanOrEqual(6);
  });

  it("ground truth skips media-extension links and robots-disallowed links without requests", () => {
    const g = buildSite({ shape: "statistics-office", seed: 1, size: "small" }).groundTruth();
    expect(g.mediaLinksSkipped).toBeGreaterThan(0);
    expect(g.disallowedLinks).toBeGreaterThan(0);
    expect(g.images).toBeGreaterThan(0);
    expect(g.redirects).toBeGreaterThan(0);
    expect(g.notFound).toBeGreaterThan(0);
    expect(g.bfsTrapRequests).toBeGreaterThan(0);
    expect(hasMediaExtension("/a/b/photo.JPG?x=1")).toBe(true);
    expect(hasMediaExtension("/media/img/123")).toBe(false);
  });
});

describe("describeSite and serve-main arguments", () => {
  it("summarises a site in one paragraph", () => {
    const text = describeSite(buildSite({ shape: "ministry-portal", seed: 1, size: "tiny" }));
    expect(text).toMatch(/^ministry-portal \(seed 1, size tiny ≈ 300 URLs\): [\d,]+ HTML pages, [\d,]+ targets \(PDF /);
    expect(text).toContain("/agenda");
    expect(text.includes("\n")).toBe(false);
  });

  it("parses serve-main arguments and rejects bad ones", () => {
    expect(parseArgs(["--shape", "deep-sparse", "--seed=9", "--size", "1234", "--port", "0", "--gzip"])).toMatchObject({
      shape: "deep-sparse", seed: 9, size: 1234, port: 0, gzip: true,
    });
    expect(() => parseArgs(["--shape", "x"])).toThrow(/--shape must be one of/);
    expect(() => parseArgs(["--port", "70000"])).toThrow(/--port must be an integer/);
    expect(() => parseArgs(["--size", "huge"])).toThrow(/--size must be/);
    expect(() => parseArgs(["--bogus", "1"])).toThrow(/unknown option/);
    expect(() => parseArgs(["--seed"])).toThrow(/needs a value/);
  });
});
