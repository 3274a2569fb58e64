/**
 * DCAT catalogs read as enumeration pages (lib/recipes/dcat-catalog.ts): each serialisation as
 * its publishers write it (DCAT-US 1.1's data.json example, ckanext-dcat's Turtle, RDF/XML and
 * JSON-LD catalog pages with Hydra paging), format IRIs typed without a request, relative URLs,
 * a remote @context read with nothing fetched (a real server on 127.0.0.1 counts requests), and
 * bodies that are no catalog, broken or hostile answered with a problem in words.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatOf, byteSizeOf } from "../../lib/recipes/catalog-vocabulary";
import { MAX_CATALOG_CHARS, readDcatCatalog } from "../../lib/recipes/dcat-catalog";
import type { EnumerationAnswer } from "../../lib/recipes/enumeration-pages";
import { offlineContextLoader } from "../../lib/recipes/jsonld-contexts";
import { listenOnFreePort } from "../helpers/ports";

const answer = (body: string, contentType?: string, status = 200): EnumerationAnswer => ({
  status,
  headers: new Map(contentType ? [["content-type", contentType]] : []),
  body,
});

/** DCAT-US 1.1 (resources.data.gov, the schema's catalog example), with a relative and an API distribution. */
const DATA_JSON = JSON.stringify({
  "@context": "https://project-open-data.cio.gov/v1.1/schema/catalog.jsonld",
  "@id": "https://www.agency.example.gov/data.json",
  "@type": "dcat:Catalog",
  conformsTo: "https://project-open-data.cio.gov/v1.1/schema",
  describedBy: "https://project-open-data.cio.gov/v1.1/schema/catalog.json",
  dataset: [
    {
      "@type": "dcat:Dataset",
      title: "Household Pulse Survey",
      description: "Weekly estimates.",
      modified: "2024-03-01",
      identifier: "hps-2024",
      landingPage: "https://www.agency.example.gov/hps/",
      distribution: [
        { "@type": "dcat:Distribution", downloadURL: "https://www.agency.example.gov/hps/week1.csv", mediaType: "text/csv", format: "CSV", title: "Week 1" },
        { "@type": "dcat:Distribution", downloadURL: "/hps/tables.xlsx", mediaType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", title: "Tables" },
        { "@type": "dcat:Distribution", accessURL: "https://api.agency.example.gov/hps", format: "API", title: "API" },
      ],
    },
    { "@type": "dcat:Dataset", title: "No files yet", distribution: [] },
    { "@type": "dcat:Dataset", title: "Ftp only", distribution: [{ downloadURL: "ftp://ftp.agency.example.gov/x.zip" }] },
  ],
});

/** ckanext-dcat's `/catalog.ttl?page=1` (euro_dcat_ap profile, rdflib's Turtle), shortened to two datasets. */
const CKAN_TURTLE_PAGE_1 = `@prefix dcat: <http://www.w3.org/ns/dcat#> .
@prefix dct: <http://purl.org/dc/terms/> .
@prefix foaf: <http://xmlns.com/foaf/0.1/> .
@prefix hydra: <http://www.w3.org/ns/hydra/core#> .
@prefix xsd: <http://www.w3.org/2001/XMLSchema#> .

<https://ckan.example.org/catalog.ttl?page=1> a hydra:PagedCollection ;
    hydra:firstPage "https://ckan.example.org/catalog.ttl?page=1" ;
    hydra:itemsPerPage 2 ;
    hydra:lastPage "https://ckan.example.org/catalog.ttl?page=2" ;
    hydra:next "https://ckan.example.org/catalog.ttl?page=2" ;
    hydra:nextPage "https://ckan.example.org/catalog.ttl?page=2" ;
    hydra:totalItems 3 .

<https://ckan.example.org> a dcat:Catalog ;
    dct:title "City open data" ;
    dcat:dataset <https://ckan.example.org/dataset/3b1e0c6e-trees>, <https://ckan.example.org/dataset/9f2a-budget> .

<https://ckan.example.org/dataset/3b1e0c6e-trees> a dcat:Dataset ;
    dct:title "Street trees"@en, "Stadtbäume"@de ;
    dct:modified "2024-05-01T10:00:00"^^xsd:dateTime ;
    dcat:distribution <https://ckan.example.org/dataset/3b1e0c6e-trees/resource/aa11> .

<https://ckan.example.org/dataset/3b1e0c6e-trees/resource/aa11> a dcat:Distribution ;
    dct:title "Trees (CSV)" ;
    dcat:accessURL <https://ckan.example.org/dataset/3b1e0c6e-trees/resource/aa11/download/trees.csv> ;
    dct:format <http://publications.europa.eu/resource/authority/file-type/CSV> ;
    dcat:byteSize "48213"^^xsd:decimal .

<https://ckan.example.org/dataset/9f2a-budget> a dcat:Dataset ;
    dct:title "Budget 2024" ;
    dcat:landingPage <https://city.example.org/budget> ;
    dcat:distribution <https://ckan.example.org/dataset/9f2a-budget/resource/bb22>, <https://ckan.example.org/dataset/9f2a-budget/resource/bb23> .

<https://ckan.example.org/dataset/9f2a-budget/resource/bb22> a dcat:Distribution ;
    dcat:accessURL <https://ckan.example.org/dataset/9f2a-budget/resource/bb22> ;
    dcat:downloadURL <files/budget-2024.xlsx> ;
    dcat:mediaType <http://www.iana.org/assignments/media-types/application/vnd.openxmlformats-officedocument.spreadsheetml.sheet> ;
    dct:format "XLSX" .

<https://ckan.example.org/dataset/9f2a-budget/resource/bb23> a dcat:Distribution ;
    dcat:accessURL <https://gis.example.org/arcgis/rest/services/budget> ;
    dct:format "Esri REST" .
`;

const CKAN_TURTLE_PAGE_2 = `@prefix dcat: <http://www.w3.org/ns/dcat#> .
@prefix dct: <http://purl.org/dc/terms/> .
@prefix hydra: <http://www.w3.org/ns/hydra/core#> .
<https://ckan.example.org/catalog.ttl?page=2> a hydra:PagedCollection ;
    hydra:firstPage "https://ckan.example.org/catalog.ttl?page=1" ;
    hydra:previousPage "https://ckan.example.org/catalog.ttl?page=1" ;
    hydra:lastPage "https://ckan.example.org/catalog.ttl?page=2" ;
    hydra:totalItems 3 .
<https://ckan.example.org/dataset/c3-bins> a dcat:Dataset ; dct:title "Bins" ;
    dcat:distribution [ a dcat:Distribution ; dcat:downloadURL <https://ckan.example.org/bins.geojson> ; dcat:mediaType "application/geo+json" ] .
`;

/** The same kind of page as RDF/XML (rdflib's "xml" serialisation), DCAT-AP's format node (`dct:IMT`) and a Hydra view with `hydra:next` as an IRI. */
const CKAN_RDF_XML = `<?xml version="1.0" encoding="utf-8"?>
<rdf:RDF
   xmlns:dcat="http://www.w3.org/ns/dcat#"
   xmlns:dct="http://purl.org/dc/terms/"
   xmlns:hydra="http://www.w3.org/ns/hydra/core#"
   xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
   xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"
>
  <rdf:Description rdf:about="https://portal.example.eu/catalog.xml?page=3">
    <rdf:type rdf:resource="http://www.w3.org/ns/hydra/core#PartialCollectionView"/>
    <hydra:next rdf:resource="https://portal.example.eu/catalog.xml?page=4"/>
  </rdf:Description>
  <dcat:Dataset rdf:about="https://portal.example.eu/dataset/air-quality">
    <dct:title xml:lang="fr">Qualité de l'air</dct:title>
    <dct:title xml:lang="en">Air quality</dct:title>
    <dcat:landingPage rdf:resource="https://portal.example.eu/air"/>
    <dcat:distribution>
      <dcat:Distribution rdf:about="https://portal.example.eu/dataset/air-quality/resource/1">
        <dct:title>Hourly measurements</dct:title>
        <dcat:downloadURL rdf:resource="/downloads/air-2024.csv.zip"/>
        <dct:format>
          <dct:IMT>
            <rdf:value>application/zip</rdf:value>
            <rdfs:label>ZIP</rdfs:label>
          </dct:IMT>
        </dct:format>
        <dcat:byteSize rdf:datatype="http://www.w3.org/2001/XMLSchema#nonNegativeInteger">1048576</dcat:byteSize>
        <dct:modified rdf:datatype="http://www.w3.org/2001/XMLSchema#date">2024-06-30</dct:modified>
      </dcat:Distribution>
    </dcat:distribution>
    <dcat:distribution rdf:resource="https://portal.example.eu/dataset/air-quality/resource/2"/>
  </dcat:Dataset>
  <rdf:Description rdf:about="https://portal.example.eu/dataset/air-quality/resource/2">
    <rdf:type rdf:resource="http://www.w3.org/ns/dcat#Distribution"/>
    <dcat:downloadURL rdf:resource="https://portal.example.eu/downloads/stations.pdf"/>
    <dct:format rdf:resource="http://publications.europa.eu/resource/authority/file-type/PDF"/>
  </rdf:Description>
</rdf:RDF>
`;

/** ckanext-dcat's `/catalog.jsonld` (rdflib's JSON-LD with the profile's prefixes as context): nodes flattened into @graph, linked by @id. */
const CKAN_JSONLD = JSON.stringify({
  "@context": { dcat: "http://www.w3.org/ns/dcat#", dct: "http://purl.org/dc/terms/", hydra: "http://www.w3.org/ns/hydra/core#", xsd: "http://www.w3.org/2001/XMLSchema#" },
  "@graph": [
    { "@id": "https://ckan.example.org/catalog.jsonld?page=1", "@type": "hydra:PagedCollection", "hydra:nextPage": "https://ckan.example.org/catalog.jsonld?page=2", "hydra:totalItems": { "@type": "xsd:integer", "@value": "250" } },
    {
      "@id": "https://ckan.example.org/dataset/parking",
      "@type": "dcat:Dataset",
      "dct:title": "Parking meters",
      "dct:modified": { "@type": "xsd:dateTime", "@value": "2024-02-03T04:05:06" },
      "dcat:distribution": [{ "@id": "https://ckan.example.org/dataset/parking/resource/p1" }, { "@id": "https://ckan.example.org/dataset/parking/resource/p2" }],
    },
    { "@id": "https://ckan.example.org/dataset/parking/resource/p1", "@type": "dcat:Distribution", "dcat:downloadURL": { "@id": "download/meters.json" }, "dcat:mediaType": "application/json" },
    { "@id": "https://ckan.example.org/dataset/parking/resource/p2", "@type": "dcat:Distribution", "dcat:accessURL": { "@id": "https://ckan.example.org/files/meters.parquet" }, "dct:format": "PARQUET" },
  ],
});

describe("readDcatCatalog: DCAT-US data.json", () => {
  it("lists each distribution's download URL (else access URL), typed, with its dataset as the record; no paging", async () => {
    const page = await readDcatCatalog(answer(DATA_JSON, "application/json"), "https://www.agency.example.gov/data.json");
    expect(page.problem).toBeUndefined();
    expect(page.records).toBe(3);
    expect(page.nextUrl).toBeNull();
    const record = { title: "Household Pulse Survey", modified: "2024-03-01", page: "https://www.agency.example.gov/hps/" };
    expect(page.files).toEqual([
      { url: "https://www.agency.example.gov/hps/week1.csv", mime: "text/csv", format: "CSV", title: "Week 1", record },
      { url: "https://www.agency.example.gov/hps/tables.xlsx", mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", format: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", title: "Tables", record },
      { url: "https://api.agency.example.gov/hps", format: "API", title: "API", record },
    ]);
  });

  it("reads data.json served as text/plain or with a BOM, by its first character", async () => {
    const page = await readDcatCatalog(answer("\uFEFF" + DATA_JSON, "text/plain; charset=utf-8"), "https://www.agency.example.gov/data.json");
    expect(page.files).toHaveLength(3);
  });
});

describe("readDcatCatalog: ckanext-dcat Turtle with Hydra paging", () => {
  it("reads page 1: datasets as records, EU and IANA format IRIs typed, relative URLs resolved, the next page from hydra", async () => {
    const page = await readDcatCatalog(answer(CKAN_TURTLE_PAGE_1, "text/turtle; charset=utf-8"), "https://ckan.example.org/catalog.ttl?page=1");
    expect(page.problem).toBeUndefined();
    expect(page.records).toBe(2);
    expect(page.nextUrl).toBe("https://ckan.example.org/catalog.ttl?page=2");
    expect(page.files).toEqual([
      {
        url: "https://ckan.example.org/dataset/3b1e0c6e-trees/resource/aa11/download/trees.csv",
        mime: "text/csv",
        format: "CSV",
        size: 48213,
        title: "Trees (CSV)",
        // No landing page: the dataset's IRI on the catalog's own origin is its page.
        record: { title: "Street trees", modified: "2024-05-01T10:00:00", page: "https://ckan.example.org/dataset/3b1e0c6e-trees" },
      },
      {
        url: "https://ckan.example.org/files/budget-2024.xlsx",
        mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        format: "XLSX",
        record: { title: "Budget 2024", page: "https://city.example.org/budget" },
      },
      { url: "https://gis.example.org/arcgis/rest/services/budget", format: "Esri REST", record: { title: "Budget 2024", page: "https://city.example.org/budget" } },
    ]);
  });

  it("pages through: page 2 names no next page, so the enumeration ends", async () => {
    const first = await readDcatCatalog(answer(CKAN_TURTLE_PAGE_1, "text/turtle"), "https://ckan.example.org/catalog.ttl?page=1");
    const second = await readDcatCatalog(answer(CKAN_TURTLE_PAGE_2, "text/turtle"), first.nextUrl!);
    expect(second).toEqual({
      files: [{ url: "https://ckan.example.org/bins.geojson", mime: "application/geo+json", format: "application/geo+json", record: { title: "Bins", page: "https://ckan.example.org/dataset/c3-bins" } }],
      records: 1,
      nextUrl: null,
    });
  });

  it("ends on a next page that is the page itself, and on a page without datasets", async () => {
    const loop = CKAN_TURTLE_PAGE_1.replaceAll("catalog.ttl?page=2", "catalog.ttl?page=1");
    expect((await readDcatCatalog(answer(loop, "text/turtle"), "https://ckan.example.org/catalog.ttl?page=1")).nextUrl).toBeNull();
    const empty = `@prefix hydra: <http://www.w3.org/ns/hydra/core#> . <https://c.example/catalog.ttl?page=9> hydra:nextPage "https://c.example/catalog.ttl?page=10" .`;
    expect(await readDcatCatalog(answer(empty, "text/turtle"), "https://c.example/catalog.ttl?page=9")).toEqual({ files: [], records: 0, nextUrl: null });
  });

  it("reads N-Triples and ckanext-dcat's text/n3 and text/ttl labels", async () => {
    const ntriples = `<https://n.example/d> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/ns/dcat#Dataset> .
<https://n.example/d> <http://www.w3.org/ns/dcat#distribution> _:d1 .
_:d1 <http://www.w3.org/ns/dcat#downloadURL> <https://n.example/a.csv> .
`;
    for (const type of ["application/n-triples", "text/n3", "text/ttl", "application/octet-stream"]) {
      const page = await readDcatCatalog(answer(ntriples, type), "https://n.example/catalog");
      expect(page.files.map((file) => file.url), type).toEqual(["https://n.example/a.csv"]);
    }
  });
});

describe("readDcatCatalog: RDF/XML", () => {
  it("reads typed nodes and rdf:Description, DCAT-AP's format node, English titles first, hydra:next as an IRI", async () => {
    const page = await readDcatCatalog(answer(CKAN_RDF_XML, "application/rdf+xml"), "https://portal.example.eu/catalog.xml?page=3");
    expect(page.problem).toBeUndefined();
    expect(page.nextUrl).toBe("https://portal.example.eu/catalog.xml?page=4");
    const record = { title: "Air quality", page: "https://portal.example.eu/air" };
    expect(page.files).toEqual([
      { url: "https://portal.example.eu/downloads/air-2024.csv.zip", mime: "application/zip", format: "application/zip", size: 1048576, modified: "2024-06-30", title: "Hourly measurements", record },
      { url: "https://portal.example.eu/downloads/stations.pdf", mime: "application/pdf", format: "PDF", record },
    ]);
  });

  it("reads RDF/XML a server labels text/turtle or application/xml", async () => {
    for (const type of ["text/turtle", "application/xml", ""]) {
      const page = await readDcatCatalog(answer(CKAN_RDF_XML, type || undefined), "https://portal.example.eu/catalog.rdf");
      expect(page.files, type).toHaveLength(2);
    }
  });
});

describe("readDcatCatalog: JSON-LD", () => {
  it("reads ckanext-dcat's JSON-LD: flattened nodes, relative @id resolved, the literal hydra:nextPage", async () => {
    const page = await readDcatCatalog(answer(CKAN_JSONLD, "application/ld+json"), "https://ckan.example.org/catalog.jsonld?page=1");
    expect(page.problem).toBeUndefined();
    expect(page.records).toBe(1);
    expect(page.nextUrl).toBe("https://ckan.example.org/catalog.jsonld?page=2");
    const record = { title: "Parking meters", modified: "2024-02-03T04:05:06", page: "https://ckan.example.org/dataset/parking" };
    expect(page.files).toEqual([
      { url: "https://ckan.example.org/download/meters.json", mime: "application/json", format: "application/json", record },
      { url: "https://ckan.example.org/files/meters.parquet", mime: "application/vnd.apache.parquet", format: "PARQUET", record },
    ]);
  });

  describe("a remote @context", () => {
    let server: http.Server;
    let requests = 0;
    let contextUrl = "";
    beforeAll(async () => {
      server = http.createServer((_request, response) => {
        requests++;
        response.writeHead(200, { "content-type": "application/ld+json" }).end(JSON.stringify({ "@context": { Dataset: "http://example.org/not-dcat#Dataset" } }));
      });
      await listenOnFreePort(server);
      contextUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/dcat-ap.jsonld`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    /** DCAT-AP JSON-LD in compact form: its terms defined only by the remote context. */
    const compact = () =>
      JSON.stringify({
        "@context": contextUrl,
        "@graph": [
          { "@id": "https://eu.example/dataset/1", "@type": "Dataset", title: "Energy", landingPage: "https://eu.example/energy", distribution: [{ "@type": "Distribution", downloadURL: "/energy.csv", format: "http://publications.europa.eu/resource/authority/file-type/CSV", byteSize: "100" }] },
        ],
      });

    it("is read with the well-known terms; the loader is asked and nothing reaches the server", async () => {
      const calls: string[] = [];
      const page = await readDcatCatalog(answer(compact(), "application/ld+json"), "https://eu.example/catalog.jsonld", { contextLoader: offlineContextLoader(calls) });
      expect(calls).toEqual([contextUrl]);
      expect(page.files).toEqual([{ url: "https://eu.example/energy.csv", mime: "text/csv", format: "CSV", size: 100, record: { title: "Energy", page: "https://eu.example/energy" } }]);
      // The default reading (no loader given) fetches nothing either.
      const again = await readDcatCatalog(answer(compact(), "application/ld+json"), "https://eu.example/catalog.jsonld");
      expect(again.files).toHaveLength(1);
      // A request the server did receive would have been answered by now: prove the server works, then that it saw only ours.
      const direct = await fetch(contextUrl);
      expect(direct.status).toBe(200);
      expect(requests).toBe(1);
    });
  });

  it("says so when JSON is neither DCAT-US nor lists a dataset", async () => {
    const page = await readDcatCatalog(answer(JSON.stringify({ success: true, result: [] }), "application/json"), "https://x.example/api");
    expect(page).toEqual({ files: [], records: 0, nextUrl: null, problem: "is JSON but lists no DCAT or schema.org dataset" });
  });
});

describe("readDcatCatalog: answers that are no catalog", () => {
  const url = "https://x.example/catalog.ttl";
  it.each([
    ["a 404", answer("not found", "text/plain", 404), "answered 404"],
    ["an HTML page", answer("<!DOCTYPE html><html><body>Catalog</body></html>", "text/html"), "answered an HTML page, not a catalog"],
    ["an empty body", answer("   ", "text/turtle"), "answered an empty body"],
    ["JSON labelled JSON-LD that is not JSON", answer("hello", "application/ld+json"), "is labelled application/ld+json but is not JSON"],
    ["a CSV", answer("a,b\n1,2\n", "text/csv"), "answered text/csv that is no catalog syntax (JSON, JSON-LD, Turtle or RDF/XML)"],
  ])("%s", async (_name, given, problem) => {
    expect(await readDcatCatalog(given, url)).toEqual({ files: [], records: 0, nextUrl: null, problem });
  });

  it("names the syntax error and keeps what was read before it", async () => {
    const broken = CKAN_TURTLE_PAGE_2 + "\n<https://ckan.example.org/dataset/x> dct:title \"unterminated .\n";
    const page = await readDcatCatalog(answer(broken, "text/turtle"), "https://ckan.example.org/catalog.ttl?page=2");
    expect(page.problem).toMatch(/^is not valid Turtle: .*line \d+/);
    expect(page.files.map((file) => file.url)).toEqual(["https://ckan.example.org/bins.geojson"]);
    expect(page.nextUrl).toBeNull();
    const xml = await readDcatCatalog(answer(CKAN_RDF_XML.slice(0, 900) + "<broken", "application/rdf+xml"), url);
    expect(xml.problem).toMatch(/^is not valid RDF\/XML: /);
    const jsonld = await readDcatCatalog(answer(JSON.stringify({ "@context": { "@vocab": 5 }, "@type": "Dataset" }), "application/ld+json"), url);
    expect(jsonld.problem).toMatch(/^is not valid JSON-LD: /);
  });
});

describe("readDcatCatalog: hostile bodies", () => {
  const fiveMB = 5 * 1024 * 1024;
  it.each([
    ["Turtle", "text/turtle", () => "@prefix a: <http://a.example/> .\n" + "a:x a:y a:z .\n".repeat(fiveMB / 14)],
    ["RDF/XML", "application/rdf+xml", () => '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' + "<rdf:Description/>".repeat(fiveMB / 18)],
    ["JSON-LD", "application/ld+json", () => JSON.stringify({ "@context": { "@vocab": "http://a.example/" }, "@graph": Array.from({ length: fiveMB / 20 }, (_, i) => ({ "@id": `x${i}` })) })],
    ["DCAT-US JSON over its larger cap", "application/json", () => JSON.stringify({ dataset: [{ title: "x".repeat(MAX_CATALOG_CHARS["dcat-us-json"]) }] })],
  ])("a 5 MB+ %s body is refused by its size, in well under a second", async (_name, type, body) => {
    const text = body();
    const started = performance.now();
    const page = await readDcatCatalog(answer(text, type), "https://x.example/catalog");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(page.problem).toMatch(/^is [\d.]+ MiB of [\w/-]+, over the [\d.]+ MiB Forage reads$/);
  });

  it.each([
    ["Turtle collections", "text/turtle", "<http://a.example/x> <http://a.example/y> " + "(".repeat(1_000_000), "nests deeper than 64 levels, which no catalog does"],
    ["Turtle blank nodes", "text/turtle", "<http://a.example/x> <http://a.example/y> " + "[ <http://a.example/p> ".repeat(50_000), "nests deeper than 64 levels, which no catalog does"],
    ["RDF/XML elements", "application/rdf+xml", '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:a="http://a.example/">' + "<a:b><a:c>".repeat(100_000), "nests deeper than 64 levels or has a start tag over 16 KiB, which no catalog does"],
    ["an RDF/XML start tag of 100,000 attributes", "application/rdf+xml", '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:a="http://a.example/"><rdf:Description ' + Array.from({ length: 100_000 }, (_, i) => `a:p${i}="v"`).join(" ") + "/></rdf:RDF>", "nests deeper than 64 levels or has a start tag over 16 KiB, which no catalog does"],
    ["JSON-LD arrays", "application/ld+json", "[".repeat(100_000) + "]".repeat(100_000), "nests deeper than 48 levels"],
    ["JSON-LD scoped contexts", "application/ld+json", JSON.stringify({ "@context": { T: { "@id": "http://a.example/T", "@context": { "@vocab": "http://b.example/" } } }, "@type": "T" }), "uses scoped contexts (a term with its own @context), which catalogs do not need and Forage does not read"],
    ["JSON-LD context terms", "application/ld+json", JSON.stringify({ "@context": Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`t${i}`, `http://a.example/${i}`])) }), "defines more than 1000 context terms"],
    ["JSON-LD remote contexts", "application/ld+json", JSON.stringify({ "@context": Array.from({ length: 50 }, (_, i) => `http://ctx.example/${i}`), "@type": "Dataset" }), "is not valid JSON-LD: Maximum number of @context URLs exceeded."],
  ])("nesting and contexts under the size cap are refused before parsing: %s", async (_name, type, body, problem) => {
    const started = performance.now();
    const page = await readDcatCatalog(answer(body, type), "https://x.example/catalog");
    expect(page).toEqual({ files: [], records: 0, nextUrl: null, problem });
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("stops at the statement cap and says so, keeping what it read", async () => {
    const body = "<http://a.example/x> <http://a.example/y> " + "<http://a.example/z>,".repeat(70_000) + "<http://a.example/z> .";
    const page = await readDcatCatalog(answer(body, "text/turtle"), "https://x.example/catalog");
    expect(page.problem).toBe("holds more than 60000 statements; the first 60000 are read");
    expect(page.nextUrl).toBeNull();
  });
});

describe("format IRIs and sizes", () => {
  it.each([
    ["http://www.iana.org/assignments/media-types/text/csv", { format: "text/csv", mime: "text/csv" }],
    ["https://www.iana.org/assignments/media-types/application/vnd.ms-excel", { format: "application/vnd.ms-excel", mime: "application/vnd.ms-excel" }],
    ["http://publications.europa.eu/resource/authority/file-type/CSV", { format: "CSV", mime: "text/csv" }],
    ["http://publications.europa.eu/resource/authority/file-type/XLSX", { format: "XLSX", mime: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" }],
    ["http://publications.europa.eu/resource/authority/file-type/RDF_XML", { format: "RDF_XML", mime: "application/rdf+xml" }],
    ["http://publications.europa.eu/resource/authority/file-type/JSON_LD", { format: "JSON_LD", mime: "application/ld+json" }],
    ["http://publications.europa.eu/resource/authority/file-type/WMS_SRVC", { format: "WMS_SRVC" }],
    ["CSV", { format: "CSV", mime: "text/csv" }],
    ["text/csv; charset=utf-8", { format: "text/csv; charset=utf-8", mime: "text/csv" }],
    ["Esri REST", { format: "Esri REST" }],
  ])("%s", (declared, expected) => {
    expect(formatOf(declared)).toEqual(expected);
  });

  it("reads byte sizes and schema.org's sizes with units", () => {
    expect([byteSizeOf("48213"), byteSizeOf("1024.0"), byteSizeOf("2.5 MB"), byteSizeOf("1 KiB"), byteSizeOf("large"), byteSizeOf("-1"), byteSizeOf("1e400")]).toEqual([48213, 1024, 2_500_000, 1024, undefined, undefined, undefined]);
  });
});
