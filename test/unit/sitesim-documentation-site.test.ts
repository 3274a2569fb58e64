import { describe, expect, it } from "vitest";
import { buildSite, mimeOf, SIM_TARGET_MIME_TYPES, type SimulatedSite } from "../../lib/sitesim";
import { relativeUri } from "../../lib/sitesim/shapes/docs-urls";
import { finiteUrls } from "../helpers/sitesim-pages";

const HOST = "docs.test";
/** Versions listed in the version menu (v1.8 is hidden). */
const VISIBLE = ["latest", "stable", "v2.1", "v2.0", "v1.9"];

/** Links of the Read the Docs version menu ("Versions" block) of a served page. */
function versionMenu(site: SimulatedSite, key: string): string[] {
  const html = site.respond("GET", key).body.toString("utf8");
  const block = /<dt>Versions<\/dt>(.*?)<\/dl>/s.exec(html)![1]!;
  return [...block.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
}

function contentType(site: SimulatedSite, key: string): string {
  return mimeOf(site.respond("GET", key).headers["content-type"]!);
}

describe("documentation-site", () => {
  const site = buildSite({ shape: "documentation-site", seed: 1, size: "small" });
  const g = site.groundTruth();
  const targets = new Set(g.targets.map((t) => t.path));
  const allLinks = [...new Set(g.htmlPages.flatMap((p) => site.links(p)!))];

  it("/ redirects (302) to /en/stable/, where the crawl starts", () => {
    const root = site.respond("GET", "/", { host: HOST });
    expect(root.status).toBe(302);
    expect(root.headers.location).toBe(`http://${HOST}/en/stable/`);
    expect(site.respond("GET", "/en/").headers.location).toBe("/en/stable/");
    expect(site.respond("GET", "/fr/").headers.location).toBe("/fr/latest/");
    expect(g.htmlPages[0]).toBe("/en/stable/");
    // The root document is also served as index.html, which its pages link: a near-duplicate.
    expect(g.htmlPages).toContain("/en/stable/index.html");
  });

  it("the version menu links the same page in every visible version (dirhtml in v1.9), and the version root when a version lacks it", () => {
    const same = (v: string) => (v === "v1.9" ? `/en/v1.9/getting_started/install/` : `/en/${v}/getting_started/install.html`);
    for (const v of VISIBLE) {
      expect(g.htmlPages).toContain(same(v));
      expect(versionMenu(site, same(v))).toEqual(VISIBLE.map(same));
    }
    // A page of an API object new in the development version: older versions fall back to their root.
    const fresh = g.htmlPages.find((p) => p.startsWith("/en/latest/reference/api/") && site.resolve(p.replace("/latest/", "/stable/")).kind === "missing")!;
    expect(fresh).toBeDefined();
    const menu = versionMenu(site, fresh);
    expect(menu[0]).toBe(fresh);
    expect(menu.slice(1)).toEqual(["/en/stable/", "/en/v2.1/", "/en/v2.0/", "/en/v1.9/"]);
    expect(allLinks.some((l) => l.startsWith("/en/v1.8/") && l !== "/en/v1.8/")).toBe(false);
  });

  it("stable and v2.1 are the same build: a page's links correspond one to one", () => {
    const page = g.htmlPages.find((p) => p.startsWith("/en/stable/reference/api/"))!;
    const swap = (l: string) => l.replace("/en/stable/", "/en/v2.1/");
    expect(new Set(site.links(page)!.map(swap))).toEqual(new Set(site.links(swap(page))!.map((l) => l.replace("/en/stable/", "/en/v2.1/"))));
    expect(site.links(page)!.length).toBe(site.links(swap(page))!.length);
  });

  it("offline downloads, example data and gallery archives are targets; e-books, scripts, notebooks, images and theme assets are not", () => {
    for (const v of ["stable", "v2.1", "v2.0", "v1.9"]) expect(targets).toContain(`/_/downloads/en/${v}/pdf/`);
    const pdf = site.respond("GET", "/_/downloads/en/stable/pdf/");
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toMatch(/^attachment; filename="[a-z]+-readthedocs-io-en-stable\.pdf"$/);
    const data = g.targets.filter((t) => /^\/en\/[^/]+\/_downloads\/[0-9a-f]{32}\/[a-z0-9_]+\.(csv|xlsx|json|zip|txt)$/.test(t.path));
    expect(data.length).toBeGreaterThan(50);
    expect(new Set(data.map((t) => t.mime)).size).toBeGreaterThanOrEqual(4);
    const nonTargets = allLinks.filter((l) => /\/_\/downloads\/.*\/epub\/$|\.(py|ipynb)$/.test(l));
    expect(nonTargets.length).toBeGreaterThan(20);
    for (const key of nonTargets.slice(0, 40)) {
      expect(site.respond("GET", key).status).toBe(200);
      expect(SIM_TARGET_MIME_TYPES).not.toContain(contentType(site, key));
      expect(targets.has(key)).toBe(false);
    }
    const images = allLinks.filter((l) => l.includes("/_images/"));
    expect(images.length).toBeGreaterThan(5);
    expect(images.every((l) => l.endsWith(".png") && !targets.has(l))).toBe(true);
    expect(contentType(site, images[0]!)).toBe("image/png");
    expect(g.mediaLinksSkipped).toBeGreaterThanOrEqual(images.length);
    // Theme assets come through <link> and <script>, never through anchors.
    expect(allLinks.some((l) => l.includes("/_static/"))).toBe(false);
    expect(site.respond("GET", "/en/stable/_static/pygments.css").headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(site.respond("GET", "/en/v2.0/_static/js/theme.js").headers["content-type"]).toBe("text/javascript; charset=utf-8");
  });

  it("renamed pages 301 to their new names, clean URLs 301 to .html, removed pages and deleted versions' files are 404", () => {
    const moved = site.respond("GET", "/en/stable/getting_started/10min.html");
    expect(moved.status).toBe(301);
    expect(moved.headers.location).toBe("/en/stable/getting_started/quickstart.html");
    expect(g.htmlPages).toContain("/en/stable/getting_started/quickstart.html");
    // The old name is still a page in the versions that had it.
    expect(site.respond("GET", "/en/v2.0/getting_started/10min.html").status).toBe(200);
    expect(site.respond("GET", "/en/v1.9/getting_started/10min/").status).toBe(200);
    const io = site.respond("GET", "/en/stable/user_guide/input_output.html");
    expect([io.status, io.headers.location]).toEqual([301, "/en/stable/user_guide/io.html"]);
    const clean = site.respond("GET", "/en/stable/user_guide/groupby/");
    expect([clean.status, clean.headers.location]).toEqual([301, "/en/stable/user_guide/groupby.html"]);
    expect(site.respond("GET", "/en/stable/reference/compat.html").status).toBe(200);
    expect(site.respond("GET", "/en/latest/reference/compat.html").status).toBe(404);
    expect(site.respond("GET", "/_/downloads/en/v1.7/pdf/").status).toBe(404);
    expect(allLinks).toContain("/en/stable/getting_started/10min.html");
    expect(allLinks).toContain("/_/downloads/en/v1.7/pdf/");
    expect(g.redirects).toBeGreaterThan(10);
    expect(g.notFound).toBeGreaterThan(5);
  });

  it("only the old theme links page sources (_sources/…rst.txt, plain-text targets)", () => {
    const sources = allLinks.filter((l) => l.includes("/_sources/"));
    expect(sources.length).toBeGreaterThan(20);
    expect(sources.every((l) => /^\/en\/v1\.9\/_sources\/.+\.(rst|ipynb)\.txt$/.test(l))).toBe(true);
    for (const key of sources) expect(targets.has(key)).toBe(true);
    expect(contentType(site, sources[0]!)).toBe("text/plain");
    expect(site.respond("GET", sources[0]!.replace("/v1.9/", "/stable/")).status).toBe(404);
  });

  it("robots.txt disallows the hidden version only; it is served but never crawled", () => {
    expect(site.robotsTxt.startsWith("User-agent: *\nDisallow: /en/v1.8/\n\n")).toBe(true);
    expect(allLinks).toContain("/en/v1.8/");
    expect(g.disallowedLinks).toBe(1);
    expect(g.htmlPages.some((p) => p.startsWith("/en/v1.8/"))).toBe(false);
    expect(site.respond("GET", "/en/v1.8/").status).toBe(200);
    // Search is allowed, as on Read the Docs: one page per version, results come from JavaScript.
    expect(g.htmlPages).toContain("/en/stable/search.html");
  });

  it("has one page per API object from 2.0 on; 1.9 documents objects on their module page", () => {
    const api = g.htmlPages.filter((p) => p.startsWith("/en/v2.0/reference/api/"));
    expect(api.length).toBeGreaterThan(100);
    expect(g.htmlPages.some((p) => p.startsWith("/en/v1.9/reference/api/"))).toBe(false);
    const modulePages = g.htmlPages.filter((p) => /^\/en\/v1\.9\/reference\/[a-z_]+\/$/.test(p));
    expect(modulePages.length).toBeGreaterThan(2);
    // Cross-references from the 1.9 module pages point at anchors of module pages.
    const refs = site.respond("GET", modulePages[0]!).body.toString("utf8").match(/href="\.\.\/[a-z_]+\/#[a-z]+\.[a-z_]+\.[A-Za-z_0-9.]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
  });

  it("the French translation covers the narrative sections and links the English API", () => {
    const fr = g.htmlPages.filter((p) => p.startsWith("/fr/latest/"));
    expect(fr.length).toBeGreaterThan(10);
    for (const p of fr) expect(p).toMatch(/^\/fr\/latest\/((getting_started|user_guide|tutorials)\/.*|index\.html|genindex\.html|search\.html|)$/);
    const api = fr.flatMap((p) => site.links(p)!).filter((l) => l.includes("/reference/api/"));
    expect(api.length).toBeGreaterThan(5);
    expect(api.every((l) => l.startsWith("/en/latest/reference/api/"))).toBe(true);
  });

  it("writes Sphinx's relative links", () => {
    expect(relativeUri("/en/stable/user_guide/io.html", "/en/stable/user_guide/io.html")).toBe("");
    expect(relativeUri("/en/stable/user_guide/index.html", "/en/stable/user_guide/")).toBe("./");
    expect(relativeUri("/en/stable/user_guide/io.html", "/en/stable/reference/api/a.b.html#a.b")).toBe("../reference/api/a.b.html#a.b");
    expect(relativeUri("/en/v1.9/user_guide/io/", "/en/v1.9/")).toBe("../../");
    expect(relativeUri("/en/v1.9/", "/en/v1.9/user_guide/")).toBe("user_guide/");
  });

  it.each([1, 2, 3, 4, 5, 6])("seed %i: targets are 6–13 % of the finite URLs of a small site, spread over versions", (seed) => {
    const s = buildSite({ shape: "documentation-site", seed, size: "small" });
    const gs = s.groundTruth();
    const share = gs.targets.length / finiteUrls(s);
    expect(share).toBeGreaterThan(0.06);
    expect(share).toBeLessThan(0.13);
    const perVersion = new Map<string, number>();
    for (const t of gs.targets) {
      const v = /^\/(?:_\/downloads\/)?((?:en|fr)\/[^/]+)\//.exec(t.path)![1]!;
      perVersion.set(v, (perVersion.get(v) ?? 0) + 1);
    }
    expect(perVersion.size).toBeGreaterThanOrEqual(6);
    expect(Math.max(...perVersion.values()) / gs.targets.length).toBeLessThan(0.4);
  });

  it("builds a large site and its ground truth quickly", () => {
    const t0 = performance.now();
    const large = buildSite({ shape: "documentation-site", seed: 3, size: "large" });
    expect(performance.now() - t0).toBeLessThan(2_000);
    const gl = large.groundTruth();
    // ≈ 1.5 s on an idle machine; generous here because tests share two cores.
    expect(performance.now() - t0).toBeLessThan(8_000);
    expect(finiteUrls(large)).toBeGreaterThan(30_000);
    expect(finiteUrls(large)).toBeLessThan(50_000);
    expect(gl.targets.length / finiteUrls(large)).toBeGreaterThan(0.05);
    expect(gl.bfsStop).toBe("exhausted");
  });
});
