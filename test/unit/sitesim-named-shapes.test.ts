/**
 * The named shapes built from family parameter sets (lib/sitesim/family/named): each keeps what
 * its description in SITE_SHAPES promises a crawler, checked on the served site through the
 * public API (ground truth and HTML), and the family features they rely on behave as documented.
 */
import { describe, expect, it } from "vitest";
import { buildSite, computeGroundTruth, mimeOf, type SimulatedSite, type SiteShape } from "../../lib/sitesim";
import { finiteUrls, servedPages } from "../helpers/sitesim-pages";

const HOST = "sim.test:8080";
const { html, linksFromHtml } = servedPages(HOST);
const small = (shape: SiteShape, seed = 1) => buildSite({ shape, seed, size: "small" });
const contentType = (site: SimulatedSite, key: string) => mimeOf(site.respond("GET", key).headers["content-type"]!);

describe("named shapes as family points", () => {
  it("ministry-portal: next-only lists whose entries carry their attachments, an infinite agenda", () => {
    const site = small("ministry-portal");
    const g = site.groundTruth();
    expect(g.bfsStop).toBe("only-trap-left");
    expect(g.bfsTrapRequests).toBeGreaterThan(100);
    const list = html(site, "/press-releases/?page=3");
    expect(list).toContain('href="/press-releases/?page=4"');
    expect(list).not.toContain('href="/press-releases/?page=2"'); // next-only: no way back
    const listed = linksFromHtml(list, "/press-releases/?page=3").filter((k) => k.startsWith("/files/"));
    expect(listed.length).toBeGreaterThan(0);
    expect(g.targets.length / finiteUrls(site)).toBeGreaterThan(0.15);
  });

  it("open-data-portal: facet and sort listings are a large share of the pages; API files have no extension", () => {
    const site = small("open-data-portal");
    const g = site.groundTruth();
    const facets = g.htmlPages.filter((k) => /[?&](topic|year|sort)=/.test(k));
    expect(facets.length / g.htmlPages.length).toBeGreaterThan(0.15);
    expect(g.targets.some((t) => t.path.startsWith("/file/"))).toBe(true);
  });

  it.each([1, 2, 3])("deep-sparse seed %i: under 3 % targets, printable duplicates, and a BFS meets 90 % of the files only near its end", (seed) => {
    const site = small("deep-sparse", seed);
    const g = site.groundTruth();
    expect(g.targets.length / finiteUrls(site)).toBeLessThan(0.03);
    expect(g.htmlPages.filter((k) => k.endsWith("?print=1")).length).toBeGreaterThan(g.htmlPages.length / 4);
    expect(g.bfsRequestsTo90! / g.bfsRequests).toBeGreaterThan(0.85);
  });

  it("news-heavy: the data desk holds almost every target; an infinite archive", () => {
    const site = small("news-heavy");
    const g = site.groundTruth();
    expect(g.bfsStop).toBe("only-trap-left");
    expect(g.targets.filter((t) => t.path.startsWith("/files/data/")).length).toBeGreaterThanOrEqual(0.9 * g.targets.length);
    expect(g.htmlPages.length).toBeGreaterThan(15 * g.targets.length);
  });

  it("research-repository: grouped items, facet × sort browse listings, full-record duplicates repeating the files", () => {
    const site = small("research-repository");
    const g = site.groundTruth();
    expect(g.htmlPages.some((k) => /^\/handle\/g\/\d+\?topic=\d+&year=\d+&sort=/.test(k))).toBe(true);
    const item = g.htmlPages.find((k) => /^\/handle\/\d+$/.test(k) && (site.links(k) ?? []).some((l) => l.startsWith("/files/")))!;
    const files = (key: string) => (site.links(key) ?? []).filter((l) => l.startsWith("/files/"));
    expect(files(`${item}?print=1`)).toEqual(files(item));
  });

  it("documentation-site: / redirects to the stable version; every page's version menu links it in every version", () => {
    const site = small("documentation-site");
    const root = site.respond("GET", "/");
    expect(root.status).toBe(302);
    expect(root.headers.location).toMatch(/\/en\/stable\/$/);
    const g = site.groundTruth();
    const page = g.htmlPages.find((k) => k.startsWith("/en/stable/reference/") && !k.includes("?"))!;
    const own = page.slice("/en/stable".length);
    const links = linksFromHtml(html(site, page), page);
    for (const version of ["en/stable", "en/latest", "en/v2.0", "en/v1.9"]) {
      expect(links).toContain(`/${version}${own}`);
      expect(site.respond("GET", `/${version}${own}`).status).toBe(200);
      expect(g.targets.some((t) => t.path.startsWith(`/${version}/files/`)), version).toBe(true);
    }
  });

  it("wiki: revision views of every article are most of the pages and hold no file; some files behind description pages", () => {
    const site = small("wiki");
    const g = site.groundTruth();
    const views = g.htmlPages.filter((k) => /^\/[a-z]+\/(history|edit|info|diff-|oldid-|prev-|next-)/.test(k));
    expect(views.length / g.htmlPages.length).toBeGreaterThan(0.6);
    for (const view of views.slice(0, 50)) expect((site.links(view) ?? []).some((l) => l.startsWith("/files/")), view).toBe(false);
    const parents = new Map<string, string>();
    computeGroundTruth(site, site, { parents });
    expect(g.targets.some((t) => parents.get(t.path)!.includes("/download/"))).toBe(true);
  });

  it("code-forge: files shown as HTML pages named like them link the raw file; four refs with their menus", () => {
    const site = small("code-forge");
    expect(site.respond("GET", "/").headers.location).toMatch(/\/src\/branch\/main\/$/);
    const g = site.groundTruth();
    const view = g.htmlPages.find((k) => /\/data\/src\/\d+-\d\.csv$/.test(k))!;
    expect(view).toBeDefined();
    expect(contentType(site, view)).toBe("text/html");
    const raw = (site.links(view) ?? []).find((l) => /\/files\/data\/\d+-\d\.csv$/.test(l))!;
    expect(contentType(site, raw)).toBe("text/csv");
    expect(g.targets.map((t) => t.path)).toContain(raw);
    for (const ref of ["src/branch/main", "src/branch/dev", "src/tag/v1.1", "src/tag/v1.0"]) expect(g.htmlPages.some((k) => k.startsWith(`/${ref}/data/blame/`)), ref).toBe(true);
  });

  it("other spellings of views, file view pages and versions are 404s", () => {
    const forge = small("code-forge");
    const g = forge.groundTruth();
    const view = g.htmlPages.find((k) => /\/data\/src\/\d+-\d\.csv$/.test(k))!;
    expect(forge.respond("GET", view.replace(/\.csv$/, ".xlsx")).status).toBe(404);
    expect(forge.respond("GET", view.replace("/src/branch/main/", "/src/branch/nope/")).status).toBe(404);
    const blame = g.htmlPages.find((k) => k.includes("/data/blame/"))!;
    expect(forge.respond("GET", blame.replace("/blame/", "/praise/")).status).toBe(404);
    expect(forge.respond("GET", `${blame}?x=1`).status).toBe(404);
  });
});
