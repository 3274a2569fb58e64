import { describe, expect, it } from "vitest";
import { firstPageUrl, readEnumerationPage, type EnumerationAnswer } from "../../lib/recipes/enumeration-pages";
import { loadRecipes } from "../../lib/recipes/load-recipes";
import { pageSigns } from "../../lib/recipes/page-signs";
import { recogniseApplications } from "../../lib/recipes/recognise";
import type { Enumeration, Recipe } from "../../lib/recipes/recipe-schema";

/**
 * The shipped recipes against what each application really sends: page heads written from its
 * templates (the generator text its source sets, its asset paths, headers and cookies) and API
 * answers shaped as its documentation's examples.
 */
const recipes = loadRecipes().map((loaded) => loaded.recipe);
const recipe = (id: string): Recipe => recipes.find((one) => one.id === id)!;
const enumeration = (id: string, which = 0): Enumeration => recipe(id).enumerations[which]!;
const answer = (body: unknown, status = 200, headers: Record<string, string> = {}): EnumerationAnswer => ({
  status,
  headers: new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])),
  body: typeof body === "string" ? body : JSON.stringify(body),
});

interface Head {
  url: string;
  html: string;
  headers?: Array<[string, string]>;
}

/** One realistic page of each application: its head, headers and cookies. */
const HEADS: Record<string, Head> = {
  ckan: { url: "https://data.example.org/", html: `<head><meta name="generator" content="ckan 2.10.4"><link rel="stylesheet" href="/webassets/base/main.css"></head>` },
  wordpress: {
    url: "https://blog.example.org/",
    html: `<head><meta name="generator" content="WordPress 6.5.2"><link rel="https://api.w.org/" href="https://blog.example.org/wp-json/"><link rel="stylesheet" href="/wp-includes/css/dist/block-library/style.min.css"></head>`,
  },
  dkan: {
    url: "https://data.city.example/",
    html: `<head><meta name="Generator" content="Drupal 10 (https://www.drupal.org)"><link rel="stylesheet" media="all" href="/modules/contrib/dkan/modules/dkan_js_frontend/css/frontend.css?s2k1"><script src="/core/misc/drupal.js?v=10.2.5"></script></head>`,
  },
  socrata: {
    url: "https://data.cityofchicago.example/",
    html: `<head><title>City of Chicago | Data Portal</title><link rel="stylesheet" href="/packs/css/site-a1b2.css"></head>`,
    headers: [
      ["X-Socrata-RequestId", "b5b5b0f3c9e3a1d4e5f6a7b8"],
      ["Set-Cookie", "socrata-csrf-token=abc%3D; path=/; secure"],
      ["Set-Cookie", "_socrata_session_id=BAh7; path=/; HttpOnly"],
    ],
  },
  opendatasoft: {
    url: "https://data.region.example/",
    html: `<head><link rel="stylesheet" href="https://static.opendatasoft.com/ods-frontend/stylesheets/app.css"><script src="https://static.opendatasoft.com/ods-frontend/js/ods-app.js"></script></head>`,
  },
  "arcgis-hub": {
    url: "https://hub.county.example/",
    html: `<head><meta name="opendata-ui/config/environment" content="%7B%7D"><link rel="stylesheet" href="https://hubcdn.arcgis.com/opendata-ui/assets/assets/vendor-4f1c.css"><script src="https://hubcdn.arcgis.com/opendata-ui/assets/assets/opendata-ui-9a8b.js"></script></head>`,
  },
  mediawiki: {
    url: "https://wiki.example.org/wiki/Main_Page",
    html: `<head><meta name="generator" content="MediaWiki 1.41.1"><link rel="stylesheet" href="/w/load.php?lang=en&amp;modules=site.styles&amp;only=styles&amp;skin=vector-2022"><script async="" src="/w/load.php?lang=en&amp;modules=startup&amp;only=scripts&amp;raw=1&amp;skin=vector-2022"></script><link rel="EditURI" type="application/rsd+xml" href="https://wiki.example.org/w/api.php?action=rsd"></head>`,
  },
  dspace: {
    url: "https://repository.example.edu/home",
    html: `<head><base href="/"><meta name="Generator" content="DSpace 7.6.1"><link rel="stylesheet" href="dspace-theme.css"><script src="main.8c1e.js" type="module"></script></head>`,
  },
  dataverse: {
    url: "https://dataverse.example.edu/",
    // JSF renders <h:outputScript library="js" name="dv_rebind_bootstrap_ui.js"/> (dataverse_template.xhtml) so.
    html: `<head><link type="text/css" rel="stylesheet" href="/javax.faces.resource/structure.css.xhtml?ln=css&amp;v=6.1"><script src="/javax.faces.resource/dv_rebind_bootstrap_ui.js.xhtml?ln=js&amp;v=6.1"></script></head>`,
    headers: [["Set-Cookie", "JSESSIONID=9a1b; Path=/; Secure; HttpOnly"]],
  },
  "invenio-rdm": {
    url: "https://zenodo.example.org/",
    html: `<head><meta name="generator" content="InvenioRDM 12.0"/><link rel="stylesheet" href="/static/dist/css/3526.3f1d.css"><script src="/static/dist/js/base.9f2e.js"></script></head>`,
  },
};

