import { absoluteHttpUrl } from "./catalog-url";
import { byteSizeOf, formatOf, RDF_TYPE, TERMS } from "./catalog-vocabulary";
import type { ListedFile } from "./listed-file";

/**
 * The files an RDF graph lists, whatever serialisation it came in (Turtle, RDF/XML, JSON-LD, or
 * schema.org JSON-LD in a page): each dataset (`dcat:Dataset`, `schema:Dataset`) is a record,
 * each of its distributions (`dcat:Distribution`, `schema:DataDownload`) a file, and a
 * distribution no dataset names is a file without a record. The paging link is Hydra's.
 */

/** The part of an RDF/JS term the reader needs; the quads of n3, rdfxml-streaming-parser and jsonld all fit. */
export interface GraphTerm {
  termType: string;
  value: string;
  language?: string;
}

export interface GraphQuad {
  subject: GraphTerm;
  predicate: GraphTerm;
  object: GraphTerm;
}

export interface GraphFiles {
  files: ListedFile[];
  /** Datasets read. */
  records: number;
  /** Hydra's next page, resolved, when the graph names one other than this page. */
  nextUrl: string | null;
  /** Set when a cap cut the reading short. */
  truncated?: string;
}

/** A page of a catalog lists up to a thousand datasets in practice; more is cut (and said). */
export const MAX_DATASETS = 10_000;
export const MAX_FILES = 50_000;
/** Titles, formats and dates longer than this are not labels; they are cut. */
const MAX_TEXT_CHARS = 500;

type Index = Map<string, Map<string, GraphTerm[]>>;

export function filesOfGraph(quads: readonly GraphQuad[], pageUrl: string): GraphFiles {
  const index = indexOf(quads);
  const origin = originOf(pageUrl);
  const datasets: string[] = [];
  const distributions: string[] = [];
  for (const quad of quads) {
    if (quad.predicate.value !== RDF_TYPE || quad.subject.termType === "Literal") continue;
    if (TERMS.datasetTypes.has(quad.object.value)) datasets.push(quad.subject.value);
    else if (TERMS.distributionTypes.has(quad.object.value)) distributions.push(quad.subject.value);
  }
  const files: ListedFile[] = [];
  const seenUrls = new Set<string>();
  const read = new Set<string>();
  let truncated: string | undefined;
  const add = (file: ListedFile): void => {
    if (seenUrls.has(file.url)) return;
    if (files.length >= MAX_FILES) {
      truncated ??= `lists more than ${MAX_FILES} files; the first ${MAX_FILES} are read`;
      return;
    }
    seenUrls.add(file.url);
    files.push(file);
  };
  let records = 0;
  for (const dataset of unique(datasets)) {
    if (records >= MAX_DATASETS) {
      truncated ??= `lists more than ${MAX_DATASETS} datasets; the first ${MAX_DATASETS} are read`;
      break;
    }
    if (read.has(dataset)) continue;
    read.add(dataset);
    records++;
    const record = recordOf(index, dataset, pageUrl, origin);
    for (const distribution of objects(index, dataset, TERMS.distribution)) {
      if (distribution.termType === "Literal") continue;
      read.add(distribution.value);
      for (const file of filesOfDistribution(index, distribution.value, pageUrl)) add(record ? { ...file, record } : file);
    }
  }
  for (const distribution of unique(distributions)) {
    if (read.has(distribution)) continue;
    for (const file of filesOfDistribution(index, distribution, pageUrl)) add(file);
  }
  const result: GraphFiles = { files, records, nextUrl: records === 0 ? null : nextPageOf(quads, pageUrl) };
  if (truncated) result.truncated = truncated;
  return result;
}

function indexOf(quads: readonly GraphQuad[]): Index {
  const index: Index = new Map();
  for (const { subject, predicate, object } of quads) {
    let bySubject = index.get(subject.value);
    if (!bySubject) index.set(subject.value, (bySubject = new Map()));
    const list = bySubject.get(predicate.value);
    if (list) list.push(object);
    else bySubject.set(predicate.value, [object]);
  }
  return index;
}

function objects(index: Index, subject: string, predicates: readonly string[]): GraphTerm[] {
  const bySubject = index.get(subject);
  if (!bySubject) return [];
  return predicates.flatMap((predicate) => bySubject.get(predicate) ?? []);
}

function recordOf(index: Index, dataset: string, pageUrl: string, origin: string | undefined): ListedFile["record"] {
  const record: NonNullable<ListedFile["record"]> = {};
  const title = literalOf(objects(index, dataset, TERMS.title));
  if (title) record.title = title;
  const modified = literalOf(objects(index, dataset, TERMS.modified));
  if (modified) record.modified = modified;
  const page = firstUrl(objects(index, dataset, TERMS.landingPage), pageUrl) ?? sameOriginIri(dataset, origin);
  if (page) record.page = page;
  return Object.keys(record).length > 0 ? record : undefined;
}

