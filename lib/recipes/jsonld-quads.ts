import jsonld from "jsonld";
import type { GraphQuad } from "./catalog-graph";
import { offlineContextLoader, type ContextLoader } from "./jsonld-contexts";
import { firstLine, MAX_QUADS, type ReadQuads } from "./rdf-quads";

/**
 * A parsed JSON-LD document as RDF quads, through jsonld (the W3C algorithms), with the offline
 * context loader (jsonld-contexts.ts). jsonld cannot be stopped part-way, so the document's size
 * is checked before: at most `MAX_JSONLD_VALUES` JSON values nested at most `MAX_JSONLD_DEPTH`
 * deep, which keeps a read to a fraction of a second. Never throws.
 */
export const MAX_JSONLD_VALUES = 30_000;
export const MAX_JSONLD_DEPTH = 48;
/**
 * Term definitions in all the document's own contexts together. jsonld's work on contexts grows
 * with their terms times the nodes they apply to, and scoped contexts (a term or type bringing
 * its own `@context`) multiply the active contexts it builds and caches: a few kilobytes of them
 * exhaust the heap. Catalogs' contexts are prefixes and a few dozen terms, never scoped.
 */
export const MAX_CONTEXT_TERMS = 1_000;
/** `@context` keys in the document: a catalog has one, or one per embedded node at most. */
export const MAX_CONTEXTS = 200;

export interface JsonLdReading {
  /** Used for contexts the document names by URL; the default never fetches (`offlineContextLoader`). */
  loader?: ContextLoader;
  /** The context a document without one is read with (a page's schema.org block that forgot its `@context`). */
  defaultContext?: Record<string, unknown>;
}

export async function readJsonLdQuads(document: unknown, baseIri: string, reading: JsonLdReading = {}): Promise<ReadQuads> {
  if (typeof document !== "object" || document === null) return { quads: [], problem: "is JSON but not a JSON-LD object or array" };
  const shape = shapeProblem(document);
  if (shape) return { quads: [], problem: shape };
  const options: Record<string, unknown> = { base: baseIri, documentLoader: reading.loader ?? offlineContextLoader() };
  if (reading.defaultContext) options.expandContext = { "@context": reading.defaultContext };
  let quads: GraphQuad[];
  try {
    quads = (await jsonld.toRDF(document as jsonld.JsonLdDocument, options)) as unknown as GraphQuad[];
  } catch (error) {
    return { quads: [], problem: `is not valid JSON-LD: ${firstLine(error)}` };
  }
  if (!Array.isArray(quads)) return { quads: [], problem: "gave no RDF statements" };
  if (quads.length > MAX_QUADS) return { quads: quads.slice(0, MAX_QUADS), capped: true, problem: `holds more than ${MAX_QUADS} statements; the first ${MAX_QUADS} are read` };
  return { quads };
}

/** Counts values and context terms without recursion (a hostile document may nest deeper than the stack). */
function shapeProblem(document: object): string | undefined {
  const stack: Array<[unknown, number]> = [[document, 1]];
  let values = 0;
  let terms = 0;
  let contexts = 0;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (++values > MAX_JSONLD_VALUES) return `holds more than ${MAX_JSONLD_VALUES} JSON values, more than Forage reads as JSON-LD`;
    if (typeof value !== "object" || value === null) continue;
    if (depth > MAX_JSONLD_DEPTH) return `nests deeper than ${MAX_JSONLD_DEPTH} levels`;
    if (!Array.isArray(value) && "@context" in value) {
      if (++contexts > MAX_CONTEXTS) return `has more than ${MAX_CONTEXTS} @context entries`;
      for (const context of [(value as Record<string, unknown>)["@context"]].flat()) {
        if (typeof context !== "object" || context === null) continue;
        for (const definition of Object.values(context)) {
          terms++;
          if (typeof definition === "object" && definition !== null && "@context" in definition) return "uses scoped contexts (a term with its own @context), which catalogs do not need and Forage does not read";
        }
      }
      if (terms > MAX_CONTEXT_TERMS) return `defines more than ${MAX_CONTEXT_TERMS} context terms`;
    }
    for (const child of Array.isArray(value) ? value : Object.values(value)) stack.push([child, depth + 1]);
  }
  return undefined;
}