const PLAIN_PAGES: Head[] = [
  { url: "https://stats.example.gov/", html: `<head><title>Statistics</title><link rel="stylesheet" href="/css/site.css"><script src="/js/app.js"></script></head>` },
  // A Drupal site without DKAN is not DKAN.
  { url: "https://city.example.gov/", html: `<head><meta name="Generator" content="Drupal 10 (https://www.drupal.org)"><link rel="stylesheet" href="/core/themes/olivero/css/base/fonts.css"><script src="/core/misc/drupal.js"></script></head>` },
  // An ordinary Java web application sets a JSESSIONID too.
  { url: "https://shop.example.com/", html: `<head><link rel="stylesheet" href="/javax.faces.resource/theme.css.xhtml?ln=primefaces-saga"></head>`, headers: [["Set-Cookie", "JSESSIONID=1; Path=/"]] },
  // A Hugo site, an Angular app that is not DSpace, a Flask app with webpack bundles.
  { url: "https://docs.example.org/", html: `<head><meta name="generator" content="Hugo 0.120.4"></head>` },
  { url: "https://app.example.org/", html: `<head><meta name="generator" content="Angular 17"><script src="main.js"></script></head>` },
  { url: "https://flask.example.org/", html: `<head><script src="/static/dist/js/base.js"></script></head>` },
];

function recognised(head: Head): string[] {
  return recogniseApplications(recipes, pageSigns(head.url, head.html, head.headers ?? []), head.url).map((candidate) => candidate.recipe.id);
}

describe("the shipped knowledge base", () => {
  it("loads all ten recipes, each with sources, signs and an enumeration", () => {
    expect(recipes.map((one) => one.id)).toEqual(["arcgis-hub", "ckan", "dataverse", "dkan", "dspace", "invenio-rdm", "mediawiki", "opendatasoft", "socrata", "wordpress"]);
    for (const one of recipes) {
      expect(one.sources.length, one.id).toBeGreaterThan(0);
      expect(one.enumerations.length, one.id).toBeGreaterThan(0);
      expect(one.avoid.length, one.id).toBeGreaterThan(0);
    }
  });

  it.each(Object.keys(HEADS))("recognises %s on its own page and nothing else there", (id) => {
    expect(recognised(HEADS[id]!)).toEqual([id]);
  });

  it("recognises no application on plain pages, a plain Drupal, a plain JSF or Flask site", () => {
    for (const page of PLAIN_PAGES) expect(recognised(page), page.url).toEqual([]);
  });

  it("has a page for every recipe, so no two recipes share a recognised head", () => {
    expect(Object.keys(HEADS).sort()).toEqual(recipes.map((one) => one.id).sort());
  });

  it("reads versions from generator tags, and places a MediaWiki under /w/ from its ResourceLoader URL", () => {
    const candidate = (id: string) => {
      const head = HEADS[id]!;
      return recogniseApplications(recipes, pageSigns(head.url, head.html, head.headers ?? []), head.url)[0]!;
    };
    expect(candidate("mediawiki")).toMatchObject({ version: "1.41.1", base: "https://wiki.example.org/w/" });
    expect(candidate("dspace")).toMatchObject({ version: "7.6.1", base: "https://repository.example.edu/" });
    expect(candidate("invenio-rdm")).toMatchObject({ version: "12.0" });
    expect(new URL(recipe("mediawiki").recognise.probe!.path, candidate("mediawiki").base).href).toBe(
      "https://wiki.example.org/w/api.php?action=query&meta=siteinfo&siprop=general&format=json",
    );
  });
});

