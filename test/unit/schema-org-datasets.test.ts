/**
 * schema.org Dataset JSON-LD in pages (lib/recipes/schema-org-datasets.ts), in the forms Google's
 * dataset documentation shows and sites use: one Dataset, a list, an @graph, a DataCatalog's
 * datasets, http/https/prefixed vocabularies, blocks without @context, in comments; pages
 * without JSON-LD, broken blocks and remote contexts (nothing fetched).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offlineContextLoader } from "../../lib/recipes/jsonld-contexts";
import { jsonLdBlocks, MAX_BLOCK_CHARS, schemaOrgFiles } from "../../lib/recipes/schema-org-datasets";
import { listenOnFreePort } from "../helpers/ports";

const page = (...blocks: string[]) =>
  `<!DOCTYPE html><html><head><title>Data</title>${blocks.map((block) => `<script type="application/ld+json">${block}</script>`).join("\n")}</head><body><p>Text</p></body></html>`;
const PAGE_URL = "https://data.example.org/datasets/storms";

/** Google's dataset example (developers.google.com/search/docs/appearance/structured-data/dataset), shortened. */
const GOOGLE_EXAMPLE = JSON.stringify({
  "@context": "https://schema.org/",
  "@type": "Dataset",
  name: "NCDC Storm Events Database",
  description: "Storm Data is provided by the National Weather Service (NWS).",
  url: "https://catalog.data.gov/dataset/ncdc-storm-events-database",
  sameAs: "https://gis.ncdc.noaa.gov/geoportal/catalog/search/resource/details.page?id=gov.noaa.ncdc:C00510",
  dateModified: "2023-11-01",
  distribution: [
    { "@type": "DataDownload", encodingFormat: "CSV", contentUrl: "https://www.ncdc.noaa.gov/stormevents/ftp.jsp" },
    { "@type": "DataDownload", encodingFormat: "application/zip", contentUrl: "/downloads/storms-1950-2023.zip", contentSize: "120 MB", dateModified: "2023-10-30", name: "All years" },
  ],
  includedInDataCatalog: { "@type": "DataCatalog", name: "data.gov" },
});

