/**
 * Building a simulated site and answering requests, with no I/O: `respond()` is what
 * the HTTP server sends, and tests can call it directly.
 */
import { fileBody, fileContentType } from "./files";
import { computeGroundTruth, type GroundTruth } from "./ground-truth";
import { HtmlSink } from "./html-sink";
import { buildScriptedModel, isScriptedShape } from "./scripted/model";
import { buildShape, checkVariant, SITE_SHAPES } from "./shapes/registry";
import { sizeToUrlCount } from "./sizes";
import { Query, type Resource, type ShapeModel, type SimApplication, type SiteSpec } from "./types";

/** Request headers respond() looks at. */
export interface SimRequestHeaders {
  /** Host header: absolute in-site links and redirect Locations use it; without it they are root-relative. */
  host?: string;
}

export interface SimResponse {
  status: number;
  /** Lower-case header names. `content-length` is always the GET body length, also for HEAD. */
  headers: Record<string, string>;
  /** Empty for HEAD. */
  body: Buffer;
}

export interface SimulatedSite {
  readonly spec: SiteSpec;
  readonly siteName: string;
  /** Served at /robots.txt. */
  readonly robotsTxt: string;
  /** Path prefixes disallowed for every user agent. */
  readonly disallow: readonly string[];
  /** Path prefixes of the infinite part of the site (calendar trap). */
  readonly trapPrefixes: readonly string[];
  /** What GET or HEAD of `pathAndQuery` ("/a/b?c=d", fragment ignored) returns. */
  respond(method: "GET" | "HEAD", pathAndQuery: string, headers?: SimRequestHeaders): SimResponse;
  /** Routing only, no rendering. */
  resolve(pathAndQuery: string): Resource;
  /**
   * In-site links of a 2xx HTML page as path + query keys (fragment removed, duplicates
   * kept), in crawler extraction order; null when the URL is not a 2xx HTML page.
   */
  links(pathAndQuery: string): string[] | null;
  /** Computed on first call (a BFS over the link graph, no HTTP), then cached. */
  groundTruth(): GroundTruth;
  /** The application of an application shape (ckan-portal, wordpress-site); see `applicationTruth()`. */
  readonly application?: SimApplication;
}

function splitKey(pathAndQuery: string): { path: string; query: string } {
  let s = pathAndQuery;
  const hash = s.indexOf("#");
  if (hash >= 0) s = s.slice(0, hash);
  if (/^https?:\/\//i.test(s)) {
    const u = new URL(s);
    s = u.pathname + u.search;
  }
  const q = s.indexOf("?");
  return q < 0 ? { path: s, query: "" } : { path: s.slice(0, q), query: s.slice(q + 1) };
}

const HTML_TYPE = "text/html; charset=utf-8";

/** Builds a site from its spec. Pure and fast: pages are generated on request. */
export function buildSite(spec: SiteSpec): SimulatedSite {
  if (isScriptedShape(spec.shape)) {
    if (!Number.isInteger(spec.seed)) throw new RangeError(`site seed must be an integer, got ${spec.seed}`);
    checkVariant(spec.shape, spec.variant);
    return siteFromModel(spec, buildScriptedModel(spec.shape, spec.seed >>> 0, spec.forbiddenUrls));
  }
  if (!(spec.shape in SITE_SHAPES)) throw new RangeError(`unknown site shape "${spec.shape}" (${Object.keys(SITE_SHAPES).join(", ")})`);
  if (!Number.isInteger(spec.seed)) throw new RangeError(`site seed must be an integer, got ${spec.seed}`);
  checkVariant(spec.shape, spec.variant);
  return siteFromModel(spec, buildShape(spec.shape, spec.seed >>> 0, sizeToUrlCount(spec.size), spec.variant));
}

/**
 * A site answering from an already built shape model: for models built from parameters written
 * by hand (a named case of the site family). `spec` names it in descriptions and sizes the BFS cap.
 */
