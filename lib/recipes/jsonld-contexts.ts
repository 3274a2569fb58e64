/**
 * The JSON-LD contexts Forage reads documents with, bundled: a JSON-LD document may name its
 * `@context` by URL, and jsonld's own loader would fetch it from the site or a third party on
 * every catalog read (a request the crawl never counted, to a host its policy never checked).
 * Forage's loader never touches the network:
 *
 * - schema.org's context, by any of the URLs publishers write, is a minimal one bundled here:
 *   its vocabulary and the URL-valued terms the readers use.
 * - any other URL (DCAT-AP's, DCAT-US's, a portal's own) is answered with `WELL_KNOWN_TERMS`,
 *   the names those contexts give to the DCAT, Dublin Core, schema.org and Hydra terms the
 *   readers look for. A remote context that means something else only loses its own terms: the
 *   document's reading never depends on a fetch.
 */

/** What a loader returns: jsonld's `RemoteDocument`. */
export interface LoadedContext {
  contextUrl: null;
  documentUrl: string;
  document: { "@context": Record<string, unknown> };
}

export type ContextLoader = (url: string) => Promise<LoadedContext>;

const SCHEMA_ORG = "http://schema.org/";

/** schema.org's vocabulary, with the terms whose values are URLs typed `@id` as schema.org's own context types them. */
export const SCHEMA_ORG_CONTEXT: Record<string, unknown> = {
  "@vocab": SCHEMA_ORG,
  schema: SCHEMA_ORG,
  url: { "@id": "schema:url", "@type": "@id" },
  contentUrl: { "@id": "schema:contentUrl", "@type": "@id" },
  sameAs: { "@id": "schema:sameAs", "@type": "@id" },
};

const DCAT = "http://www.w3.org/ns/dcat#";
const DCT = "http://purl.org/dc/terms/";
const HYDRA = "http://www.w3.org/ns/hydra/core#";

/** The names DCAT-AP's, DCAT-US's and Hydra's contexts give to the terms the readers use; everything else falls to schema.org's vocabulary. */
export const WELL_KNOWN_TERMS: Record<string, unknown> = {
  ...SCHEMA_ORG_CONTEXT,
  dcat: DCAT,
  dct: DCT,
  dcterms: DCT,
  hydra: HYDRA,
  foaf: "http://xmlns.com/foaf/0.1/",
  Catalog: "dcat:Catalog",
  Dataset: "dcat:Dataset",
  Distribution: "dcat:Distribution",
  dataset: "dcat:dataset",
  distribution: "dcat:distribution",
  downloadURL: { "@id": "dcat:downloadURL", "@type": "@id" },
  accessURL: { "@id": "dcat:accessURL", "@type": "@id" },
  landingPage: { "@id": "dcat:landingPage", "@type": "@id" },
  mediaType: "dcat:mediaType",
  byteSize: "dcat:byteSize",
  format: "dct:format",
  title: "dct:title",
  modified: "dct:modified",
  PagedCollection: "hydra:PagedCollection",
  PartialCollectionView: "hydra:PartialCollectionView",
  nextPage: "hydra:nextPage",
  next: "hydra:next",
  view: "hydra:view",
};

/** http or https, with or without www, a trailing slash, or schema.org's published context file. */
const SCHEMA_ORG_CONTEXT_URL = /^https?:\/\/(www\.)?schema\.org(\/(docs\/jsonldcontext\.jsonld?)?)?\/?$/i;

export function isSchemaOrgContextUrl(url: string): boolean {
  return SCHEMA_ORG_CONTEXT_URL.test(url.trim());
}

/** The offline loader: bundled contexts only; `calls` receives every URL asked for (a test's proof that nothing else was asked). */
export function offlineContextLoader(calls?: string[]): ContextLoader {
  return async (url: string) => {
    calls?.push(url);
    const context = isSchemaOrgContextUrl(url) ? SCHEMA_ORG_CONTEXT : WELL_KNOWN_TERMS;
    return { contextUrl: null, documentUrl: url, document: { "@context": context } };
  };
}
