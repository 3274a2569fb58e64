/**
 * Catalog readers (lib/recipes/dcat-catalog.ts, schema-org-datasets.ts): a generated catalog
 * written as DCAT-US JSON, Turtle, RDF/XML and JSON-LD is read back as exactly its files and
 * records; on hostile bodies of each syntax and hostile pages, reading never throws, takes a
 * bounded time, and gives only absolute, normalised http(s) URLs, no file twice, and problems in
 * one line that end the enumeration.
 */
import fc from "fast-check";
import { readDcatCatalog } from "../../lib/recipes/dcat-catalog";
import type { EnumerationPage } from "../../lib/recipes/enumeration-pages";
import type { ListedFile } from "../../lib/recipes/listed-file";
import { schemaOrgFiles } from "../../lib/recipes/schema-org-datasets";
import { anyText, baseUrl, tokensOf } from "./arbitraries";
import { fuzzTarget } from "./fuzz-kit";
import type { FuzzTarget } from "./fuzz-target";

/** Small inputs read in milliseconds; this bound only catches work that grows out of proportion. */
const MAX_MS_PER_INPUT = 1000;

function checkUrl(url: unknown, what: string): void {
  if (typeof url !== "string" || !/^https?:\/\/[^\s]/.test(url) || new URL(url).href !== url) throw new Error(`${what} ${JSON.stringify(url)} is no absolute normalised http(s) URL`);
}

function checkFiles(files: ListedFile[]): void {
  const seen = new Set<string>();
  for (const file of files) {
    checkUrl(file.url, "file URL");
    if (seen.has(file.url)) throw new Error(`file ${file.url} listed twice`);
    seen.add(file.url);
    if (file.record?.page !== undefined) checkUrl(file.record.page, "record page");
    if (file.size !== undefined && !(Number.isSafeInteger(file.size) && file.size >= 0)) throw new Error(`size ${file.size}`);
    if (file.mime !== undefined && !/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(file.mime)) throw new Error(`mime ${file.mime}`);
  }
}

function checkPage(page: EnumerationPage): void {
  checkFiles(page.files);
  if (!Number.isSafeInteger(page.records) || page.records < 0) throw new Error(`records ${page.records}`);
  if (page.nextUrl !== null) checkUrl(page.nextUrl, "next page");
  if (page.problem !== undefined && (page.problem === "" || /[\r\n]/.test(page.problem) || page.nextUrl !== null)) throw new Error(`problem ${JSON.stringify(page.problem)} with next ${page.nextUrl}`);
}

async function readTimed(body: string, contentType: string | undefined, pageUrl: string): Promise<EnumerationPage> {
  const started = performance.now();
  const page = await readDcatCatalog({ status: 200, headers: new Map(contentType ? [["content-type", contentType]] : []), body }, pageUrl);
  const took = performance.now() - started;
  if (took > MAX_MS_PER_INPUT) throw new Error(`took ${Math.round(took)} ms on ${body.length} characters`);
  checkPage(page);
  return page;
}

// ---- a generated catalog in each serialisation ----

interface Distribution {
  url: string;
  format: string;
}
interface Dataset {
  title: string;
  distributions: Distribution[];
}

const SAFE_TITLE = fc.string({ unit: fc.constantFrom(..."abc XYZ09-_.,()éü統&<>'\"\\"), minLength: 1, maxLength: 20 }).filter((title) => title.trim() !== "");
const FORMATS = ["CSV", "text/csv", "application/pdf", "XLSX", "Esri REST", "http://publications.europa.eu/resource/authority/file-type/CSV", "http://www.iana.org/assignments/media-types/application/json"];
/**
 * Absolute URLs an IRI may be: none of the characters Turtle's IRIs exclude, and no dot or empty
 * path segments, which rdfxml-streaming-parser resolves by RFC 3986 where the URL standard keeps
 * an empty segment (`http://a//.` → `http://a/` there, `http://a//` here).
 */
