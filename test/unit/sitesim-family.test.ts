/**
 * The procedural site family: one site per seed, deterministic; its ground truth and floor are
 * consistent with the served pages; and over 50 seeds it covers every structural feature the
 * family promises (measured on the sites' ground truth, not only on the drawn parameters).
 */
import { describe, expect, it } from "vitest";
import {
  buildFamilySite, buildSite, computeGroundTruth, computeSiteFloor, drawFamilyParams, sharedPaginationCase, familySiteSize, mimeOf, SIM_TARGET_MIME_TYPES, type SimulatedSite,
} from "../../lib/sitesim";
import type { FamilyParams, SectionParams } from "../../lib/sitesim/family";
import { finiteUrls, servedPages } from "../helpers/sitesim-pages";

const HOST = "sim.test:8080";
const { linksFromHtml } = servedPages(HOST);
const familySite = (seed: number) => buildSite({ shape: "family", seed, size: familySiteSize(seed) });

function sample<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items];
  const step = items.length / n;
  return Array.from({ length: n }, (_, i) => items[Math.floor(i * step)]!);
}

/** The BFS tree of a site: each requested URL → the URL that led to it. */
function bfsParents(site: SimulatedSite): Map<string, string> {
  const parents = new Map<string, string>();
  computeGroundTruth(site, site, { parents });
  return parents;
}

describe("family: one site per seed", () => {
  it("the same seed draws the same parameters and serves byte-identical pages; another seed another site", () => {
    expect(drawFamilyParams(12, 1500)).toEqual(drawFamilyParams(12, 1500));
    expect(drawFamilyParams(13, 1500)).not.toEqual(drawFamilyParams(12, 1500));
    const a = familySite(12);
    const b = familySite(12);
    const ga = a.groundTruth();
    expect(b.groundTruth()).toEqual(ga);
    for (const key of sample([...ga.htmlPages, ...ga.targets.map((t) => t.path)], 40)) {
      expect(b.respond("GET", key, { host: HOST }).body.equals(a.respond("GET", key, { host: HOST }).body), key).toBe(true);
    }
    expect(familySite(13).groundTruth().htmlPages).not.toEqual(ga.htmlPages);
  });

  it("a seed's size is a few hundred to about 3 000 URLs", () => {
    const sizes = Array.from({ length: 40 }, (_, i) => familySiteSize(i + 1));
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(400);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(3_000);
    for (const seed of [3, 17, 30]) {
      const n = finiteUrls(familySite(seed));
      expect(n, `seed ${seed}`).toBeGreaterThan(familySiteSize(seed) * 0.6);
      expect(n, `seed ${seed}`).toBeLessThan(familySiteSize(seed) * 1.5);
    }
  });
});

