import { DataFactory, Parser } from "n3";
import { RdfXmlParser } from "rdfxml-streaming-parser";
import type { GraphQuad } from "./catalog-graph";
import { turtleNestingDepth, xmlElementDepth } from "./nesting-depth";

/**
 * Turtle (and N-Triples, N-Quads, N3) through n3, RDF/XML through rdfxml-streaming-parser.
 * Bounded three ways: the caller caps the text; nesting deeper than `MAX_NESTING` is refused
 * before parsing (nesting-depth.ts says why); and reading stops at `maxQuads` statements (n3's
 * quad factory counts them; RDF/XML is fed in slices, counted between them, with a turn of the
 * event loop each). Never throws: a syntax error is a `problem` in words, with the quads read
 * before it.
 */
export type RdfSyntax = "turtle" | "n3" | "n-triples" | "n-quads" | "rdf-xml";

export interface ReadQuads {
  quads: GraphQuad[];
  /** The parser's complaint (first line of it), or the cap reached. */
  problem?: string;
  /** True when `maxQuads` stopped the reading (the quads read so far are kept). */
  capped?: boolean;
}

/** A catalog page of a thousand datasets (about 60 statements each) fits; more is a dump, read in part. */
export const MAX_QUADS = 60_000;
/** Catalogs nest about ten levels (catalog, dataset, distribution, a format node); documents past this are refused. */
export const MAX_NESTING = 64;
/** An element's attributes are statements the RDF/XML parser makes all at once; catalogs' tags are short. */
export const MAX_START_TAG_CHARS = 16 * 1024;
const SLICE_CHARS = 64 * 1024;

const N3_FORMATS: Record<Exclude<RdfSyntax, "rdf-xml">, string> = { turtle: "text/turtle", n3: "text/n3", "n-triples": "application/n-triples", "n-quads": "application/n-quads" };

export async function readRdfQuads(text: string, syntax: RdfSyntax, baseIri: string, maxQuads = MAX_QUADS): Promise<ReadQuads> {
  const depth = syntax === "rdf-xml" ? xmlElementDepth(text, MAX_NESTING, MAX_START_TAG_CHARS) : turtleNestingDepth(text, MAX_NESTING);
  if (depth > MAX_NESTING) {
    return { quads: [], problem: syntax === "rdf-xml" ? `nests deeper than ${MAX_NESTING} levels or has a start tag over ${MAX_START_TAG_CHARS / 1024} KiB, which no catalog does` : `nests deeper than ${MAX_NESTING} levels, which no catalog does` };
  }
  return syntax === "rdf-xml" ? readRdfXml(text, baseIri, maxQuads) : readN3(text, syntax, baseIri, maxQuads);
}

class QuadCapReached extends Error {}

function readN3(text: string, syntax: Exclude<RdfSyntax, "rdf-xml">, baseIri: string, maxQuads: number): ReadQuads {
  const quads: GraphQuad[] = [];
  // n3 builds every statement through its factory: collecting there lets a long document stop
  // part-way with what was read (n3 parses synchronously when given no callback).
  const quad = (...terms: unknown[]) => {
    if (quads.length >= maxQuads) throw new QuadCapReached();
    const made = (DataFactory.quad as (...terms: unknown[]) => GraphQuad)(...terms);
    quads.push(made);
    return made;
  };
  try {
    new Parser({ baseIRI: baseIri, format: N3_FORMATS[syntax], factory: { ...DataFactory, quad } as unknown as typeof DataFactory }).parse(text);
  } catch (error) {
    if (error instanceof QuadCapReached) return { quads, capped: true, problem: capped(maxQuads) };
    return { quads, problem: `is not valid ${SYNTAX_NAMES[syntax]}: ${firstLine(error)}` };
  }
  return { quads };
}

async function readRdfXml(text: string, baseIri: string, maxQuads: number): Promise<ReadQuads> {
  let parser: RdfXmlParser;
  try {
    parser = new RdfXmlParser({ baseIRI: baseIri });
  } catch (error) {
    return { quads: [], problem: `could not start the RDF/XML parser: ${firstLine(error)}` };
  }
  const quads: GraphQuad[] = [];
  let failure: string | undefined;
  let ended = false;
  const finished = new Promise<void>((resolve) => {
    parser.on("data", (quad: GraphQuad) => {
      if (quads.length < maxQuads) quads.push(quad);
    });
    parser.on("error", (error: unknown) => {
      failure ??= firstLine(error);
      resolve();
    });
    parser.on("end", () => {
      ended = true;
      resolve();
    });
  });
  for (let start = 0; start < text.length && failure === undefined && quads.length < maxQuads; start += SLICE_CHARS) {
    try {
      parser.write(text.slice(start, start + SLICE_CHARS));
    } catch (error) {
      failure ??= firstLine(error);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (failure === undefined && quads.length < maxQuads) {
    try {
      parser.end();
    } catch (error) {
      failure ??= firstLine(error);
    }
    if (failure === undefined) await finished;
  }
  if (!parser.destroyed) parser.destroy();
  if (quads.length >= maxQuads) return { quads, capped: true, problem: capped(maxQuads) };
  if (failure !== undefined) return { quads, problem: `is not valid RDF/XML: ${failure}` };
  if (!ended) return { quads, problem: "ended before the RDF/XML parser finished" };
  return { quads };
}

function capped(maxQuads: number): string {
  return `holds more than ${maxQuads} statements; the first ${maxQuads} are read`;
}

const SYNTAX_NAMES: Record<RdfSyntax, string> = { turtle: "Turtle", n3: "N3", "n-triples": "N-Triples", "n-quads": "N-Quads", "rdf-xml": "RDF/XML" };

/** An error's message, first line, at most 200 characters: parsers quote the input, which may be anything. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split(/\r?\n/, 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