/**
 * A dataset without a landing page is often named by the IRI of its page on the portal
 * (ckanext-dcat names it `…/dataset/<id>`); such an IRI counts as its page only on the
 * catalog's own origin, where it is a page and not merely a name.
 */
function sameOriginIri(iri: string, origin: string | undefined): string | undefined {
  if (origin === undefined || !iri.startsWith(origin + "/")) return undefined;
  // `https://site/datasets/x#dataset` names the dataset described on the page `…/x`.
  return absoluteHttpUrl(iri.replace(/#.*$/, ""), origin);
}

function originOf(pageUrl: string): string | undefined {
  try {
    return new URL(pageUrl).origin;
  } catch {
    return undefined;
  }
}

function filesOfDistribution(index: Index, node: string, pageUrl: string): ListedFile[] {
  const urls = fileUrlsOf(index, node, pageUrl);
  if (urls.length === 0) return [];
  const about: Omit<ListedFile, "url"> = {};
  const declaredMedia = declaredFormat(index, objects(index, node, TERMS.mediaType));
  const declaredFormatTerm = declaredFormat(index, objects(index, node, TERMS.format));
  const media = declaredMedia ? formatOf(declaredMedia) : undefined;
  const format = declaredFormatTerm ? formatOf(declaredFormatTerm) : undefined;
  const mime = media?.mime ?? format?.mime;
  if (mime) about.mime = mime;
  const label = format?.format ?? media?.format;
  if (label) about.format = label;
  for (const size of objects(index, node, TERMS.size)) {
    const bytes = size.termType === "Literal" ? byteSizeOf(size.value) : undefined;
    if (bytes !== undefined) {
      about.size = bytes;
      break;
    }
  }
  const modified = literalOf(objects(index, node, TERMS.modified));
  if (modified) about.modified = modified;
  const title = literalOf(objects(index, node, TERMS.title));
  if (title) about.title = title;
  return urls.map((url) => ({ url, ...about }));
}

/** Every download URL of the distribution; its access URL only when it names no download URL (DCAT: the access URL may be a page about the file). */
function fileUrlsOf(index: Index, node: string, pageUrl: string): string[] {
  const bySubject = index.get(node);
  if (!bySubject) return [];
  for (const group of [TERMS.fileUrl.slice(0, -1), TERMS.fileUrl.slice(-1)]) {
    const urls = unique(group.flatMap((predicate) => bySubject.get(predicate) ?? []).flatMap((term) => absoluteHttpUrl(term.value, pageUrl) ?? []));
    if (urls.length > 0) return urls;
  }
  return [];
}

/** A format given as a literal, an IRI, or a node (DCAT-AP's `[ a dct:IMT; rdf:value "text/csv"; rdfs:label "CSV" ]`). */
function declaredFormat(index: Index, terms: readonly GraphTerm[]): string | undefined {
  for (const term of terms) {
    if (term.termType === "Literal" && term.value.trim() !== "") return cut(term.value.trim());
    if (term.termType === "NamedNode" && /^https?:/i.test(term.value)) return cut(term.value);
    if (term.termType === "BlankNode" || term.termType === "NamedNode") {
      const label = literalOf(objects(index, term.value, TERMS.formatLabel));
      if (label) return label;
    }
  }
  return undefined;
}

/** A literal with no language first, then English, then any: the label a reader of the catalog would see. */
function literalOf(terms: readonly GraphTerm[]): string | undefined {
  const literals = terms.filter((term) => term.termType === "Literal" && term.value.trim() !== "");
  const chosen = literals.find((term) => !term.language) ?? literals.find((term) => /^en\b/i.test(term.language ?? "")) ?? literals[0];
  return chosen ? cut(chosen.value.trim()) : undefined;
}

function firstUrl(terms: readonly GraphTerm[], pageUrl: string): string | undefined {
  for (const term of terms) {
    const url = absoluteHttpUrl(term.value, pageUrl);
    if (url) return url;
  }
  return undefined;
}

function nextPageOf(quads: readonly GraphQuad[], pageUrl: string): string | null {
  for (const quad of quads) {
    if (!(TERMS.nextPage as readonly string[]).includes(quad.predicate.value)) continue;
    const url = absoluteHttpUrl(quad.object.value, pageUrl);
    if (url && url !== pageUrl) return url;
  }
  return null;
}

function cut(text: string): string {
  return text.length > MAX_TEXT_CHARS ? text.slice(0, MAX_TEXT_CHARS) : text;
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