describe("family: ground truth and floor", () => {
  it.each(Array.from({ length: 16 }, (_, i) => i + 1))("seed %i: every target is reachable and a target; floor ≤ BFS; the links walked are those in the HTML", (seed) => {
    const site = familySite(seed);
    const g = site.groundTruth();
    expect(g.targets.length).toBeGreaterThanOrEqual(4);
    expect(g.bfsStop).toBe(g.trapPrefixes.length ? "only-trap-left" : "exhausted");
    const parents = bfsParents(site);
    for (const t of g.targets) {
      const res = site.respond("GET", t.path);
      expect(res.status, t.path).toBe(200);
      expect(SIM_TARGET_MIME_TYPES).toContain(mimeOf(res.headers["content-type"]!));
      expect(res.body.length).toBe(t.bytes);
      // Its chain of BFS parents ends at "/" (it is reachable), through pages and redirects only.
      let key = t.path;
      for (let hops = 0; key !== "/"; hops++) {
        expect(hops, t.path).toBeLessThanOrEqual(g.htmlPages.length + g.redirects);
        key = parents.get(key)!;
        expect(key, t.path).toBeDefined();
        expect(site.resolve(key).kind).toMatch(/^(page|redirect)$/);
      }
    }
    const floor = computeSiteFloor(site);
    expect(floor.targets).toBe(g.targets.length);
    expect(floor.to90!).toBeLessThanOrEqual(g.bfsRequestsTo90!);
    expect(floor.toAll!).toBeLessThanOrEqual(g.bfsRequestsToAll!);
    expect(floor.to90!).toBeGreaterThanOrEqual(Math.ceil(0.9 * g.targets.length) + 1); // each target, and "/"
    expect(floor.to50!).toBeLessThanOrEqual(floor.to90!);
    expect(floor.to90!).toBeLessThanOrEqual(floor.toAll!);
    for (const key of sample(g.htmlPages, 25)) {
      expect(linksFromHtml(site.respond("GET", key, { host: HOST }).body.toString("utf8"), key), key).toEqual(site.links(key));
    }
  });

  it("other spellings of listing, item and file URLs are 404s, so the finite URL set is what the links reach", () => {
    const site = familySite(8);
    const g = site.groundTruth();
    const listing = g.htmlPages.find((k) => k.includes("page=2"))!;
    expect(listing).toBeDefined();
    expect(site.respond("GET", listing.replace("page=2", "page=02")).status).toBe(404);
    expect(site.respond("GET", listing + "&utm=1").status).toBe(404);
    expect(site.respond("GET", listing.replace("page=2", "page=1")).status).toBe(404); // page 1 is the bare listing
    expect(site.respond("GET", "/no-such-section/").status).toBe(404);
    expect(site.respond("GET", g.targets[0]!.path + "?x=1").status).toBe(404);
  });
});

/** A one-section site written by hand: three items with one CSV each, linked as `fileLink` says, on the listing. */
function handMadeParams(fileLink: SectionParams["fileLink"]): FamilyParams {
  const section: SectionParams = {
    slug: "data", title: "Data", template: 0, pagination: "numbered", perPage: 10, items: 3, depth: 1, groups: 1, fileLink, fileShare: 1,
    maxFilesPerItem: 1, formats: ["csv"], itemUrl: "id", print: false, lang: false, sort: false, megaPage: false, facetTopics: 2, facetYears: 2,
  };
  return {
    seed: 1, siteName: "Hand-made", regime: "dense", templates: [{ pager: "pager", card: "card", crumbs: "breadcrumb", list: "list" }], sections: [section],
    hubs: 0, hubLinks: 0, brokenLinkRate: 0, extensionlessImages: false, extensionImages: false,
  };
}

describe("family: the floor by hand", () => {
  it("files on the listing: '/', the listing, then one request per file", () => {
    const handSite = buildFamilySite(handMadeParams("direct"), 300);
    const g = handSite.groundTruth();
    expect(g.targets.map((t) => t.path)).toEqual(["/files/data/1-1.csv", "/files/data/2-1.csv", "/files/data/3-1.csv"]);
    // BFS: "/", "/data/", "/about", "/contact", "/legal" (search and admin are disallowed), then the three files.
    expect(g.bfsRequestsToAll).toBe(8);
    // Floor: the first target costs 3 ("/", "/data/", the file), each next one 1.
    expect(computeSiteFloor(handSite)).toEqual({ targets: 3, to50: 4, to90: 5, toAll: 5 });
  });

  it("files behind a redirect: each costs its redirect hop too", () => {
    const handSite = buildFamilySite(handMadeParams("redirect"), 300);
    const g = handSite.groundTruth();
    expect(g.targets).toHaveLength(3);
    expect(g.redirects).toBe(3);
    expect(computeSiteFloor(handSite)).toEqual({ targets: 3, to50: 6, to90: 8, toAll: 8 });
  });
});

