/** Shared types of the site simulator. */
import type { HtmlSink } from "./html-sink";
import type { FormatName } from "./files";

/** The site families the simulator can build; see `SITE_SHAPES` for descriptions. */
export type SiteShape = "statistics-office" | "ministry-portal" | "open-data-portal" | "deep-sparse" | "news-heavy" | "research-repository"
  | "documentation-site" | "wiki" | "code-forge" | "family";

export type SiteSizeName = "tiny" | "small" | "medium" | "large";

/**
 * A named size (roughly 300 / 2 000 / 10 000 / 40 000 finite URLs, traps excluded)
 * or an approximate URL count (clamped to 100 – 200 000).
 */
export type SiteSize = SiteSizeName | number;

/** Everything a site is built from: same spec, byte-identical site. */
export interface SiteSpec {
  shape: SiteShape;
  /** Any integer; only its low 32 bits matter. */
  seed: number;
  size: SiteSize;
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

/** What a path resolves to. Rendering is deferred so routing stays cheap. */
export type Resource =
  | { kind: "page"; render: (sink: HtmlSink) => void; status?: 200 | 403 }
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
}
