import { StreamParser } from "n3";
import { RdfXmlParser } from "rdfxml-streaming-parser";
import type { Transform } from "node:stream";
import type { GraphQuad } from "./catalog-graph";

/**
 * Turtle (and N-Triples, N3) through n3, RDF/XML through rdfxml-streaming-parser, both fed in
 * slices so that reading stops at `MAX_QUADS` instead of after the whole body, and so that the
 * event loop gets a turn between slices. Never throws: a syntax error is a `problem` in words,
 * with the quads read before it.
 */
export type RdfSyntax = "turtle" | "n3" | "n-triples" | "n-quads" | "rdf-xml";

export interface ReadQuads {
  quads: GraphQuad[];
  /** The parser's complaint (first line of it), or the cap reached. */
  problem?: string;
  /** True when `MAX_QUADS` stopped the reading (the quads read so far are kept). */
  capped?: boolean;
}

/** A catalog page of a thousand datasets is well under this; more is a dump Forage reads in part. */
export const MAX_QUADS = 200_000;
const SLICE_CHARS = 256 * 1024;

const N3_FORMATS: Record<Exclude<RdfSyntax, "rdf-xml">, string> = { turtle: "text/turtle", n3: "text/n3", "n-triples": "application/n-triples", "n-quads": "application/n-quads" };

export async function readRdfQuads(text: string, syntax: RdfSyntax, baseIri: string, maxQuads = MAX_QUADS): Promise<ReadQuads> {
  let parser: Transform;
  try {
    parser = syntax === "rdf-xml" ? new RdfXmlParser({ baseIRI: baseIri }) : (new StreamParser({ baseIRI: baseIri, format: N3_FORMATS[syntax] }) as unknown as Transform);
  } catch (error) {
    return { quads: [], problem: `could not start the ${syntax} parser: ${firstLine(error)}` };
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
  for (let start = 0; start < text.length && failure === undefined; start += SLICE_CHARS) {
    if (quads.length >= maxQuads) {
      parser.destroy();
      return { quads, capped: true, problem: `holds more than ${maxQuads} statements; the first ${maxQuads} are read` };
    }
    try {
      parser.write(text.slice(start, start + SLICE_CHARS));
    } catch (error) {
      failure ??= firstLine(error);
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  if (failure === undefined) {
    try {
      parser.end();
    } catch (error) {
      failure ??= firstLine(error);
    }
    if (failure === undefined) await finished;
  }
  if (!parser.destroyed) parser.destroy();
  if (quads.length >= maxQuads) return { quads, capped: true, problem: `holds more than ${maxQuads} statements; the first ${maxQuads} are read` };
  if (failure !== undefined) return { quads, problem: `is not valid ${SYNTAX_NAMES[syntax]}: ${failure}` };
  if (!ended) return { quads, problem: `ended before the ${SYNTAX_NAMES[syntax]} parser finished` };
  return { quads };
}

const SYNTAX_NAMES: Record<RdfSyntax, string> = { turtle: "Turtle", n3: "N3", "n-triples": "N-Triples", "n-quads": "N-Quads", "rdf-xml": "RDF/XML" };

/** An error's message, first line, at most 200 characters: parsers quote the input, which may be anything. */
export function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split(/\r?\n/, 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