describe("family: named cases", () => {
  it("shared pagination: three sections' pagers have the same markup; only the last of them and a fourth section hold files", () => {
    const site = buildFamilySite(sharedPaginationCase());
    const g = site.groundTruth();
    const pagerOf = (key: string) => /<nav class="([^"]+)" role="navigation"><ul class="([^"]+)"><li class="([^"]+)"><a href="[^"]+"/.exec(site.respond("GET", key).body.toString())?.slice(1);
    const news = pagerOf("/news/");
    expect(news).toEqual(["pager", "pager__items js-pager__items", "pager__item pager__item--next"]);
    expect(pagerOf("/events/")).toEqual(news);
    expect(pagerOf("/publications/")).toEqual(news);
    expect(site.links("/news/")).toContain("/news/?page=2");
    const sections = new Set(g.targets.map((t) => t.path.split("/")[2]));
    expect([...sections].sort()).toEqual(["consultations", "publications"]);
    const publications = g.targets.filter((t) => t.path.startsWith("/files/publications/")).length;
    expect(publications).toBeGreaterThanOrEqual(200); // every item, one to three files
    const consultationItems = new Set(g.targets.filter((t) => t.path.startsWith("/files/consultations/")).map((t) => t.path.split("-")[0])).size;
    expect(consultationItems).toBe(Math.round(270 * 0.11)); // about one item in nine
  });
});

interface Coverage {
  [feature: string]: number;
}

describe("family: coverage over 50 seeds", () => {
  it("every listed feature appears on several seeds", () => {
    const coverage: Coverage = {};
    const count = (feature: string, present: boolean) => (coverage[feature] = (coverage[feature] ?? 0) + (present ? 1 : 0));
    for (let seed = 1; seed <= 50; seed++) {
      const p = drawFamilyParams(seed, familySiteSize(seed));
      const site = familySite(seed);
      const g = site.groundTruth();
      const parents = bfsParents(site);
      const pages = g.htmlPages;
      const parentOf = (t: { path: string }) => parents.get(t.path)!;
      const share = g.targets.length / finiteUrls(site);
      // Templates shared by a section with files and one without (or ten times poorer).
      const shared = p.sections.some((a) => p.sections.some((b) => a !== b && a.template === b.template && a.fileShare >= 10 * b.fileShare && a.fileShare > 0));
      count("template shared across sections of very different value", shared);
      for (const kind of ["next-only", "numbered", "facets", "calendar"]) count(`pagination: ${kind}`, p.sections.some((s) => s.pagination === kind));
      count("facet listings served", pages.some((k) => /[?&](topic|year)=/.test(k)));
      count("infinite calendar (trap requests)", g.bfsTrapRequests > 0);
      count("files on listings", g.targets.some((t) => p.sections.some((s) => s.depth === 1 && parentOf(t).startsWith(`/${s.slug}/`) && !parentOf(t).includes("/download/"))));
      count("files on detail pages", g.targets.some((t) => p.sections.some((s) => s.depth > 1 && parentOf(t).startsWith(`/${s.slug}/`) && !parentOf(t).includes("/download/"))));
      count("files behind a download page", g.targets.some((t) => parentOf(t).includes("/download/")));
      count("files behind a redirect", g.targets.some((t) => parentOf(t).startsWith("/get/")));
      count("files without extension", g.targets.some((t) => t.path.startsWith("/file/")));
      count("depth 3 (group listings)", pages.some((k) => /\/g\/\d+/.test(k)));
      count("density: dense (≥ 30 % of URLs are targets)", share >= 0.3);
      count("density: medium (10–30 %)", share >= 0.1 && share < 0.3);
      count("density: sparse (2–10 %)", share >= 0.02 && share < 0.1);
      count("density: needle (< 2 %)", share < 0.02);
      count("hubs", pages.some((k) => k.startsWith("/topics/")));
      count("mega-pages", pages.some((k) => k.endsWith("/all")));
      count("print variants", pages.some((k) => k.includes("print=1")));
      count("language variants", pages.some((k) => k.startsWith("/fr/")));
      count("sort variants", pages.some((k) => k.includes("sort=")));
      count("broken links", g.notFound > 0);
      count("image links without extension", g.images > 0);
      count("image links with extension (skipped)", g.mediaLinksSkipped > 0);
    }
    console.info("family feature coverage over seeds 1–50:\n" + Object.entries(coverage).map(([f, n]) => `  ${String(n).padStart(2)} ${f}`).join("\n"));
    for (const [feature, seeds] of Object.entries(coverage)) expect(seeds, feature).toBeGreaterThanOrEqual(3);
    expect(Object.keys(coverage)).toHaveLength(25);
  });
});
