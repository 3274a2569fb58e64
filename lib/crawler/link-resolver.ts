/** Turns a parsed page's raw links into resolved, deduplicated ExtractedLinks (links.ts). */
import { MAX_URL_CHARS } from "./defaults";
import { hrefResolver } from "./href-resolver";
import { cleanText, refreshUrl } from "./link-text";
import type { ExtractedLink, LinkTag, PageContext, PageLinks, ParsedPage, RawLink } from "./link-types";
import { encodeQueryFor } from "./query-encoding";
import { normalizeUrl, stripSessionIds } from "./url-rules";

/** Resolves a parsed page's raw links in document order (all `a`, then `area`, `frame`, `iframe`, `meta`). */
export class LinkResolver {
  /** Raw links in resolution order: each tag's list in turn. */
  private readonly lists: [LinkTag, RawLink[]][];
  private list = 0;
  private next = 0;
  private left: number;
  private readonly seen = new Set<string>();
  private readonly out: ExtractedLink[] = [];
  private readonly resolve: (href: string) => string | null;
  private readonly utf8Bytes: boolean;

  constructor(
    private readonly collector: ParsedPage,
    pageUrl: string,
    page: PageContext,
  ) {
    const { refreshHeader, encoding = "utf-8", utf8Bytes = false } = page;
    this.utf8Bytes = utf8Bytes;
    const headerRefresh = refreshHeader === undefined ? null : refreshUrl(refreshHeader);
    if (headerRefresh !== null && headerRefresh.length <= MAX_URL_CHARS) {
      collector.links.meta = [{ href: headerRefresh, tagPath: "/html/head/meta", text: "", tag: "meta" }];
    }
    let baseHref = pageUrl;
    if (collector.baseHref !== null) baseHref = normalizeUrl(encodeQueryFor(collector.baseHref, encoding), pageUrl) ?? pageUrl;
    // The base is parsed once per page, not once per link.
    let resolveHref: (href: string) => string | null;
    try {
      resolveHref = hrefResolver(new URL(baseHref));
    } catch {
      // An unparsable base: every link goes through normalizeUrl, which drops what cannot resolve.
      resolveHref = (href) => normalizeUrl(href, baseHref);
    }
    this.resolve = encoding === "utf-8" ? resolveHref : (href: string) => resolveHref(encodeQueryFor(href, encoding));
    this.lists = (["a", "area", "frame", "iframe", "meta"] as const).map((tag) => [tag, collector.links[tag]]);
    this.left = this.lists.reduce((sum, [, links]) => sum + links.length, 0);
  }

  /** Raw links not resolved yet. */
  get remaining(): number {
    return this.left;
  }

  /** Resolves raw links until `count` more are done or none is left. */
  resolveUpTo(count: number): void {
    for (let done = 0; done < count && this.left > 0; done++, this.left--) {
      let entry = this.lists[this.list]!;
      while (this.next >= entry[1].length) {
        entry = this.lists[++this.list]!;
        this.next = 0;
      }
      const tag = entry[0];
      const link = entry[1][this.next++]!;
      const resolved = this.resolve(link.href);
      if (resolved === null) continue;
      const url = stripSessionIds(resolved);
      if (url.length > MAX_URL_CHARS) {
        this.collector.limits.urlsTooLong++;
        continue;
      }
      if (this.seen.has(url)) continue;
      this.seen.add(url);
      this.out.push({ url, tagPath: link.tagPath, anchorText: cleanText(link.text, this.utf8Bytes && tag === "a"), tag });
    }
  }

  result(): PageLinks {
    return { links: this.out, limits: this.collector.limits };
  }
}
