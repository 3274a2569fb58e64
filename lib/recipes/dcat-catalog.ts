import { filesOfGraph, type GraphFiles } from "./catalog-graph";
import { filesOfDcatUs, isDcatUsCatalog } from "./dcat-us-json";
import type { EnumerationAnswer, EnumerationPage } from "./enumeration-pages";
import { WELL_KNOWN_TERMS, type ContextLoader } from "./jsonld-contexts";
import { readJsonLdQuads } from "./jsonld-quads";
import { firstLine, readRdfQuads, type RdfSyntax } from "./rdf-quads";

/**
 * One page of a DCAT catalog read as an enumeration page (enumeration-pages.ts): DCAT-US
 * `data.json`, or DCAT / DCAT-AP as JSON-LD, Turtle (N-Triples, N3) or RDF/XML, as ckanext-dcat
 * serves them at `/catalog.{jsonld,ttl,n3,xml,rdf}` with Hydra paging. Datasets are records,
 * distributions files, typed from `dcat:mediaType` / `dct:format` without a request. Never
 * throws: an answer that is no catalog ends the enumeration with a `problem` in words.
 */
export type CatalogSyntax = "dcat-us-json" | "json-ld" | RdfSyntax;

/**
 * The largest body read, per syntax, in characters: each parser reads its cap in a fraction of
 * a second (JSON.parse is fast, jsonld's algorithms slow), and a catalog paged as ckanext-dcat
 * pages it (100 datasets a page) is far below. A larger body is refused whole: half an RDF
 * document is not a catalog.
 */
export const MAX_CATALOG_CHARS: Readonly<Record<CatalogSyntax, number>> = {
  "dcat-us-json": 16 * 1024 * 1024,
  "json-ld": 1024 * 1024,
  turtle: 2 * 1024 * 1024,
  n3: 2 * 1024 * 1024,
  "n-triples": 2 * 1024 * 1024,
  "n-quads": 2 * 1024 * 1024,
  "rdf-xml": 2 * 1024 * 1024,
};

export interface CatalogReading {
  /** For JSON-LD contexts named by URL; the default never fetches (jsonld-contexts.ts). */
  contextLoader?: ContextLoader;
}

export async function readDcatCatalog(answer: EnumerationAnswer, pageUrl: string, reading: CatalogReading = {}): Promise<EnumerationPage> {
  try {
    return await readCatalog(answer, pageUrl, reading);
  } catch (error) {
    // The readers below catch what their parsers throw; this is the last guard of "never throws".
    return ended(`could not be read: ${firstLine(error)}`);
  }
}

async function readCatalog(answer: EnumerationAnswer, pageUrl: string, reading: CatalogReading): Promise<EnumerationPage> {
  if (answer.status < 200 || answer.status >= 300) return ended(`answered ${answer.status}`);
  const body = answer.body.replace(/^\uFEFF/, "");
  const contentType = (answer.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase().replace(/[\u0000-\u001f\u007f]/g, "").slice(0, 100);
  const syntax = syntaxOf(contentType, body);
  if (typeof syntax !== "string") return ended(syntax.problem);
  // JSON is DCAT-US or JSON-LD, told apart once parsed: the larger cap first.
  const overCap = tooLarge(body, syntax === "json" ? "dcat-us-json" : syntax);
  if (overCap) return ended(overCap);
  if (syntax === "json") return readJsonCatalog(body, pageUrl, reading);
  const read = await readRdfQuads(body, syntax, pageUrl);
  return pageOf(filesOfGraph(read.quads, pageUrl), read.problem);
}

async function readJsonCatalog(body: string, pageUrl: string, reading: CatalogReading): Promise<EnumerationPage> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    return ended(`is not JSON: ${firstLine(error)}`);
  }
  if (isDcatUsCatalog(json)) return pageOf(filesOfDcatUs(json, pageUrl));
  const overCap = tooLarge(body, "json-ld");
  if (overCap) return ended(overCap);
  const read = await readJsonLdQuads(json, pageUrl, { loader: reading.contextLoader, defaultContext: WELL_KNOWN_TERMS });
  const graph = filesOfGraph(read.quads, pageUrl);
  if (!read.problem && graph.records === 0 && graph.files.length === 0) return ended("is JSON but lists no DCAT or schema.org dataset");
  return pageOf(graph, read.problem);
}