/** Reads every page of an enumeration from `serve` (URL → answer), as the engine would. */
function readAll(e: Enumeration, base: string, serve: (url: URL) => EnumerationAnswer, limit = 20) {
  const urls: string[] = [];
  const files = [];
  let url: string | null = firstPageUrl(e, base);
  while (url && urls.length < limit) {
    urls.push(url);
    const page = readEnumerationPage(e, base, url, serve(new URL(url)));
    expect(page.problem, url).toBeUndefined();
    files.push(...page.files);
    url = page.nextUrl;
  }
  return { urls, files };
}

function expectProblems(e: Enumeration, base: string, wrongShape: unknown, missing: string) {
  const url = firstPageUrl(e, base);
  expect(readEnumerationPage(e, base, url, answer("Not Found", 404))).toEqual({ files: [], records: 0, nextUrl: null, problem: "answered 404" });
  expect(readEnumerationPage(e, base, url, answer("<html>Service Unavailable</html>", 500))).toMatchObject({ problem: "answered 500", nextUrl: null });
  expect(readEnumerationPage(e, base, url, answer("<!doctype html><title>Sign in</title>"))).toMatchObject({ problem: "did not answer JSON", nextUrl: null });
  expect(readEnumerationPage(e, base, url, answer(wrongShape))).toMatchObject({ problem: `its JSON has no ${missing}`, nextUrl: null });
}

describe("DKAN", () => {
  const base = "https://data.city.example/";
  /** /api/1/search: results keyed by "dkan_dataset/<uuid>", total as a string (DKAN's search API). */
  const dataset = (n: number) => ({
    "@type": "dcat:Dataset",
    identifier: `5d69-${n}`,
    title: `Permits ${n}`,
    modified: "2024-03-01",
    distribution: [
      { "@type": "dcat:Distribution", downloadURL: `https://data.city.example/sites/default/files/uploaded_resources/permits-${n}.csv`, mediaType: "text/csv", format: "csv", title: "Permits table" },
      { "@type": "dcat:Distribution", accessURL: "https://gis.city.example/arcgis/rest/services/permits", format: "esri rest", title: "Map service" },
    ],
  });
  const search = (page: number, size: number, total: number) => {
    const from = (page - 1) * size;
    const items = Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) => dataset(from + i));
    return { total: String(total), results: Object.fromEntries(items.map((item) => [`dkan_dataset/${item.identifier}`, item])), facets: [] };
  };

  it("pages the search API 100 datasets at a time until a short page; each distribution with a downloadURL is a file", () => {
    const e = enumeration("dkan");
    const { urls, files } = readAll(e, base, (url) => answer(search(Number(url.searchParams.get("page")), Number(url.searchParams.get("page-size")), 230)));
    expect(urls.map((url) => new URL(url).searchParams.get("page"))).toEqual(["1", "2", "3"]);
    expect(new URL(urls[0]!).pathname).toBe("/api/1/search");
    expect(files).toHaveLength(230);
    expect(files[0]).toEqual({
      url: "https://data.city.example/sites/default/files/uploaded_resources/permits-0.csv",
      mime: "text/csv",
      format: "csv",
      title: "Permits table",
      record: { title: "Permits 0", page: "https://data.city.example/dataset/5d69-0", modified: "2024-03-01" },
    });
  });

  it("reads data.json in one answer", () => {
    const e = enumeration("dkan", 1);
    const page = readEnumerationPage(e, base, firstPageUrl(e, base), answer({ "@type": "dcat:Catalog", conformsTo: "https://project-open-data.cio.gov/v1.1/schema", dataset: [dataset(1), dataset(2)] }));
    expect(page).toMatchObject({ records: 2, nextUrl: null });
    expect(page.files.map((file) => file.url)).toEqual([
      "https://data.city.example/sites/default/files/uploaded_resources/permits-1.csv",
      "https://data.city.example/sites/default/files/uploaded_resources/permits-2.csv",
    ]);
  });

  it("ends with a problem in words on errors", () => expectProblems(enumeration("dkan"), base, { message: "Not found" }, "results.*"));
});

