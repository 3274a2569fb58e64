import { mimeOfFormat } from "./listed-file";

/**
 * The terms catalogs use to list files, from DCAT (W3C Data Catalog Vocabulary, versions 1–3, and
 * its DCAT-AP profiles), Dublin Core terms, schema.org (`Dataset`, `DataDownload`) and Hydra (the
 * paging ckanext-dcat adds). DCAT and schema.org say the same things with other names, so each
 * meaning below lists every IRI that carries it; schema.org is accepted under http and https,
 * since publishers use both.
 */
export const DCAT = "http://www.w3.org/ns/dcat#";
export const DCT = "http://purl.org/dc/terms/";
export const HYDRA = "http://www.w3.org/ns/hydra/core#";
export const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const RDF_VALUE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#value";
const RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label";
const SCHEMA_NAMESPACES = ["http://schema.org/", "https://schema.org/"];
const schema = (term: string): string[] => SCHEMA_NAMESPACES.map((namespace) => namespace + term);

export const TERMS = {
  datasetTypes: new Set([DCAT + "Dataset", ...schema("Dataset")]),
  distributionTypes: new Set([DCAT + "Distribution", ...schema("DataDownload")]),
  distribution: [DCAT + "distribution", ...schema("distribution")],
  /** In order of preference: a download URL names the file itself, an access URL may name a page about it. */
  fileUrl: [DCAT + "downloadURL", ...schema("contentUrl"), DCAT + "accessURL"],
  mediaType: [DCAT + "mediaType", ...schema("encodingFormat"), ...schema("fileFormat")],
  format: [DCT + "format"],
  size: [DCAT + "byteSize", ...schema("contentSize")],
  modified: [DCT + "modified", ...schema("dateModified")],
  title: [DCT + "title", ...schema("name")],
  landingPage: [DCAT + "landingPage", ...schema("url")],
  /** ckanext-dcat writes both on its `hydra:PagedCollection` (nextPage as Hydra's older name), as literals; newer Hydra puts `next` on a `PartialCollectionView`. */
  nextPage: [HYDRA + "next", HYDRA + "nextPage"],
  /** What a format node (DCAT-AP's `dct:IMT` blank node) names its type with. */
  formatLabel: [RDF_VALUE, RDFS_LABEL],
} as const;

const IANA_MEDIA_TYPES = /^https?:\/\/www\.iana\.org\/assignments\/media-types\/([a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+)$/i;
const EU_FILE_TYPES = /^https?:\/\/publications\.europa\.eu\/resource\/authority\/file-type\/([A-Z0-9_]{1,40})$/i;

/**
 * The EU file-type authority's codes that are not a file extension (the rest, "CSV", "XLSX",
 * "PDF"…, are typed as extensions by `mimeOfFormat`).
 */
const EU_FILE_TYPE_MIMES: ReadonlyMap<string, string> = new Map([
  ["RDF_XML", "application/rdf+xml"],
  ["RDF_TURTLE", "text/turtle"],
  ["RDF_N_TRIPLES", "application/n-triples"],
  ["RDF_N_QUADS", "application/n-quads"],
  ["JSON_LD", "application/ld+json"],
  ["GEOJSON", "application/geo+json"],
  ["SHP", "application/x-shapefile"],
  ["XLS", "application/vnd.ms-excel"],
  ["MS_EXCEL", "application/vnd.ms-excel"],
  ["MSWORD_DOC", "application/msword"],
  ["DOCX", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"],
  ["TXT", "text/plain"],
  ["TAR_GZ", "application/x-gzip"],
  ["GZIP", "application/x-gzip"],
]);

/**
 * A declared format as a file format label and a MIME type: an IANA media-type IRI
 * (`…/media-types/text/csv` → text/csv), an EU file-type IRI (`…/file-type/CSV` → "CSV",
 * text/csv), or a literal ("CSV", "text/csv", ".xlsx"). `mime` is undefined when the format
 * names no known type ("Esri REST").
 */
export function formatOf(declared: string): { format: string; mime?: string } {
  const value = declared.trim();
  const iana = IANA_MEDIA_TYPES.exec(value);
  if (iana) {
    const mime = iana[1]!.toLowerCase();
    return { format: mime, mime };
  }
  const eu = EU_FILE_TYPES.exec(value);
  if (eu) {
    const code = eu[1]!.toUpperCase();
    const mime = EU_FILE_TYPE_MIMES.get(code) ?? mimeOfFormat(code);
    return mime ? { format: code, mime } : { format: code };
  }
  const mime = mimeOfFormat(value.replace(/;.*$/, ""));
  return mime ? { format: value, mime } : { format: value };
}

const SIZE_UNITS: Readonly<Record<string, number>> = { "": 1, b: 1, byte: 1, bytes: 1, kb: 1e3, kib: 1024, mb: 1e6, mib: 1024 ** 2, gb: 1e9, gib: 1024 ** 3, tb: 1e12, tib: 1024 ** 4 };

/** `dcat:byteSize` ("1024", "1024.0") or schema.org's `contentSize` ("25 MB", "1.5 GiB") in bytes; undefined when it is no size. */
export function byteSizeOf(declared: string): number | undefined {
  const match = /^\s*(\d{1,15}(?:\.\d{1,6})?)\s*([a-z]{0,5})\s*$/i.exec(declared);
  if (!match) return undefined;
  const unit = SIZE_UNITS[match[2]!.toLowerCase()];
  if (unit === undefined) return undefined;
  const bytes = Math.round(Number(match[1]) * unit);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}
