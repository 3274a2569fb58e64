/** The types shared by link extraction (links.ts) and link resolution (link-resolver.ts). */

/** `meta`: the URL of a `<meta http-equiv="refresh">` (a Forage addition, see `extractLinks`). */
export type LinkTag = "a" | "area" | "frame" | "iframe" | "meta";

/** What else than its HTML and URL tells a page's links. */
export interface PageContext {
  /** The response's `Refresh` header, followed like a `<meta>` refresh. */
  readonly refreshHeader?: string;
  /** WHATWG name of the page's encoding (html-decoding.ts): queries are percent-encoded in it. @default "utf-8" */
  readonly encoding?: string;
  /** The HTML is a UTF-8 page's bytes, one char each (html-decoding.ts, `DecodedHtml.utf8Bytes`). @default false */
  readonly utf8Bytes?: boolean;
  /**
   * Replace per-page numbers and hashes in classes and ids of tag paths (`postid-123` →
   * `postid-N`; tag-path-classes.ts). @default false (tag paths exactly as ALGORITHM.md defines them)
   */
  readonly stableClassNames?: boolean;
}

/** One outgoing link of a page. */
export interface ExtractedLink {
  /** Absolute http(s) URL, normalised by `normalizeUrl`, without fragment. */
  readonly url: string;
  /** `/html/body/div.container#main/ul.menu/li/a.btn primary` */
  readonly tagPath: string;
  /** Whitespace-collapsed text of the `a` (`alt` of an `area`, `title` of a frame, "" for a refresh), ≤ 120 chars. */
  readonly anchorText: string;
  readonly tag: LinkTag;
}

/** What the page limits (defaults.ts `PAGE_LIMITS`, `MAX_URL_CHARS`) cut from one page; all zero on honest pages. */
export interface PageLimitCounts {
  /** Links past `maxLinksPerPage`, not read. */
  linksOverLimit: number;
  /** href / src / refresh values over `MAX_URL_CHARS`, dropped. */
  urlsTooLong: number;
  /** Start tags met with `maxElementDepth` elements open (not tracked: their links' paths stop there). */
  elementsTooDeep: number;
  /** Searches for an element to close cut short once the page spent `maxStackScanSteps`. */
  scansCut: number;
  /** Tag paths and attributes cut to `maxTagPathChars` / `maxAttributeChars`. */
  valuesCut: number;
}

/** The links of a page and what the page limits cut. */
export interface PageLinks {
  readonly links: ExtractedLink[];
  readonly limits: PageLimitCounts;
}

/** A link as the tokenizer saw it, before resolution. */
export type RawLink = { readonly href: string; readonly tagPath: string; text: string; readonly tag: LinkTag };

/** What the parse of a page hands to the resolver. */
export interface ParsedPage {
  readonly links: Record<LinkTag, RawLink[]>;
  /** The first `<base href>`, if any. */
  readonly baseHref: string | null;
  readonly limits: PageLimitCounts;
}
