import { describe, expect, it } from "vitest";
import { buildSite, hasMediaExtension, mimeOf, SIM_TARGET_MIME_TYPES, sizeToUrlCount, type SimulatedSite } from "../../lib/sitesim";
import { bitstreamById } from "../../lib/sitesim/shapes/research-files";
import { buildRepoModel, lookupHandle } from "../../lib/sitesim/shapes/research-model";
import { finiteUrls } from "../helpers/sitesim-pages";

const HOST = "repo.test";
const HANDLE = /^\/handle\/(20\.500\.[0-9]+)\/([0-9]+)$/;

/** Body class of a served page: the page type ("item-view", "collection-view"…). */
function pageType(site: SimulatedSite, key: string): string {
  return /<body class="([^"]+)">/.exec(site.respond("GET", key, { host: HOST }).body.toString("utf8"))![1]!;
}

function isImage(site: SimulatedSite, key: string): boolean {
  const r = site.resolve(key);
  return r.kind === "file" && (r.file.format === "jpg" || r.file.format === "png");
}

describe("research-repository", () => {
  const site = buildSite({ shape: "research-repository", seed: 1, size: "small" });
  const g = site.groundTruth();
  const targets = new Set(g.targets.map((t) => t.path));
  const handlePages = g.htmlPages.filter((p) => HANDLE.test(p));
  const items = handlePages.filter((p) => pageType(site, p) === "item-view");

  it("communities, collections and items all live under /handle/<prefix>/<n>, with interleaved numbers", () => {
    const byType = new Map<string, number[]>();
    for (const p of handlePages) {
      const type = pageType(site, p);
      byType.set(type, [...(byType.get(type) ?? []), Number(HANDLE.exec(p)![2])]);
    }
    expect([...byType.keys()].sort()).toEqual(["collection-view", "community-view", "item-view"]);
    expect(new Set(handlePages.map((p) => HANDLE.exec(p)![1])).size).toBe(1);
    const itemNums = byType.get("item-view")!;
    const structure = [...byType.get("collection-view")!, ...byType.get("community-view")!];
    expect(itemNums.length).toBeGreaterThan(100);
    // No threshold separates the kinds: collections are created along the way, between items.
    const lo = Math.min(...itemNums);
    const hi = Math.max(...itemNums);
    expect(structure.filter((n) => n > lo && n < hi).length).toBeGreaterThanOrEqual(3);
  });

  it("citation exports are small downloads that are not targets", () => {
    const exports = items.flatMap((p) => site.links(p)!.filter((l) => l.includes("/export?format=")));
    expect(exports.length).toBe(3 * items.length);
    const mimes = new Set<string>();
    for (const key of exports.slice(0, 30)) {
      const res = site.respond("GET", key);
      expect(res.status).toBe(200);
      expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="item-[0-9]+\.(bib|ris|enw)"$/);
      expect(SIM_TARGET_MIME_TYPES).not.toContain(mimeOf(res.headers["content-type"]!));
      mimes.add(mimeOf(res.headers["content-type"]!));
    }
    expect([...mimes].sort()).toEqual(["application/x-endnote-refer", "application/x-research-info-systems", "text/x-bibtex"]);
    expect(exports.some((k) => targets.has(k))).toBe(false);
    expect(g.otherFiles).toBeGreaterThanOrEqual(exports.length);
  });

  it("embargoed files answer 302 to /login or 403, and are never targets", () => {
    const links = new Set(items.flatMap((p) => site.links(p)!.filter((l) => l.startsWith("/bitstream/"))));
    const closed = [...links].filter((l) => l.endsWith("&isAllowed=n"));
    expect(closed.length).toBeGreaterThan(5);
    const statuses = new Set<number>();
    for (const key of closed) {
      const res = site.respond("GET", key);
      statuses.add(res.status);
      if (res.status === 302) expect(res.headers.location).toBe("/login");
      else expect(res.status).toBe(403);
      expect(targets.has(key)).toBe(false);
    }
    expect([...statuses].sort()).toEqual([302, 403]);
    // Every open, non-image file link is a target.
    for (const key of links) if (key.endsWith("&isAllowed=y") && !hasMediaExtension(key)) expect(targets.has(key), key).toBe(true);
  });

  it("?show=full is a near-duplicate page listing the same files", () => {
    const files = (key: string) => new Set(site.links(key)!.filter((l) => l.startsWith("/bitstream/") && !isImage(site, l)));
    let multi = 0;
    let extensionless = 0;
    for (const p of items) {
      const full = `${p}?show=full`;
      expect(g.htmlPages).toContain(full);
      const simple = files(p);
      expect(files(full)).toEqual(simple);
      if (simple.size > 1) multi++;
      if ([...simple].some((l) => l.startsWith("/bitstream/id/"))) extensionless++;
    }
    expect(multi).toBeGreaterThan(10);
    expect(extensionless).toBeGreaterThan(3);
    expect(items.filter((p) => files(p).size === 0).length).toBeGreaterThan(0);
  });

  it("extension-less /bitstream/id/<uuid>/ downloads are targets named by Content-Disposition", () => {
    const extless = g.targets.filter((t) => t.path.startsWith("/bitstream/id/"));
    expect(extless.length).toBeGreaterThan(10);
    for (const t of extless.slice(0, 20)) {
      expect(t.path).toMatch(/^\/bitstream\/id\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}\/$/);
      const res = site.respond("GET", t.path);
      expect(res.headers["content-disposition"]).toMatch(/^attachment; filename="[^"]+\.(pdf|csv|xlsx|xls|ods|json|xml|zip|txt|docx)"$/);
    }
  });

  it("listings are a large share of the site, with near-duplicate spellings of the same list", () => {
    const listings = g.htmlPages.filter((p) => /^\/browse\?|\/browse\?|recent-submissions/.test(p));
    expect(listings.length / finiteUrls(site)).toBeGreaterThan(0.25);
    const spellings = ["/browse?type=title", "/browse?type=title&sort_by=1&order=ASC&rpp=20", "/browse?type=title&sort_by=1&order=ASC&rpp=20&offset=0"];
    const itemLinks = (key: string) => site.links(key)!.filter((l) => HANDLE.test(l) && items.includes(l));
    for (const key of spellings) expect(g.htmlPages).toContain(key);
    expect(itemLinks(spellings[1]!)).toEqual(itemLinks(spellings[0]!));
    expect(itemLinks(spellings[2]!)).toEqual(itemLinks(spellings[0]!));
    expect(itemLinks(spellings[0]!)).toHaveLength(20);
    // Same items, other order: the descending listing starts where the ascending one ends.
    const lastAsc = itemLinks("/browse?type=title&sort_by=1&order=ASC&rpp=100&offset=100").at(-1);
    expect(lastAsc).toBeDefined();
    expect(itemLinks("/browse?type=title&sort_by=1&order=DESC&rpp=20")[0]).toBe(lastAsc);
    expect(site.respond("GET", "/browse?type=title&rpp=33").status).toBe(404);
    expect(site.respond("GET", "/browse?type=title&offset=7").status).toBe(404);
  });

  it("discovery is disallowed by robots.txt, linked from the sidebar, and still served", () => {
    expect(site.robotsTxt).toContain("Disallow: /discover\nDisallow: /search-filter\n");
    const discover = site.links("/")!.filter((l) => l.startsWith("/discover?"));
    expect(discover.length).toBeGreaterThan(5);
    expect(g.disallowedLinks).toBeGreaterThan(discover.length);
    expect(g.htmlPages.some((p) => p.startsWith("/discover") || p.startsWith("/search-filter"))).toBe(false);
    for (const key of discover) expect(site.respond("GET", key).status).toBe(200);
  });

  it("old interface addresses redirect permanently; withdrawn items are 404", () => {
    const legacy = [...new Set(g.htmlPages.flatMap((p) => site.links(p)!).filter((l) => /^\/(jspui|xmlui)\//.test(l)))];
    expect(legacy.length).toBeGreaterThan(0);
    for (const key of legacy) {
      const res = site.respond("GET", key);
      expect(res.status).toBe(301);
      expect(res.headers.location).toBe(key.replace(/^\/(jspui|xmlui)/, ""));
    }
    expect(g.redirects).toBeGreaterThan(legacy.length);
    expect(g.notFound).toBeGreaterThan(0);
    expect(g.images).toBeGreaterThan(0);
  });

  it.each([1, 2, 3])("seed %i: targets are 12–30 % of the finite URLs of a small site", (seed) => {
    const s = buildSite({ shape: "research-repository", seed, size: "small" });
    const share = s.groundTruth().targets.length / finiteUrls(s);
    expect(share).toBeGreaterThan(0.12);
    expect(share).toBeLessThan(0.3);
  });

  it("a medium site has 15–30 % targets, spread over the collections", () => {
    const s = buildSite({ shape: "research-repository", seed: 1, size: "medium" });
    const gm = s.groundTruth();
    const share = gm.targets.length / finiteUrls(s);
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.3);
    const m = buildRepoModel(1, sizeToUrlCount("medium"));
    const perColl = new Map<number, number>();
    for (const t of gm.targets) {
      const item = t.path.startsWith("/bitstream/id/") ? bitstreamById(m, t.path.split("/")[3]!)!.item : lookupHandle(m, Number(t.path.split("/")[4]))!.index;
      perColl.set(m.itemColl[item]!, (perColl.get(m.itemColl[item]!) ?? 0) + 1);
    }
    expect(perColl.size / m.collections.length).toBeGreaterThanOrEqual(0.8);
    expect(Math.max(...perColl.values()) / gm.targets.length).toBeLessThan(0.2);
  });

  it("builds a large site and its ground truth quickly", () => {
    const t0 = performance.now();
    const large = buildSite({ shape: "research-repository", seed: 3, size: "large" });
    expect(performance.now() - t0).toBeLessThan(2_000);
    const gl = large.groundTruth();
    // ≈ 1 s on an idle machine; generous here because tests share two cores.
    expect(performance.now() - t0).toBeLessThan(8_000);
    expect(finiteUrls(large)).toBeGreaterThan(30_000);
    expect(finiteUrls(large)).toBeLessThan(50_000);
    expect(gl.targets.length).toBeGreaterThan(5_000);
    expect(gl.bfsStop).toBe("exhausted");
  });
});