function pageOf(graph: GraphFiles, problem?: string): EnumerationPage {
  const said = problem ?? graph.truncated;
  if (said) return { files: graph.files, records: graph.records, nextUrl: null, problem: said };
  return { files: graph.files, records: graph.records, nextUrl: graph.nextUrl };
}

function tooLarge(body: string, syntax: CatalogSyntax): string | undefined {
  const cap = MAX_CATALOG_CHARS[syntax];
  return body.length > cap ? `is ${mebibytes(body.length)} MiB of ${SYNTAX_NAMES[syntax]}, over the ${mebibytes(cap)} MiB Forage reads` : undefined;
}

function ended(problem: string): EnumerationPage {
  return { files: [], records: 0, nextUrl: null, problem };
}

const SYNTAX_NAMES: Record<CatalogSyntax, string> = { "dcat-us-json": "JSON", "json-ld": "JSON-LD", turtle: "Turtle", n3: "N3", "n-triples": "N-Triples", "n-quads": "N-Quads", "rdf-xml": "RDF/XML" };

/** Content types catalogs are served with (ckanext-dcat writes `text/ttl` in its links), to syntax. */
const SYNTAX_OF_TYPE: ReadonlyMap<string, RdfSyntax | "json"> = new Map([
  ["application/json", "json"],
  ["application/ld+json", "json"],
  ["text/turtle", "turtle"],
  ["text/ttl", "turtle"],
  ["application/x-turtle", "turtle"],
  ["text/n3", "n3"],
  ["text/rdf+n3", "n3"],
  ["application/n-triples", "n-triples"],
  ["application/n-quads", "n-quads"],
  ["application/rdf+xml", "rdf-xml"],
  ["application/xml", "rdf-xml"],
  ["text/xml", "rdf-xml"],
]);

/**
 * The body's syntax: its first characters where they decide (JSON, an XML element, an HTML
 * page), else the Content-Type, else Turtle when the body starts as Turtle does. Servers send
 * catalogs as text/plain or application/octet-stream often enough that the type alone cannot
 * decide, and mislabelled ones (RDF/XML as text/turtle) are read by what they are.
 */
export function syntaxOf(contentType: string, body: string): RdfSyntax | "json" | { problem: string } {
  const start = body.trimStart().slice(0, 256);
  const declared = SYNTAX_OF_TYPE.get(contentType);
  if (start === "") return { problem: "answered an empty body" };
  if (/^[[{]/.test(start)) return "json";
  if (/^<!doctype\s+html|^<html[\s>]/i.test(start) || (contentType === "text/html" && start.startsWith("<") && !/^<\?xml|^<rdf:RDF/i.test(start))) {
    return { problem: "answered an HTML page, not a catalog" };
  }
  // An XML declaration, comment or element (`<rdf:RDF`, `<RDF`); an N-Triples line starts with `<scheme:`, an IRI.
  if (/^<(\?xml|!--|[A-Za-z_][\w.-]*(:[A-Za-z_][\w.-]*)?[\s/>])/.test(start)) return "rdf-xml";
  if (declared === "json") return { problem: `is labelled ${contentType} but is not JSON` };
  if (declared) return declared;
  if (/^(@prefix|@base|prefix\s|base\s|<[a-z][a-z0-9+.-]*:|_:|#)/i.test(start)) return "turtle";
  return { problem: `answered ${contentType || "an unlabelled body"} that is no catalog syntax (JSON, JSON-LD, Turtle or RDF/XML)` };
}

function mebibytes(chars: number): string {
  return (chars / (1024 * 1024)).toFixed(1).replace(/\.0$/, "");
}
