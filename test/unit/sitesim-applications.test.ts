import { describe, expect, it } from "vitest";
import { applicationTruth, buildSite, NAMED_SHAPES, type SimulatedSite, type SiteSpec } from "@/lib/sitesim";
import { loadRecipes } from "@/lib/recipes/load-recipes";
import { pageSigns } from "@/lib/recipes/page-signs";
import { recogniseApplications } from "@/lib/recipes/recognise";

const HOST = "sim.test";
const get = (site: SimulatedSite, url: string) => site.respond("GET", url, { host: HOST });
const json = (site: SimulatedSite, url: string) => {
  const r = get(site, url);
  return { status: r.status, headers: r.headers, body: JSON.parse(r.body.toString("utf8")) as any };
};
const pathOf = (url: string) => (url.startsWith(`http://${HOST}/`) ? url.slice(`http://${HOST}`.length) : url);

/** Reads `/` (following redirects) and returns the applications the shipped recipes recognise. */
function recognisedAtRoot(site: SimulatedSite): string[] {
  let path = "/";
  for (let hop = 0; hop < 5; hop++) {
    const r = get(site, path);
    if (r.status >= 300 && r.status < 400) {
      path = pathOf(r.headers.location!);
      continue;
    }
    const url = `http://${HOST}${path}`;
    const signs = pageSigns(url, r.body.toString("utf8"), Object.entries(r.headers));
    return recogniseApplications(loadRecipes().map((l) => l.recipe), signs, url).map((c) => c.recipe.id);
  }
  throw new Error("redirect loop at /");
}