describe("Socrata", () => {
  const base = "https://data.cityofchicago.example/";
  /** /api/catalog/v1: results[*].resource, permalink, resultSetSize (Discovery API). */
  const catalog = (offset: number, limit: number, total: number) => ({
    results: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
      resource: { name: `Crimes ${offset + i}`, id: `ijzp-q8t${(offset + i) % 10}`, type: "dataset", updatedAt: "2024-05-01T10:00:00.000Z", data_updated_at: "2024-05-02T10:00:00.000Z" },
      classification: { categories: ["public safety"] },
      metadata: { domain: "data.cityofchicago.example" },
      permalink: `https://data.cityofchicago.example/d/ijzp-q8t${(offset + i) % 10}`,
      link: `https://data.cityofchicago.example/Public-Safety/Crimes/ijzp-q8t${(offset + i) % 10}`,
    })),
    resultSetSize: total,
    timings: { serviceMillis: 12, searchMillis: [5, 3] },
  });

  it("asks the domain's own catalogue, 100 at a time, and exports each dataset as CSV", () => {
    const e = enumeration("socrata");
    const first = new URL(firstPageUrl(e, base));
    expect(first.pathname).toBe("/api/catalog/v1");
    expect(Object.fromEntries(first.searchParams)).toMatchObject({ domains: "data.cityofchicago.example", only: "dataset", offset: "0", limit: "100" });
    const { urls, files } = readAll(e, base, (url) => answer(catalog(Number(url.searchParams.get("offset")), 100, 150)));
    expect(urls.map((url) => new URL(url).searchParams.get("offset"))).toEqual(["0", "100"]);
    expect(files).toHaveLength(150);
    expect(files[0]).toEqual({
      url: "https://data.cityofchicago.example/api/views/ijzp-q8t0/rows.csv?accessType=DOWNLOAD",
      mime: "text/csv",
      format: "CSV",
      modified: "2024-05-02T10:00:00.000Z",
      title: "Crimes 0",
      record: { title: "Crimes 0", page: "https://data.cityofchicago.example/d/ijzp-q8t0", modified: "2024-05-02T10:00:00.000Z" },
    });
  });

  it("ends with a problem in words on errors", () => expectProblems(enumeration("socrata"), base, { error: "Invalid query" }, "results[*]"));
});

describe("Opendatasoft", () => {
  const base = "https://data.region.example/";
  /** /api/explore/v2.1/catalog/datasets: total_count, results[*] with dataset_id and metas.default (Explore API v2.1). */
  const datasets = (offset: number, limit: number, total: number) => ({
    total_count: total,
    results: Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({
      dataset_id: `arbres-${offset + i}`,
      dataset_uid: `da_${offset + i}`,
      has_records: true,
      metas: { default: { title: `Arbres ${offset + i}`, modified: "2024-04-01T08:00:00+00:00", data_processed: "2024-04-01T09:00:00+00:00", records_count: 10 } },
      fields: [],
    })),
  });

  it("pages the catalogue by offset and exports each dataset as CSV from the application's root", () => {
    const e = enumeration("opendatasoft");
    const { urls, files } = readAll(e, base, (url) => answer(datasets(Number(url.searchParams.get("offset")), Number(url.searchParams.get("limit")), 201)));
    expect(urls.map((url) => new URL(url).searchParams.get("offset"))).toEqual(["0", "100", "200"]);
    expect(files).toHaveLength(201);
    expect(files[0]).toEqual({
      url: "https://data.region.example/api/explore/v2.1/catalog/datasets/arbres-0/exports/csv",
      mime: "text/csv",
      format: "CSV",
      modified: "2024-04-01T09:00:00+00:00",
      title: "Arbres 0",
      record: { title: "Arbres 0", page: "https://data.region.example/explore/dataset/arbres-0/", modified: "2024-04-01T08:00:00+00:00" },
    });
  });

  it("asks only for datasets modified since the previous run", () => {
    expect(new URL(firstPageUrl(enumeration("opendatasoft"), base, new Date("2026-01-01T00:00:00Z"))).searchParams.get("where")).toBe("modified >= date'2026-01-01T00:00:00.000Z'");
  });

  it("ends with a problem in words on errors", () =>
    expectProblems(enumeration("opendatasoft"), base, { error_code: "ODSQLError", message: "Unknown field" }, "results[*]"));
});

