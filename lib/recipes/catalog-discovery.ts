import { Parser } from "htmlparser2";
import { absoluteHttpUrl } from "./catalog-url";

/**
 * Where a site's DCAT catalog is: the catalogs a page advertises (`<link rel="alternate">` in its
 * head, `Link` headers), else one well-known path. ckanext-dcat advertises its catalog endpoints
 * on the portal's home page (`/catalog.n3`, `.ttl`, `.xml`, `.jsonld`); DCAT-US catalogs live at
 * `/data.json` by rule and are seldom advertised.
 */
export type CatalogFormat = "dcat-us-json" | "json-ld" | "turtle" | "n3" | "rdf-xml";

export interface CatalogLocation {
  url: string;
  format: CatalogFormat;
  /** How it was found: a `<link>` element, a `Link` header, or a guessed well-known path. */
  from: "link-element" | "link-header" | "well-known";
}

/** Link types that name a catalog serialisation (ckanext-dcat writes `text/ttl` for Turtle). */
const FORMAT_OF_TYPE: ReadonlyMap<string, CatalogFormat> = new Map([
  ["application/rdf+xml", "rdf-xml"],
  ["text/turtle", "turtle"],
  ["text/ttl", "turtle"],
  ["application/x-turtle", "turtle"],
  ["text/n3", "n3"],
  ["text/rdf+n3", "n3"],
  ["application/ld+json", "json-ld"],
]);

/** The catalog format a link type names; `application/json` only for a DCAT-US `data.json`, since most JSON links are feeds or APIs. */
export function catalogFormatOfLink(type: string, url: string): CatalogFormat | undefined {
  const essence = type.split(";")[0]!.trim().toLowerCase();
  if (essence === "application/json") return /\/data\.json$/i.test(new URL(url).pathname) ? "dcat-us-json" : undefined;
  return FORMAT_OF_TYPE.get(essence);
}

const MAX_HEAD_CHARS = 256 * 1024;
const MAX_ADVERTISED = 20;

/**
 * The catalogs a page advertises, in the page's order (headers first), without duplicates:
 * `rel="alternate"` links of a catalog type. Reads the head only (up to `<body>` or 256 KiB).
 * A dataset page's alternates (ckanext-dcat's `/dataset/x.rdf`) are catalogs of one dataset and
 * are returned as well; the engine may prefer the site-wide one.
 */
export function advertisedCatalogs(html: string, pageUrl: string, headers: Iterable<[string, string]> = []): CatalogLocation[] {
  const found: CatalogLocation[] = [];
  const seen = new Set<string>();
  const add = (href: string, type: string, from: CatalogLocation["from"]): void => {
    if (found.length >= MAX_ADVERTISED) return;
    const url = absoluteHttpUrl(href, pageUrl);
    if (!url || seen.has(url)) return;
    const format = catalogFormatOfLink(type, url);
    if (!format) return;
    seen.add(url);
    found.push({ url, format, from });
  };
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== "link") continue;
    for (const link of linkHeaderLinks(value)) if (link.rels.includes("alternate") && link.type) add(link.target, link.type, "link-header");
  }
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "body") {
          parser.pause();
          return;
        }
        if (name !== "link" || !attributes.href || !attributes.type) return;
        const rels = (attributes.rel ?? "").toLowerCase().split(/\s+/);
        if (rels.includes("alternate")) add(attributes.href, attributes.type, "link-element");
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.end(html.length > MAX_HEAD_CHARS ? html.slice(0, MAX_HEAD_CHARS) : html);
  return found;
}

/** `<…>; rel="alternate"; type="text/turtle", <…>; …` → each link's target, rel values and type. */
function linkHeaderLinks(value: string): Array<{ target: string; rels: string[]; type?: string }> {
  const links: Array<{ target: string; rels: string[]; type?: string }> = [];
  for (const match of value.slice(0, 16 * 1024).matchAll(/<([^>]*)>([^<]*)/g)) {
    const parameters = match[2]!;
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(parameters);
    const type = /;\s*type\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(parameters);
    links.push({ target: match[1]!, rels: (rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/).filter(Boolean), type: type?.[1] ?? type?.[2] });
    if (links.length >= MAX_ADVERTISED) break;
  }
  return links;
}

/**
 * The well-known catalog paths, most likely first: DCAT-US's `/data.json` (Project Open Data
 * requires it there; DKAN, Socrata and ckanext-datajson serve it), then ckanext-dcat's catalog
 * endpoints (also `/catalog.rdf`, which it serves as RDF/XML too).
 */
export const WELL_KNOWN_CATALOG_PATHS: ReadonlyArray<{ path: string; format: CatalogFormat }> = [
  { path: "/data.json", format: "dcat-us-json" },
  { path: "/catalog.ttl", format: "turtle" },
  { path: "/catalog.jsonld", format: "json-ld" },
  { path: "/catalog.xml", format: "rdf-xml" },
  { path: "/catalog.rdf", format: "rdf-xml" },
  { path: "/catalog.n3", format: "n3" },
];

/** Every well-known catalog location of the site `siteUrl` belongs to, in the order of `WELL_KNOWN_CATALOG_PATHS`. */
export function wellKnownCatalogs(siteUrl: string): CatalogLocation[] {
  return WELL_KNOWN_CATALOG_PATHS.flatMap(({ path, format }) => {
    const url = absoluteHttpUrl(path, siteUrl);
    return url ? [{ url, format, from: "well-known" as const }] : [];
  });
}

/**
 * The one catalog a crawl tries when its pages advertise none: `/data.json`. ckanext-dcat, the
 * other common publisher, advertises its endpoints in the home page's head, so a CKAN site is
 * found without guessing; a DCAT-US catalog is where the standard puts it and nowhere else said.
 * One guess costs one request per site (usually a 404), never six.
 */
export function guessedCatalog(siteUrl: string): CatalogLocation | undefined {
  return wellKnownCatalogs(siteUrl)[0];
}

/** The catalogs to read for a page: those it advertises, else the one guess. */
export function catalogsToTry(html: string, pageUrl: string, headers: Iterable<[string, string]> = []): CatalogLocation[] {
  const advertised = advertisedCatalogs(html, pageUrl, headers);
  if (advertised.length > 0) return advertised;
  const guess = guessedCatalog(pageUrl);
  return guess ? [guess] : [];
}