describe("ckan-portal", () => {
  const spec: SiteSpec = { shape: "ckan-portal", seed: 3, size: "small" };
  const site = buildSite(spec);
  const truth = applicationTruth(site);

  it("is deterministic and byte-identical for the same spec", () => {
    const other = buildSite(spec);
    for (const url of ["/", "/dataset/?page=2", "/api/3/action/package_search?rows=5", truth.htmlFiles[0]!]) {
      expect(other.respond("GET", url, { host: HOST }).body.equals(get(site, url).body)).toBe(true);
    }
    expect(applicationTruth(buildSite({ ...spec, seed: 4 })).apiFiles).not.toEqual(truth.apiFiles);
  });

  it("serves CKAN 2.10 HTML whose links reach every uploaded file, in the filestore layout", () => {
    const home = get(site, "/").body.toString();
    expect(home).toContain('<meta name="generator" content="ckan 2.10.4" />');
    expect(home).toMatch(/href="\/webassets\/base\/[0-9a-f]{8}_main\.css"/);
    expect(truth.htmlFiles.length).toBeGreaterThan(100);
    expect([...truth.htmlFiles].sort()).toEqual(truth.apiFiles);
    for (const f of truth.htmlFiles) expect(f).toMatch(/^\/dataset\/[0-9a-f-]{36}\/resource\/[0-9a-f-]{36}\/download\/[a-z0-9-]+\.(csv|xlsx|pdf|json|zip|xls|xml|ods)$/);
    expect(get(site, "/user/login").status).toBe(200);
    expect(get(site, "/dataset/?page=999").status).toBe(404);
  });

  it("package_search paged to the end lists exactly the API truth, newest first, rows capped at 1000", () => {
    const urls: string[] = [];
    let count = -1;
    let previous = "9999";
    for (let start = 0; count < 0 || start < count; start += 7) {
      const { status, headers, body } = json(site, `/api/3/action/package_search?q=*:*&sort=metadata_modified+desc&rows=7&start=${start}`);
      expect(status).toBe(200);
      expect(headers["content-type"]).toBe("application/json;charset=utf-8");
      expect(body.success).toBe(true);
      expect(body.help).toBe(`http://${HOST}/api/3/action/help_show?name=package_search`);
      count = body.result.count;
      for (const d of body.result.results) {
        expect(d.metadata_modified <= previous).toBe(true);
        previous = d.metadata_modified;
        for (const r of d.resources) {
          expect(Object.keys(r)).toEqual(expect.arrayContaining(["url", "format", "mimetype", "size", "last_modified", "name"]));
          urls.push(pathOf(r.url));
        }
      }
    }
    expect(count).toBe(site.application!.recordCount);
    expect(urls).toEqual(truth.apiListed.map((l) => l.url));
    expect(json(site, "/api/3/action/package_search?rows=5000").body.result.results).toHaveLength(Math.min(1000, count));
  });

  it("filters on fq metadata_modified ranges", () => {
    const all = json(site, "/api/3/action/package_search?rows=1000").body.result.results as Array<{ metadata_modified: string }>;
    const since = all[Math.floor(all.length / 3)]!.metadata_modified.slice(0, 19) + "Z";
    const expected = all.filter((d) => d.metadata_modified.slice(0, 19) + "Z" >= since).length;
    const fq = encodeURIComponent(`metadata_modified:[${since} TO *]`);
    const answer = json(site, `/api/3/action/package_search?rows=1000&fq=${fq}`).body.result;
    expect(answer.count).toBe(expected);
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(all.length);
    const bad = json(site, `/api/3/action/package_search?fq=${encodeURIComponent("metadata_modified:[yesterday TO *]")}`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ success: false, error: { __type: "Search Query Error" } });
  });

  it("answers status_show, validation and unknown actions as CKAN does", () => {
    const status = json(site, "/api/3/action/status_show");
    expect(status.body).toMatchObject({ success: true, result: { ckan_version: "2.10.4", site_url: `http://${HOST}` } });
    expect(json(site, "/api/3/action/package_search?rows=ten")).toMatchObject({ status: 409, body: { success: false, error: { __type: "Validation Error", rows: ["Invalid integer"] } } });
    expect(json(site, "/api/3/action/no_such_action")).toMatchObject({ status: 400, body: "Bad request - Action name not known: no_such_action" });
  });

  it("variants: sub-path, api-error, off-site files, robots.txt disallowing /api/", () => {
    const sub = buildSite({ ...spec, variant: "sub-path" });
    expect(get(sub, "/").status).toBe(302);
    expect(get(sub, "/").headers.location).toBe(`http://${HOST}/data/`);
    expect(get(sub, "/data/").body.toString()).toContain('href="/data/webassets/');
    expect(get(sub, "/dataset/").status).toBe(404);
    const subTruth = applicationTruth(sub);
    expect(subTruth.base).toBe("/data/");
    expect(subTruth.htmlFiles.every((f) => f.startsWith("/data/dataset/"))).toBe(true);
    expect([...subTruth.htmlFiles].sort()).toEqual(subTruth.apiFiles);
    expect(json(sub, "/data/api/3/action/status_show").status).toBe(200);

    const broken = buildSite({ ...spec, variant: "api-error" });
    expect(json(broken, "/api/3/action/package_search")).toMatchObject({ status: 500, body: { success: false, error: { __type: "Internal Server Error" } } });
    expect(applicationTruth(broken)).toMatchObject({ api: "fails", apiFloor: null });

    const harvested = applicationTruth(buildSite({ ...spec, variant: "off-site-files" }));
    expect(harvested.apiOffSiteFiles.length).toBeGreaterThan(0);
    expect(harvested.apiOffSiteFiles.every((u) => /^https:\/\/opendata\.[a-z0-9-]+\.invalid\//.test(u))).toBe(true);
    expect(harvested.apiFiles.length + harvested.apiOffSiteFiles.length).toBeGreaterThan(harvested.apiFiles.length);

    const robots = buildSite({ ...spec, variant: "robots-disallow-api" });
    expect(robots.robotsTxt).toContain("Disallow: /api/");
    expect(site.robotsTxt).not.toContain("Disallow: /api/");
    expect(() => buildSite({ ...spec, variant: "nope" })).toThrow(/unknown variant "nope" of ckan-portal \(sub-path, api-error/);
    expect(() => buildSite({ shape: "wiki", seed: 1, size: "tiny", variant: "sub-path" })).toThrow(/has no variants/);
  });

  it("reaches about 1,500 datasets and 5,400 files at size large", () => {
    const large = applicationTruth(buildSite({ shape: "ckan-portal", seed: 1, size: "large" }));
    expect(buildSite({ shape: "ckan-portal", seed: 1, size: "large" }).application!.recordCount).toBe(1500);
    expect(large.apiFiles.length).toBeGreaterThan(5000);
    expect(large.apiFiles.length).toBeLessThan(5800);
    expect(large.apiFloor).toEqual({ pageSize: 1000, pages: 2 });
  });
});

describe("wordpress-site", () => {
  const spec: SiteSpec = { shape: "wordpress-site", seed: 5, size: "small" };
  const site = buildSite(spec);
  const truth = applicationTruth(site);

  it("serves WordPress pages with discovery links, files linked from posts and uploads no page links", () => {
    const home = get(site, "/");
    expect(home.headers.link).toBe(`<http://${HOST}/wp-json/>; rel="https://api.w.org/"`);
    expect(home.body.toString()).toContain(`<link rel="https://api.w.org/" href="http://${HOST}/wp-json/" />`);
    expect(home.body.toString()).toMatch(/<meta name="generator" content="WordPress 6\.\d+\.\d+" \/>/);
    expect(truth.htmlFiles.every((f) => /^\/wp-content\/uploads\/20\d\d\/\d\d\/[a-z0-9-]+\.(pdf|xlsx|csv|docx|zip|ods)$/.test(f))).toBe(true);
    expect(truth.apiOnlyFiles.length).toBeGreaterThan(0);
    expect(truth.targets).toEqual([...new Set([...truth.htmlFiles, ...truth.apiFiles])].sort());
    const cat = /href="http:\/\/sim\.test(\/category\/[a-z0-9-]+\/)"/.exec(home.body.toString())![1]!;
    expect(get(site, `${cat}page/1/`).status).toBe(301);
  });

  it("pages /wp-json/wp/v2/media with X-WP-Total headers, _fields and a 400 past the last page", () => {
    const listed: string[] = [];
    const first = json(site, "/wp-json/wp/v2/media?orderby=modified&order=desc&per_page=100&page=1&_fields=source_url,media_details.filesize");
    const pages = Number(first.headers["x-wp-totalpages"]);
    expect(Number(first.headers["x-wp-total"])).toBe(site.application!.recordCount);
    expect(first.headers["content-type"]).toBe("application/json; charset=UTF-8");
    expect(Object.keys(first.body[0])).toEqual(["source_url", "media_details"]);
    expect(Object.keys(first.body[0].media_details)).toEqual(["filesize"]);
    expect(first.headers.link).toContain('rel="next"');
    for (let page = 1; page <= pages; page++) {
      for (const m of json(site, `/wp-json/wp/v2/media?orderby=modified&order=desc&per_page=100&page=${page}`).body) listed.push(pathOf(m.source_url));
    }
    expect(listed).toEqual(truth.apiListed.map((l) => l.url));
    expect(json(site, `/wp-json/wp/v2/media?per_page=100&page=${pages + 1}`)).toMatchObject({ status: 400, body: { code: "rest_post_invalid_page_number", data: { status: 400 } } });
    expect(json(site, "/wp-json/wp/v2/media?per_page=101")).toMatchObject({ status: 400, body: { code: "rest_invalid_param" } });
    expect(json(site, "/wp-json/")).toMatchObject({ status: 200, body: { namespaces: expect.arrayContaining(["wp/v2"]) } });
    expect(json(site, "/wp-json/wp/v2/nothing")).toMatchObject({ status: 404, body: { code: "rest_no_route" } });
  });

  it("honours modified_after", () => {
    const all = json(site, "/wp-json/wp/v2/media?per_page=100&orderby=modified&order=desc").body as Array<{ modified_gmt: string }>;
    const since = all[40]!.modified_gmt;
    const after = json(site, `/wp-json/wp/v2/media?per_page=100&modified_after=${since}`);
    // The first page (newest first) holds every item newer than its 41st: later pages are older.
    const newer = all.filter((m) => m.modified_gmt > since).length;
    expect(newer).toBeGreaterThan(0);
    expect(Number(after.headers["x-wp-total"])).toBe(newer);
  });

  it("variants: REST API disabled with 401 or 404", () => {
    const closed = buildSite({ ...spec, variant: "rest-disabled-401" });
    expect(json(closed, "/wp-json/wp/v2/media")).toMatchObject({ status: 401, body: { code: "rest_cannot_access", data: { status: 401 } } });
    expect(get(closed, "/").headers.link).toContain("https://api.w.org/");
    const gone = buildSite({ ...spec, variant: "rest-disabled-404" });
    expect(json(gone, "/wp-json/")).toMatchObject({ status: 404, body: { code: "rest_no_route" } });
    expect(get(gone, "/").headers.link).toBeUndefined();
    expect(applicationTruth(gone)).toMatchObject({ api: "fails", apiFloor: null, targets: applicationTruth(gone).htmlFiles.slice().sort() });
  });
});

describe("no false recognition", () => {
  it("the shipped recipes recognise CKAN and WordPress on their shapes only", () => {
    expect(recognisedAtRoot(buildSite({ shape: "ckan-portal", seed: 1, size: "tiny" }))).toEqual(["ckan"]);
    expect(recognisedAtRoot(buildSite({ shape: "wordpress-site", seed: 1, size: "tiny" }))).toEqual(["wordpress"]);
    expect(recognisedAtRoot(buildSite({ shape: "wordpress-site", seed: 1, size: "tiny", variant: "rest-disabled-404" }))).toEqual(["wordpress"]);
    for (const shape of NAMED_SHAPES) expect(recognisedAtRoot(buildSite({ shape, seed: 1, size: "tiny" })), shape).toEqual([]);
    for (let seed = 1; seed <= 20; seed++) expect(recognisedAtRoot(buildSite({ shape: "family", seed, size: "tiny" })), `family ${seed}`).toEqual([]);
  });
});