describe("ArcGIS Hub", () => {
  const base = "https://hub.county.example/";

  it("reads the DCAT-US feed: each distribution with a downloadURL is a file, services without one are not", () => {
    const e = enumeration("arcgis-hub");
    expect(firstPageUrl(e, base)).toBe("https://hub.county.example/api/feed/dcat-us/1.1.json");
    const feed = {
      "@context": "https://project-open-data.cio.gov/v1.1/schema/catalog.jsonld",
      "@type": "dcat:Catalog",
      conformsTo: "https://project-open-data.cio.gov/v1.1/schema",
      dataset: [
        {
          "@type": "dcat:Dataset",
          identifier: "https://hub.county.example/datasets/parcels",
          landingPage: "https://hub.county.example/datasets/parcels",
          title: "Parcels",
          modified: "2024-02-02T00:00:00.000Z",
          distribution: [
            { "@type": "dcat:Distribution", title: "ArcGIS Hub Dataset", format: "Web page", mediaType: "text/html", accessURL: "https://hub.county.example/datasets/parcels" },
            { "@type": "dcat:Distribution", title: "ArcGIS GeoService", format: "ArcGIS GeoServices REST API", accessURL: "https://services.arcgis.com/x/arcgis/rest/services/Parcels/FeatureServer/0" },
            { "@type": "dcat:Distribution", title: "CSV", format: "CSV", mediaType: "text/csv", downloadURL: "https://hub.county.example/api/download/v1/items/abc/csv?layers=0" },
            { "@type": "dcat:Distribution", title: "GeoJSON", format: "GeoJSON", mediaType: "application/vnd.geo+json", downloadURL: "https://hub.county.example/api/download/v1/items/abc/geojson?layers=0" },
          ],
        },
      ],
    };
    const page = readEnumerationPage(e, base, firstPageUrl(e, base), answer(feed));
    expect(page.nextUrl).toBeNull();
    expect(page.files).toEqual([
      { url: "https://hub.county.example/api/download/v1/items/abc/csv?layers=0", mime: "text/csv", format: "CSV", title: "CSV", record: { title: "Parcels", page: "https://hub.county.example/datasets/parcels", modified: "2024-02-02T00:00:00.000Z" } },
      expect.objectContaining({ url: "https://hub.county.example/api/download/v1/items/abc/geojson?layers=0", mime: "application/vnd.geo+json" }),
    ]);
  });

  it("ends with a problem in words on errors", () => expectProblems(enumeration("arcgis-hub"), base, { error: { code: 400 } }, "dataset[*]"));
});