export function siteFromModel(spec: SiteSpec, shape: ShapeModel): SimulatedSite {
  const frozen: SiteSpec = Object.freeze({ ...spec });
  const robotsTxt =
    // An empty "Disallow:" when nothing is: a group without rules would merge with BadBot's (RFC 9309 groups consecutive user-agent lines).
    "User-agent: *\n" + (shape.disallow.length > 0 ? shape.disallow.map((d) => `Disallow: ${d}\n`).join("") : "Disallow:\n") + "\nUser-agent: BadBot\nDisallow: /\n";
  let truth: GroundTruth | null = null;

  function resolve(pathAndQuery: string): Resource {
    const { path, query } = splitKey(pathAndQuery);
    if (!path.startsWith("/")) return { kind: "missing" };
    return shape.route(path, new Query(query));
  }

  function html(status: number, render: (s: HtmlSink) => void, key: string, host: string | null, head: boolean, extra: Record<string, string> = {}): SimResponse {
    const sink = new HtmlSink("html", key, host);
    render(sink);
    const body = Buffer.from(sink.html(), "utf8");
    return { status, headers: { ...extra, "content-type": HTML_TYPE, "content-length": String(body.length) }, body: head ? Buffer.alloc(0) : body };
  }

  function respond(method: "GET" | "HEAD", pathAndQuery: string, headers: SimRequestHeaders = {}): SimResponse {
    const head = method === "HEAD";
    const host = headers.host ?? null;
    const { path, query } = splitKey(pathAndQuery);
    const key = query === "" ? path : `${path}?${query}`;
    if (path === "/robots.txt") {
      const body = Buffer.from(robotsTxt, "utf8");
      return { status: 200, headers: { "content-type": "text/plain; charset=utf-8", "content-length": String(body.length) }, body: head ? Buffer.alloc(0) : body };
    }
    const res = resolve(key);
    const origin = host === null ? "" : `http://${host}`;
    switch (res.kind) {
      case "page":
        return html(res.status ?? 200, res.render, key, host, head, res.headers?.(origin));
      case "json": {
        const body = Buffer.from(JSON.stringify(res.body(origin)), "utf8");
        const h = { ...res.headers?.(origin), "content-type": res.contentType, "content-length": String(body.length) };
        return { status: res.status, headers: h, body: head ? Buffer.alloc(0) : body };
      }
      case "missing":
        return html(404, shape.notFound, key, host, head);
      case "redirect": {
        const location = host !== null && res.location.startsWith("/") ? `http://${host}${res.location}` : res.location;
        const body = Buffer.from(`<!DOCTYPE html><html><head><title>Moved</title></head><body><a href="${location}">Moved here</a></body></html>\n`);
        return {
          status: res.status,
          headers: { location, "content-type": HTML_TYPE, "content-length": String(body.length) },
          body: head ? Buffer.alloc(0) : body,
        };
      }
      case "text": {
        const body = Buffer.from(res.body, "utf8");
        return { status: 200, headers: { "content-type": res.contentType, "content-length": String(body.length) }, body: head ? Buffer.alloc(0) : body };
      }
      case "file": {
        const h: Record<string, string> = { "content-type": fileContentType(res.file), "content-length": String(res.file.bytes) };
        if (res.file.filename) h["content-disposition"] = `attachment; filename="${res.file.filename}"`;
        return { status: 200, headers: h, body: head ? Buffer.alloc(0) : fileBody(res.file) };
      }
    }
  }

  function links(pathAndQuery: string): string[] | null {
    const { path, query } = splitKey(pathAndQuery);
    const key = query === "" ? path : `${path}?${query}`;
    const res = resolve(key);
    if (res.kind !== "page" || (res.status ?? 200) !== 200) return null;
    const sink = new HtmlSink("links", key);
    res.render(sink);
    return sink.allLinks();
  }

  const site: SimulatedSite = {
    spec: frozen,
    siteName: shape.siteName,
    robotsTxt,
    disallow: shape.disallow,
    trapPrefixes: shape.trapPrefixes,
    respond,
    resolve,
    links,
    groundTruth: () => (truth ??= computeGroundTruth(site, shape)),
    ...(shape.application ? { application: shape.application } : {}),
  };
  return site;
}
