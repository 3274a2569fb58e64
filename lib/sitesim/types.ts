/** Shared types of the site simulator. */
import type { HtmlSink } from "./html-sink";
import type { FormatName } from "./files";

/** The site families the simulator can build; see `SITE_SHAPES` for descriptions. */
export type SiteShape = "statistics-office" | "ministry-portal" | "open-data-portal" | "deep-sparse" | "news-heavy" | "research-repository"
  | "documentation-site" | "wiki" | "code-forge" | "family" | "ckan-portal" | "wordpress-site";

/**
 * Script-built sites (`scripted/`): their pages are empty shells whose scripts fetch JSON and
 * render the links, so only a crawler that runs the scripts reaches their files. Not in
 * `SITE_SHAPES` (a plain-HTML crawl of them finds no targets): `SCRIPTED_SHAPES` describes them.
 */
export type ScriptedShape = "scripted-listing" | "load-more" | "infinite-scroll" | "hostile-scripted" | "never-ending";

export type SiteSizeName = "tiny" | "small" | "medium" | "large";

/**
 * A named size (roughly 300 / 2 000 / 10 000 / 40 000 finite URLs, traps excluded)
 * or an approximate URL count (clamped to 100 – 200 000).
 */
export type SiteSize = SiteSizeName | number;

/** Everything a site is built from: same spec, byte-identical site. */
export interface SiteSpec {
  shape: SiteShape | ScriptedShape;
  /** Any integer; only its low 32 bits matter. */
  seed: number;
  size: SiteSize;
  /**
   * A failure case of an application shape (`SITE_VARIANTS` lists them per shape): e.g. a CKAN
   * under /data/ or a WordPress with its REST API disabled. Absent: the shape's standard site.
   */
  variant?: string;
  /**
   * `hostile-scripted` only: the URLs its scripts try to reach by every browser channel (fetch,
   * XHR, images, frames, WebSockets, a worker, beacons). Absent: `DEFAULT_FORBIDDEN_URLS`
   * (cloud metadata and private addresses); tests pass a canary server's URL instead.
   */
  forbiddenUrls?: readonly string[];
}

/** A file served by the site (target, image, feed…), generated on request. */
export interface FileRef {
  format: FormatName;
  bytes: number;
  /** Varies the body between files of the same format. */
  seed: number;
  /** Sent as Content-Disposition (extension-less download URLs do that). */
  filename?: string;
}

/**
 * What a path resolves to. Rendering is deferred so routing stays cheap. `origin` is
 * "http://HOST" of the request, or "" without a Host header (URLs then stay root-relative).
 */
export type Resource =
  | { kind: "page"; render: (sink: HtmlSink) => void; status?: 200 | 403 | 410; headers?: (origin: string) => Record<string, string> }
  /** An API answer: `body` is serialised with JSON.stringify (a string body is a JSON string, as CKAN's "Bad request"). */
  | { kind: "json"; status: number; contentType: string; body: (origin: string) => unknown; headers?: (origin: string) => Record<string, string> }
  /** A static text resource served as it is (a page's script): never a target, never parsed for links. */
  | { kind: "text"; contentType: string; body: string }
  | { kind: "file"; file: FileRef }
  | { kind: "redirect"; status: 301 | 302; location: string }
  | { kind: "missing" };

/** Parsed query string, keeping the order of keys (facet URLs depend on it). */
export class Query {
  readonly pairs: ReadonlyArray<readonly [string, string]>;

  constructor(raw: string) {
    const pairs: Array<[string, string]> = [];
    if (raw !== "") {
      for (const part of raw.split("&")) {
        if (part === "") continue;
        const eq = part.indexOf("=");
        const k = eq < 0 ? part : part.slice(0, eq);
        const v = eq < 0 ? "" : part.slice(eq + 1);
        pairs.push([safeDecode(k), safeDecode(v)]);
      }
    }
    this.pairs = pairs;
  }

  get(key: string): string | undefined {
    for (const [k, v] of this.pairs) if (k === key) return v;
    return undefined;
  }

  get size(): number {
    return this.pairs.length;
  }

  /** Positive integer parameter; `fallback` when absent; NaN when malformed. */
  int(key: string, fallback: number): number {
    const v = this.get(key);
    if (v === undefined) return fallback;
    return /^[1-9][0-9]{0,6}$/.test(v) ? Number(v) : Number.NaN;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    return s;
  }
}

/** A built shape: routes paths to resources. Implemented once per shape. */
export interface ShapeModel {
  readonly siteName: string;
  /** Path prefixes of the infinite part of the site (calendar, agenda). */
  readonly trapPrefixes: readonly string[];
  /** Path prefixes listed as `Disallow` for every user agent in robots.txt. */
  readonly disallow: readonly string[];
  route(path: string, query: Query): Resource;
  /** Body of the HTML 404 page (inside the site's frame). */
  notFound(sink: HtmlSink): void;
  /** Application shapes (CKAN, WordPress): what their API lists, for ground truth. */
  readonly application?: SimApplication;
}

/** One URL an application's file enumeration lists (a CKAN resource, a WordPress attachment). */
export interface ApiListedUrl {
  /** Path + query for in-site URLs, the absolute URL for other hosts. */
  url: string;
  onSite: boolean;
  /** A file the simulator serves as a target (CKAN "HTML"/"API" resources are not). */
  isFile: boolean;
}

/** The application behind an application shape, as its API presents it. */
export interface SimApplication {
  kind: "ckan" | "wordpress";
  variant: string;
  /** Where the application lives: "/" or "/data/". */
  base: string;
  /** "open": the API answers; "fails": it answers errors only; "disallowed": robots.txt forbids it. */
  api: "open" | "fails" | "disallowed";
  /** Records per page the shipped recipe asks for (CKAN rows=1000, WordPress per_page=100). */
  recipePageSize: number;
  /** Records (datasets, attachments) the enumeration walks, in API order. */
  recordCount: number;
  /** Every URL the enumeration lists, in API order (what it would list when `api` is not "open"). */
  listed(): ApiListedUrl[];
}