describe("MediaWiki", () => {
  const base = "https://wiki.example.org/w/";
  const image = (name: string) => ({
    name,
    timestamp: "2024-01-05T12:00:00Z",
    url: `https://wiki.example.org/w/images/a/ab/${name}`,
    descriptionurl: `https://wiki.example.org/wiki/File:${name}`,
    descriptionshorturl: "https://wiki.example.org/w/index.php?curid=12",
    size: 48213,
    width: 0,
    height: 0,
    mime: "application/pdf",
    ns: 6,
    title: `File:${name}`,
  });

  it("follows the continue object (every member copied) until an answer has none", () => {
    const e = enumeration("mediawiki");
    const first = new URL(firstPageUrl(e, base));
    expect(first.pathname).toBe("/w/api.php");
    expect(Object.fromEntries(first.searchParams)).toMatchObject({ action: "query", list: "allimages", aiprop: "url|mime|size|timestamp", ailimit: "500", format: "json" });
    const pages: Record<string, unknown> = {
      "": { batchcomplete: "", continue: { aicontinue: "20240105120000|B.pdf", continue: "-||" }, query: { allimages: [image("A.pdf")] } },
      "20240105120000|B.pdf": { batchcomplete: "", continue: { aicontinue: "20240101000000|C.pdf", continue: "-||" }, query: { allimages: [image("B.pdf")] } },
      "20240101000000|C.pdf": { batchcomplete: "", query: { allimages: [image("C.pdf")] } },
    };
    const { urls, files } = readAll(e, base, (url) => answer(pages[url.searchParams.get("aicontinue") ?? ""]));
    expect(urls).toHaveLength(3);
    expect(new URL(urls[1]!).searchParams.get("continue")).toBe("-||");
    expect(new URL(urls[1]!).searchParams.get("list")).toBe("allimages");
    expect(files.map((file) => file.url)).toEqual(["A.pdf", "B.pdf", "C.pdf"].map((name) => `https://wiki.example.org/w/images/a/ab/${name}`));
    expect(files[0]).toEqual({
      url: "https://wiki.example.org/w/images/a/ab/A.pdf",
      mime: "application/pdf",
      size: 48213,
      modified: "2024-01-05T12:00:00Z",
      title: "A.pdf",
      record: { title: "File:A.pdf", page: "https://wiki.example.org/wiki/File:A.pdf", modified: "2024-01-05T12:00:00Z" },
    });
  });

  it("stops when the same continuation comes back, and lists by name (a re-crawl compares each file's timestamp instead)", () => {
    const e = enumeration("mediawiki");
    const url = `${firstPageUrl(e, base)}&aicontinue=X&continue=-%7C%7C`;
    expect(readEnumerationPage(e, base, url, answer({ continue: { aicontinue: "X", continue: "-||" }, query: { allimages: [image("X.pdf")] } })).nextUrl).toBeNull();
    // MediaWiki 1.39 pages timestamp order inconsistently for files uploaded in the same second (seen on the real wiki): name order pages right.
    const first = new URL(firstPageUrl(e, base, new Date("2026-02-01T00:00:00Z")));
    expect(first.searchParams.get("aisort")).toBe("name");
    expect(first.searchParams.get("aiend")).toBeNull();
  });

  it("ends with a problem in words on errors, including the API's own error object", () =>
    expectProblems(enumeration("mediawiki"), base, { error: { code: "readapidenied", info: "You need read permission to use this module." } }, "query.allimages[*]"));
});

describe("DSpace 7", () => {
  const base = "https://repository.example.edu/";
  const bitstream = (uuid: string, name: string, mimetype: string, size: number) => ({
    uuid,
    name,
    sizeBytes: size,
    type: "bitstream",
    _links: { content: { href: `https://repository.example.edu/server/api/core/bitstreams/${uuid}/content` }, self: { href: `https://repository.example.edu/server/api/core/bitstreams/${uuid}` } },
    _embedded: { format: { shortDescription: "Adobe PDF", mimetype, type: "bitstreamformat" } },
  });
  /** An item with bundles/bitstreams/format embedded as HAL pages (projections.md, bundles.md). */
  const item = (n: number) => ({
    uuid: `item-${n}`,
    name: `Thesis ${n}`,
    handle: `123456789/${n}`,
    lastModified: "2024-06-01T10:00:00.000+00:00",
    type: "item",
    _embedded: {
      bundles: {
        _embedded: {
          bundles: [
            { name: "ORIGINAL", type: "bundle", _embedded: { bitstreams: { _embedded: { bitstreams: [bitstream(`b${n}`, `thesis-${n}.pdf`, "application/pdf", 1000 + n)] }, page: { totalElements: 1 } } } },
            { name: "THUMBNAIL", type: "bundle", _embedded: { bitstreams: { _embedded: { bitstreams: [bitstream(`t${n}`, `thesis-${n}.pdf.jpg`, "image/jpeg", 10)] } } } },
            { name: "TEXT", type: "bundle", _embedded: { bitstreams: { _embedded: { bitstreams: [bitstream(`x${n}`, `thesis-${n}.pdf.txt`, "text/plain", 10)] } } } },
          ],
        },
        page: { totalElements: 3 },
      },
    },
  });
  const search = (page: number, size: number, total: number) => ({
    type: "discover",
    _embedded: {
      searchResults: {
        _embedded: {
          objects: Array.from({ length: Math.max(0, Math.min(size, total - page * size)) }, (_, i) => ({
            hitHighlights: {},
            _links: { indexableObject: { href: `https://repository.example.edu/server/api/core/items/item-${page * size + i}` } },
            _embedded: { indexableObject: item(page * size + i) },
          })),
        },
        page: { number: page, size, totalElements: total, totalPages: Math.ceil(total / size) },
      },
    },
  });

  it("pages discovery from page 0 to the stated last page, keeping only the ORIGINAL bundle's files", () => {
    const e = enumeration("dspace");
    const first = new URL(firstPageUrl(e, base));
    expect(first.pathname).toBe("/server/api/discover/search/objects");
    expect(Object.fromEntries(first.searchParams)).toMatchObject({ dsoType: "ITEM", embed: "bundles/bitstreams/format", page: "0", size: "100" });
    const { urls, files } = readAll(e, base, (url) => answer(search(Number(url.searchParams.get("page")), 100, 150)));
    expect(urls.map((url) => new URL(url).searchParams.get("page"))).toEqual(["0", "1"]);
    expect(files).toHaveLength(150);
    expect(files[0]).toEqual({
      url: "https://repository.example.edu/server/api/core/bitstreams/b0/content",
      mime: "application/pdf",
      size: 1000,
      title: "thesis-0.pdf",
      record: { title: "Thesis 0", page: "https://repository.example.edu/items/item-0", modified: "2024-06-01T10:00:00.000+00:00" },
    });
  });

  it("reads the contract's other shape too, bitstreams embedded as a plain list", () => {
    const e = enumeration("dspace");
    const flat = search(0, 100, 1);
    const indexable = flat._embedded.searchResults._embedded.objects[0]!._embedded.indexableObject;
    indexable._embedded.bundles._embedded.bundles = [
      { name: "ORIGINAL", type: "bundle", _embedded: { bitstreams: [bitstream("f1", "data.csv", "text/csv", 5)] } } as never,
    ];
    const page = readEnumerationPage(e, base, firstPageUrl(e, base), answer(flat));
    expect(page.files.map((file) => [file.url, file.mime])).toEqual([["https://repository.example.edu/server/api/core/bitstreams/f1/content", "text/csv"]]);
    expect(page.nextUrl).toBeNull();
  });

  it("ends with a problem in words on errors", () =>
    expectProblems(enumeration("dspace"), base, { timestamp: "2024-06-01", status: 422, error: "Unprocessable Entity", message: "Invalid dsoType" }, "_embedded.searchResults._embedded.objects[*]._embedded.indexableObject"));
});

