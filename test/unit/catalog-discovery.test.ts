/**
 * Where a site's catalog is (lib/recipes/catalog-discovery.ts): ckanext-dcat's home-page links,
 * Link headers, DCAT-US data.json links, links that are no catalog, and the one guessed path.
 */
import { describe, expect, it } from "vitest";
import { advertisedCatalogs, catalogsToTry, guessedCatalog, wellKnownCatalogs, WELL_KNOWN_CATALOG_PATHS } from "../../lib/recipes/catalog-discovery";

/** ckanext-dcat's templates/home/index.html `links` block, as a CKAN 2.10 home page renders it. */
const CKAN_HOME = `<!DOCTYPE html>
<html lang="en"><head>
  <meta charset="utf-8" /><meta name="generator" content="ckan 2.10.4" />
  <title>Welcome - City Open Data</title>
  <link rel="alternate" type="application/rss+xml" title="Recent changes" href="/feeds/dataset.atom" />
  <link rel="alternate" type="text/n3" href="https://ckan.example.org/catalog.n3"/>
  <link rel="alternate" type="text/ttl" href="https://ckan.example.org/catalog.ttl"/>
  <link rel="alternate" type="application/rdf+xml" href="https://ckan.example.org/catalog.xml"/>
  <link rel="alternate" type="application/ld+json" href="https://ckan.example.org/catalog.jsonld"/>
  <link rel="stylesheet" href="/webassets/base/main.css" />
</head><body><link rel="alternate" type="text/turtle" href="/in-body.ttl"/></body></html>`;

describe("advertisedCatalogs", () => {
  it("reads ckanext-dcat's four catalog links from the head, not feeds, stylesheets or the body", () => {
    expect(advertisedCatalogs(CKAN_HOME, "https://ckan.example.org/")).toEqual([
      { url: "https://ckan.example.org/catalog.n3", format: "n3", from: "link-element" },
      { url: "https://ckan.example.org/catalog.ttl", format: "turtle", from: "link-element" },
      { url: "https://ckan.example.org/catalog.xml", format: "rdf-xml", from: "link-element" },
      { url: "https://ckan.example.org/catalog.jsonld", format: "json-ld", from: "link-element" },
    ]);
  });

  it("reads Link headers first, resolves relative links, takes application/json only for a data.json, and drops duplicates and non-http links", () => {
    const html = `<html><head>
      <link rel="alternate" type="application/json" href="/api/3/action/package_list">
      <link rel="alternate" type="application/json" href="/data.json">
      <link rel="Alternate" type="application/ld+json; charset=utf-8" href="catalog.jsonld">
      <link rel="alternate" type="text/turtle" href="ftp://ckan.example.org/catalog.ttl">
      <link rel="describedby" type="text/turtle" href="/about.ttl">
      <link rel="alternate" href="/no-type.rdf">
    </head></html>`;
    const headers: Array<[string, string]> = [
      ["Link", '</catalog.ttl>; rel="alternate"; type="text/turtle", </api/>; rel="https://api.w.org/"'],
      ["link", '<https://ckan.example.org/portal/catalog.jsonld>; rel=alternate; type="application/ld+json"'],
    ];
    expect(advertisedCatalogs(html, "https://ckan.example.org/portal/", headers)).toEqual([
      { url: "https://ckan.example.org/catalog.ttl", format: "turtle", from: "link-header" },
      { url: "https://ckan.example.org/portal/catalog.jsonld", format: "json-ld", from: "link-header" },
      { url: "https://ckan.example.org/data.json", format: "dcat-us-json", from: "link-element" },
    ]);
  });

  it("finds nothing on a page that advertises no catalog, and stops at 20", () => {
    expect(advertisedCatalogs("<html><head><title>x</title></head><body></body></html>", "https://x.example/")).toEqual([]);
    const many = `<head>${Array.from({ length: 50 }, (_, i) => `<link rel="alternate" type="text/turtle" href="/c${i}.ttl">`).join("")}</head>`;
    expect(advertisedCatalogs(many, "https://x.example/")).toHaveLength(20);
  });
});

describe("well-known catalogs", () => {
  it("lists the well-known paths at the site's root, data.json first", () => {
    expect(wellKnownCatalogs("https://data.example.gov/some/page?x=1").map((location) => location.url)).toEqual(WELL_KNOWN_CATALOG_PATHS.map(({ path }) => `https://data.example.gov${path}`));
    expect(guessedCatalog("https://data.example.gov/some/page")).toEqual({ url: "https://data.example.gov/data.json", format: "dcat-us-json", from: "well-known" });
  });

  it("tries the advertised catalogs when there are any, else the one guess", () => {
    expect(catalogsToTry(CKAN_HOME, "https://ckan.example.org/").map((location) => location.from)).toEqual(["link-element", "link-element", "link-element", "link-element"]);
    expect(catalogsToTry("<html></html>", "https://data.example.gov/")).toEqual([{ url: "https://data.example.gov/data.json", format: "dcat-us-json", from: "well-known" }]);
  });
});