const downloadUrl = fc.webUrl({ size: "small" }).filter((url) => !/[<>"{}|^`\\\s]/.test(url) && !/^[a-z]+:\/\/[^/]*\/.*(\/\/|\/\.\.?(\/|\?|#|$))/i.test(url) && !/^[a-z]+:\/\/[^/]*\/\.\.?(\/|\?|#|$)/i.test(url));
const dataset: fc.Arbitrary<Dataset> = fc.record({
  title: SAFE_TITLE,
  distributions: fc.array(fc.record({ url: downloadUrl, format: fc.constantFrom(...FORMATS) }), { maxLength: 3 }),
});

const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const turtleString = (text: string) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
const formatTurtle = (format: string) => (/^http/.test(format) ? `<${format}>` : turtleString(format));

/** Every distribution URL made unique, so that which record a file keeps does not depend on reading order. */
function uniqueUrls(datasets: Dataset[]): Dataset[] {
  let n = 0;
  return datasets.map((d) => ({ ...d, distributions: d.distributions.map((x) => ({ ...x, url: `${x.url.replace(/#.*$/, "")}${x.url.includes("?") ? "&" : "?"}n=${n++}` })) }));
}

function write(kind: "dcat-us" | "turtle" | "rdf-xml" | "json-ld", datasets: Dataset[]): { body: string; type: string } {
  const id = (i: number) => `https://catalog.example/dataset/${i}`;
  switch (kind) {
    case "dcat-us":
      return { type: "application/json", body: JSON.stringify({ conformsTo: "https://project-open-data.cio.gov/v1.1/schema", dataset: datasets.map((d) => ({ title: d.title, distribution: d.distributions.map((x) => ({ downloadURL: x.url, format: x.format })) })) }) };
    case "turtle":
      return {
        type: "text/turtle",
        body:
          "@prefix dcat: <http://www.w3.org/ns/dcat#> . @prefix dct: <http://purl.org/dc/terms/> .\n" +
          datasets.map((d, i) => `<${id(i)}> a dcat:Dataset ; dct:title ${turtleString(d.title)}${d.distributions.map((x) => ` ;\n  dcat:distribution [ a dcat:Distribution ; dcat:downloadURL <${x.url}> ; dct:format ${formatTurtle(x.format)} ]`).join("")} .`).join("\n"),
      };
    case "rdf-xml":
      return {
        type: "application/rdf+xml",
        body:
          '<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dcat="http://www.w3.org/ns/dcat#" xmlns:dct="http://purl.org/dc/terms/">' +
          datasets
            .map(
              (d, i) =>
                `<dcat:Dataset rdf:about="${id(i)}"><dct:title>${xml(d.title)}</dct:title>${d.distributions
                  .map((x) => `<dcat:distribution><dcat:Distribution><dcat:downloadURL rdf:resource="${xml(x.url)}"/>${/^http/.test(x.format) ? `<dct:format rdf:resource="${xml(x.format)}"/>` : `<dct:format>${xml(x.format)}</dct:format>`}</dcat:Distribution></dcat:distribution>`)
                  .join("")}</dcat:Dataset>`,
            )
            .join("") +
          "</rdf:RDF>",
      };
    case "json-ld":
      return {
        type: "application/ld+json",
        body: JSON.stringify({
          "@context": { dcat: "http://www.w3.org/ns/dcat#", dct: "http://purl.org/dc/terms/" },
          "@graph": datasets.map((d, i) => ({ "@id": id(i), "@type": "dcat:Dataset", "dct:title": d.title, "dcat:distribution": d.distributions.map((x) => ({ "@type": "dcat:Distribution", "dcat:downloadURL": { "@id": x.url }, "dct:format": /^http/.test(x.format) ? { "@id": x.format } : x.format })) })),
        }),
      };
  }
}

const roundTrip = fuzzTarget({
  name: "DCAT catalog written as data.json, Turtle, RDF/XML and JSON-LD and read back",
  ciRuns: 150,
  memoryBoundMiB: 96,
  property: () =>
    fc.asyncProperty(fc.array(dataset, { minLength: 1, maxLength: 6 }), fc.constantFrom<"dcat-us" | "turtle" | "rdf-xml" | "json-ld">("dcat-us", "turtle", "rdf-xml", "json-ld"), async (generated, kind) => {
      const datasets = uniqueUrls(generated);
      const { body, type } = write(kind, datasets);
      const page = await readTimed(body, type, "https://catalog.example/catalog");
      if (page.problem !== undefined || page.records !== datasets.length) throw new Error(`${kind}: ${page.problem ?? ""} ${page.records} records of ${datasets.length}\n${body}`);
      const expected = datasets.flatMap((d) => d.distributions.map((x) => `${new URL(x.url).href} ← ${d.title.trim()}`)).sort();
      const read = page.files.map((file) => `${file.url} ← ${file.record?.title}`).sort();
      if (JSON.stringify(read) !== JSON.stringify(expected)) throw new Error(`${kind} read\n${read.join("\n")}\nexpected\n${expected.join("\n")}\nfrom\n${body}`);
    }),
});

// ---- hostile bodies, per syntax ----

const hostile = (name: string, pieces: readonly string[], types: readonly (string | undefined)[], ciRuns: number, structured?: fc.Arbitrary<string>): FuzzTarget =>
  fuzzTarget({
    name,
    ciRuns,
    memoryBoundMiB: 128,
    property: () =>
      fc.asyncProperty(fc.oneof({ weight: 5, arbitrary: tokensOf(pieces, 80) }, { weight: 1, arbitrary: anyText(300) }, { weight: structured ? 6 : 0, arbitrary: structured ?? fc.constant("") }), fc.constantFrom(...types), baseUrl, async (body, type, pageUrl) => {
        await readTimed(body, type, pageUrl);
      }),
  });

const JSON_PIECES = ['{"dataset":[', '{"conformsTo":"https://project-open-data.cio.gov/v1.1/schema",', '"dataset":', '"distribution":[', '{"downloadURL":', '"accessURL":', '"mediaType":', '"format":', '"title":', '"landingPage":', '"modified":', '"byteSize":', '"/a.csv"', '"https://x.example/b.pdf"', '"//cdn.example/c"', '"javascript:alert(1)"', '"ftp://f/x"', '"text/csv"', '"CSV"', '"http://publications.europa.eu/resource/authority/file-type/XLSX"', '""', "null", "1e999", "-1", "[]", "{}", "[", "]", "{", "}", ",", ":", '"', "\\u0000", "true"];
const JSONLD_PIECES = ['{"@context":', '"https://schema.org"', '"http://127.0.0.1:9/ctx.jsonld"', '{"@vocab":"http://www.w3.org/ns/dcat#"}', '{"dcat":"http://www.w3.org/ns/dcat#","dct":"http://purl.org/dc/terms/"}', '{"@import":"https://ctx.example/x"}', '{"T":{"@id":"http://a/T","@context":{}}}', '"@graph":[', '"@id":', '"@type":', '"@reverse":', '"@list":', '"@set":', '"@value":', '"@language":', '"@base":', '"dcat:Dataset"', '"Dataset"', '"DataDownload"', '"dcat:distribution":', '"distribution":', '"dcat:downloadURL":', '"contentUrl":', '"encodingFormat":', '"hydra:nextPage":', '"http://www.w3.org/ns/hydra/core#next":', '"x.csv"', '"https://x.example/y"', '"_:b0"', '{"@id":"_:b0"}', '"javascript:x"', "[", "]", "{", "}", ",", ":", "null", "1"];
const TURTLE_PIECES = ["@prefix dcat: <http://www.w3.org/ns/dcat#> .", "@prefix dct: <http://purl.org/dc/terms/> .", "@prefix hydra: <http://www.w3.org/ns/hydra/core#> .", "@base <http://b.example/> .", "PREFIX : <http://c/>", "<http://x.example/d>", "<rel/a.csv>", "<>", "<javascript:x>", "_:b", "[", "]", "(", ")", "{", "}", "a", "dcat:Dataset", "dcat:Distribution", "dcat:distribution", "dcat:downloadURL", "dcat:accessURL", "dct:format", "dcat:mediaType", "dcat:byteSize", "hydra:nextPage", "hydra:next", '"x"', '"""long\n"""', '"1024"^^<http://www.w3.org/2001/XMLSchema#decimal>', '"t"@en', "'s'", ";", ",", ".", " ", "\n", "#c\n", "\\u0000", "<<", ">>", "true", "12"];
const XML_PIECES = ['<?xml version="1.0"?>', '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dcat="http://www.w3.org/ns/dcat#" xmlns:dct="http://purl.org/dc/terms/" xmlns:hydra="http://www.w3.org/ns/hydra/core#">', "</rdf:RDF>", '<dcat:Dataset rdf:about="http://x.example/d">', "</dcat:Dataset>", "<dcat:distribution>", "</dcat:distribution>", '<dcat:distribution rdf:resource="d2"/>', "<dcat:Distribution>", "</dcat:Distribution>", '<rdf:Description rdf:about="d2">', "</rdf:Description>", '<dcat:downloadURL rdf:resource="a.csv"/>', '<dcat:accessURL rdf:resource="javascript:x"/>', "<dct:format>CSV</dct:format>", "<dct:title>", "</dct:title>", '<hydra:nextPage>?page=2</hydra:nextPage>', 'rdf:parseType="Resource"', 'rdf:parseType="Collection"', 'xml:base="http://b.example/"', '<!DOCTYPE r [<!ENTITY a "aaaa">]>', "&a;", "&amp;", "&#0;", "<![CDATA[", "]]>", "<!--", "-->", "<", ">", "/>", '"', "=", " "];
const HTML_PIECES = ['<script type="application/ld+json">', "</script>", "<script>", "<!--", "-->", "<head>", "<body>", '{"@context":"https://schema.org","@type":"Dataset",', '"name":"n",', '"url":"/landing",', '"distribution":[{"@type":"DataDownload","contentUrl":"a.csv","encodingFormat":"CSV"}]', '"distribution":{"@type":"DataDownload","contentUrl":"javascript:x"}', '"@graph":[', '{"@type":"DataCatalog","dataset":[', '{"@context":"http://127.0.0.1:9/c"}', "[", "]", "{", "}", ",", '"', "&quot;", "</scr", "ipt>"];

/** Well-formed JSON built from JSON-LD's keywords and the catalog terms: what reaches jsonld's algorithms, not JSON.parse's errors. */
const LD_KEYS = ["@context", "@graph", "@id", "@type", "@value", "@language", "@list", "@set", "@reverse", "@base", "@vocab", "@import", "@protected", "@included", "@nest", "dcat", "dcat:distribution", "dcat:downloadURL", "distribution", "contentUrl", "downloadURL", "hydra:nextPage", "name", "url", "encodingFormat", "dataset", "x"];
const LD_LEAVES = ["Dataset", "DataDownload", "DataCatalog", "dcat:Dataset", "http://www.w3.org/ns/dcat#", "https://schema.org", "http://127.0.0.1:9/context.jsonld", "a.csv", "https://x.example/f.csv", "_:b0", "@id", "@vocab", "@json", "javascript:x", "en", ""];
const { jsonLd } = fc.letrec<{ jsonLd: unknown }>((tie) => ({
  jsonLd: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.constantFrom<unknown>(...LD_LEAVES, null, 1, true), fc.string({ maxLength: 6 })),
    fc.array(tie("jsonLd"), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom(...LD_KEYS), tie("jsonLd"), { maxKeys: 5 }),
  ),
}));
const structuredJsonLd = jsonLd.map((value) => JSON.stringify(value) ?? "null");