describe("Dataverse", () => {
  const base = "https://dataverse.example.edu/";
  /** /api/search?type=file: data.items[*] of type file, data.total_count (search.rst's example). */
  const search = (start: number, perPage: number, total: number) => ({
    status: "OK",
    data: {
      q: "*",
      total_count: total,
      start,
      spelling_alternatives: {},
      items: Array.from({ length: Math.max(0, Math.min(perPage, total - start)) }, (_, i) => ({
        name: `trees-${start + i}.png`,
        type: "file",
        url: `https://dataverse.example.edu/api/access/datafile/${start + i}`,
        file_id: String(start + i),
        description: "",
        published_at: "2016-05-10T12:53:39Z",
        file_type: "PNG Image",
        file_content_type: "image/png",
        size_in_bytes: 8361,
        md5: "0386269a5acb2c57b4eade587ff4db64",
        file_persistent_id: "doi:10.5072/FK2/XTT5BV/PCCHV7",
        dataset_name: "Dataset One",
        dataset_id: "32",
        dataset_persistent_id: "doi:10.5072/FK2/XTT5BV",
        dataset_citation: "Spruce, Sabrina, 2016, \"Spruce Goose\", http://dx.doi.org/10.5072/FK2/XTT5BV, Root Dataverse, V1",
      })),
      count_in_response: Math.max(0, Math.min(perPage, total - start)),
    },
  });

  it("pages files 1,000 at a time until total_count, each with its type, size and dataset page", () => {
    const e = enumeration("dataverse");
    const first = new URL(firstPageUrl(e, base));
    expect(Object.fromEntries(first.searchParams)).toMatchObject({ q: "*", type: "file", start: "0", per_page: "1000" });
    const { urls, files } = readAll(e, base, (url) => answer(search(Number(url.searchParams.get("start")), 1000, 2001)));
    expect(urls.map((url) => new URL(url).searchParams.get("start"))).toEqual(["0", "1000", "2000"]);
    expect(files).toHaveLength(2001);
    expect(files[0]).toEqual({
      url: "https://dataverse.example.edu/api/access/datafile/0",
      mime: "image/png",
      format: "PNG Image",
      size: 8361,
      modified: "2016-05-10T12:53:39Z",
      title: "trees-0.png",
      record: { title: "Dataset One", page: "https://dataverse.example.edu/dataset.xhtml?persistentId=doi%3A10.5072%2FFK2%2FXTT5BV" },
    });
  });

  it("ends with a problem in words on errors", () =>
    expectProblems(enumeration("dataverse"), base, { status: "ERROR", message: "Search Syntax Error" }, "data.items[*]"));
});