describe("schemaOrgFiles", () => {
  it("reads Google's Dataset example: each DataDownload a file, the dataset's name and url the record", async () => {
    const record = { title: "NCDC Storm Events Database", modified: "2023-11-01", page: "https://catalog.data.gov/dataset/ncdc-storm-events-database" };
    expect(await schemaOrgFiles(page(GOOGLE_EXAMPLE), PAGE_URL)).toEqual([
      { url: "https://www.ncdc.noaa.gov/stormevents/ftp.jsp", mime: "text/csv", format: "CSV", record },
      { url: "https://data.example.org/downloads/storms-1950-2023.zip", mime: "application/zip", format: "application/zip", size: 120_000_000, modified: "2023-10-30", title: "All years", record },
    ]);
  });

  it("finds datasets in @graph, in lists, in a DataCatalog, under http or prefixed schema.org terms, and with no @context", async () => {
    const graph = JSON.stringify({
      "@context": "http://schema.org",
      "@graph": [
        { "@type": "WebSite", name: "Portal", url: "https://data.example.org/" },
        { "@type": "Dataset", name: "In a graph", distribution: { "@type": "DataDownload", contentUrl: "a.csv", encodingFormat: "text/csv" } },
      ],
    });
    const list = JSON.stringify([{ "@context": "https://schema.org", "@type": "Dataset", name: "In a list", distribution: [{ "@type": "DataDownload", contentUrl: "https://files.example.org/b.json", encodingFormat: "JSON" }] }]);
    const catalog = JSON.stringify({
      "@context": { schema: "https://schema.org/" },
      "@type": "schema:DataCatalog",
      "schema:dataset": [{ "@type": "schema:Dataset", "schema:name": "Prefixed", "schema:distribution": { "@type": "schema:DataDownload", "schema:contentUrl": { "@id": "https://files.example.org/c.xlsx" } } }],
    });
    const bare = JSON.stringify({ "@type": "Dataset", name: "No context", distribution: { "@type": "DataDownload", contentUrl: "/d.parquet" } });
    const files = await schemaOrgFiles(page(graph, list, catalog, `<!--${bare}-->`), PAGE_URL);
    expect(files.map((file) => [file.url, file.mime, file.record?.title])).toEqual([
      ["https://data.example.org/datasets/a.csv", "text/csv", "In a graph"],
      ["https://files.example.org/b.json", "application/json", "In a list"],
      ["https://files.example.org/c.xlsx", undefined, "Prefixed"],
      ["https://data.example.org/d.parquet", undefined, "No context"],
    ]);
  });

  it("gives nothing for a page without JSON-LD, blocks of other types, broken JSON, and non-http URLs", async () => {
    expect(await schemaOrgFiles("<html><body>no data</body></html>", PAGE_URL)).toEqual([]);
    const organisation = JSON.stringify({ "@context": "https://schema.org", "@type": "Organization", name: "X", url: "https://x.example/" });
    const broken = '{"@context": "https://schema.org", "@type": "Dataset", "distribution": [';
    const ftp = JSON.stringify({ "@context": "https://schema.org", "@type": "Dataset", distribution: { "@type": "DataDownload", contentUrl: "ftp://x.example/a.csv" } });
    const javascript = JSON.stringify({ "@context": "https://schema.org", "@type": "Dataset", distribution: { "@type": "DataDownload", contentUrl: "javascript:alert(1)" } });
    expect(await schemaOrgFiles(page(organisation, broken, ftp, javascript), PAGE_URL)).toEqual([]);
  });

  it("lists a file named by two blocks once", async () => {
    expect(await schemaOrgFiles(page(GOOGLE_EXAMPLE, GOOGLE_EXAMPLE), PAGE_URL)).toHaveLength(2);
  });

  describe("a block whose @context is remote", () => {
    let server: http.Server;
    let requests = 0;
    let contextUrl = "";
    beforeAll(async () => {
      server = http.createServer((_request, response) => {
        requests++;
        response.writeHead(200, { "content-type": "application/ld+json" }).end("{}");
      });
      await listenOnFreePort(server);
      contextUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/context.jsonld`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("is read with the well-known terms and never fetched", async () => {
      const block = JSON.stringify({ "@context": contextUrl, "@type": "Dataset", name: "Remote", distribution: { "@type": "DataDownload", contentUrl: "/r.csv", encodingFormat: "CSV" } });
      const calls: string[] = [];
      const files = await schemaOrgFiles(page(block), PAGE_URL, { contextLoader: offlineContextLoader(calls) });
      expect(files.map((file) => file.url)).toEqual(["https://data.example.org/r.csv"]);
      expect(calls).toEqual([contextUrl]);
      expect(await schemaOrgFiles(page(block), PAGE_URL)).toHaveLength(1);
      expect((await fetch(contextUrl)).status).toBe(200);
      expect(requests).toBe(1);
    });
  });
});

describe("jsonLdBlocks", () => {
  it("takes only application/ld+json scripts, skips oversized ones, and stops after 20", () => {
    const html = `<script>var a = 1;</script><script type="text/javascript">{}</script><script type="Application/LD+JSON; charset=utf-8">{"a":1}</script><script type="application/ld+json">${"x".repeat(MAX_BLOCK_CHARS + 1)}</script>`;
    expect(jsonLdBlocks(html)).toEqual(['{"a":1}']);
    expect(jsonLdBlocks(page(...Array.from({ length: 30 }, (_, i) => `{"n":${i}}`)))).toHaveLength(20);
  });

  it("reads a 5 MB page of unclosed script tags in well under a second", async () => {
    const html = '<script type="application/ld+json">{"@type":"Dataset"'.repeat(100_000);
    const started = performance.now();
    expect(await schemaOrgFiles(html, PAGE_URL)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe("schemaOrgFiles: the record's page", () => {
  it("is the dataset's url, else its @id on the page's own origin without the fragment, else none", async () => {
    const withId = (id: string) => JSON.stringify({ "@context": "https://schema.org", "@id": id, "@type": "Dataset", name: "D", distribution: { "@type": "DataDownload", contentUrl: `/f-${id.length}.csv` } });
    const files = await schemaOrgFiles(page(withId("https://data.example.org/datasets/storms#dataset"), withId("https://elsewhere.example/datasets/storms")), PAGE_URL);
    expect(files.map((file) => file.record)).toEqual([{ title: "D", page: "https://data.example.org/datasets/storms" }, { title: "D" }]);
  });
});