const schemaOrg = fuzzTarget({
  name: "schema.org datasets in hostile pages",
  ciRuns: 300,
  memoryBoundMiB: 96,
  property: () =>
    fc.asyncProperty(
      fc.oneof(
        { weight: 5, arbitrary: tokensOf(HTML_PIECES, 60) },
        { weight: 1, arbitrary: anyText(300) },
        { weight: 4, arbitrary: fc.array(structuredJsonLd, { maxLength: 3 }).map((blocks) => `<html><head>${blocks.map((block) => `<script type="application/ld+json">${block}</script>`).join("")}</head></html>`) },
      ),
      baseUrl,
      async (html, pageUrl) => {
      const started = performance.now();
      const files = await schemaOrgFiles(html, pageUrl);
      if (performance.now() - started > MAX_MS_PER_INPUT) throw new Error(`took ${Math.round(performance.now() - started)} ms`);
      checkFiles(files);
      },
    ),
});

export const fuzzTargets: FuzzTarget[] = [
  roundTrip,
  hostile("DCAT-US data.json on hostile JSON", JSON_PIECES, ["application/json", undefined, "text/plain"], 400),
  hostile("DCAT JSON-LD on hostile JSON", JSONLD_PIECES, ["application/ld+json"], 300, structuredJsonLd),
  hostile("DCAT Turtle on hostile text", TURTLE_PIECES, ["text/turtle", "text/n3", "application/n-triples", "application/n-quads", undefined], 400),
  hostile("DCAT RDF/XML on hostile XML", XML_PIECES, ["application/rdf+xml", "text/xml", undefined], 300),
  schemaOrg,
];