describe("InvenioRDM and Zenodo", () => {
  const base = "https://zenodo.example.org/";
  const rdmHit = (id: string) => ({
    id,
    created: "2024-01-01T00:00:00.000000+00:00",
    updated: "2024-02-01T00:00:00.000000+00:00",
    metadata: { title: `Survey ${id}`, resource_type: { id: "dataset" } },
    files: {
      enabled: true,
      count: 2,
      entries: {
        "survey.csv": { key: "survey.csv", mimetype: "text/csv", size: 2048, links: { self: `https://zenodo.example.org/api/records/${id}/files/survey.csv`, content: `https://zenodo.example.org/api/records/${id}/files/survey.csv/content` } },
        "codebook with spaces.pdf": { key: "codebook with spaces.pdf", mimetype: "application/pdf", size: 512 },
      },
    },
    links: { self: `https://zenodo.example.org/api/records/${id}`, self_html: `https://zenodo.example.org/records/${id}` },
  });
  /** Zenodo's legacy-shaped hit: files as a list whose links.self is the content. */
  const zenodoHit = (id: number) => ({
    id,
    updated: "2024-03-01T00:00:00.000000+00:00",
    metadata: { title: `Zenodo ${id}` },
    files: [{ id: "f1", key: "data.zip", size: 99, checksum: "md5:1", links: { self: `https://zenodo.example.org/api/records/${id}/files/data.zip/content` } }],
    links: { self_html: `https://zenodo.example.org/records/${id}` },
  });

  it("follows links.next; a file's URL is links.content, else built from the record id and key", () => {
    const e = enumeration("invenio-rdm");
    const first = firstPageUrl(e, base);
    expect(Object.fromEntries(new URL(first).searchParams)).toMatchObject({ sort: "updated-desc", size: "25" });
    const next = "https://zenodo.example.org/api/records?page=2&size=25&sort=updated-desc";
    const pages: Record<string, unknown> = {
      "1": { hits: { hits: [rdmHit("abcd-1234")], total: 2 }, links: { self: first, next }, sortBy: "updated-desc" },
      "2": { hits: { hits: [zenodoHit(777)], total: 2 }, links: { self: next, prev: first } },
    };
    const { urls, files } = readAll(e, base, (url) => answer(pages[url.searchParams.get("page") ?? "1"]));
    expect(urls).toEqual([first, next]);
    expect(files).toEqual([
      { url: "https://zenodo.example.org/api/records/abcd-1234/files/survey.csv/content", mime: "text/csv", size: 2048, title: "survey.csv", record: { title: "Survey abcd-1234", page: "https://zenodo.example.org/records/abcd-1234", modified: "2024-02-01T00:00:00.000000+00:00" } },
      expect.objectContaining({ url: "https://zenodo.example.org/api/records/abcd-1234/files/codebook%20with%20spaces.pdf/content", mime: "application/pdf", size: 512 }),
      expect.objectContaining({ url: "https://zenodo.example.org/api/records/777/files/data.zip/content", size: 99, record: expect.objectContaining({ title: "Zenodo 777", page: "https://zenodo.example.org/records/777" }) }),
    ]);
  });

  it("asks only for records updated since the previous run", () => {
    expect(new URL(firstPageUrl(enumeration("invenio-rdm"), base, new Date("2026-03-01T00:00:00Z"))).searchParams.get("q")).toBe('updated:["2026-03-01T00:00:00.000Z" TO *]');
  });

  it("ends with a problem in words on errors", () =>
    expectProblems(enumeration("invenio-rdm"), base, { status: 400, message: "Invalid query string syntax." }, "hits.hits[*]"));
});
