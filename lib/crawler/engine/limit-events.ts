import { MAX_URL_CHARS, PAGE_LIMITS } from "../defaults";
import type { FetchResult } from "../fetch/types";
import type { PageLimitCounts } from "../links";
import type { CrawlSink } from "./types";

/** Failures that only a broken or hostile server causes: each gets an event besides its request row. */
const HOSTILE_CODES: Readonly<Record<string, string>> = {
  "deadline-exceeded": "did not finish within the request deadline (requestDeadlineMs)",
  "decompression-bomb": "was a decompression bomb",
  "too-many-codings": "stacked too many content codings",
  "url-too-long": "has a URL over the length limit",
  "too-large": "was over the size limit",
};

/** Events of one kind reported per crawl; further ones only have their request rows. */
const EVENTS_PER_KIND = 10;

/**
 * The events that tell a user why a hostile page or response was cut short (the request log has
 * the same reason per request): responses ended by a limit, pages whose links were bounded, a
 * full seen set, redirect loops and chains. At most {@link EVENTS_PER_KIND} of a kind per crawl,
 * so that a site of a million too-large files does not flood the event log.
 */
export class LimitEvents {
  private readonly counts = new Map<string, number>();

  constructor(private readonly sink: CrawlSink) {}

  /** A request that ended on a hostile-server limit (deadline, bomb, codings, URL, size). */
  response(result: FetchResult): void {
    const code = result.error?.code;
    const what = code === undefined ? undefined : HOSTILE_CODES[code];
    if (what === undefined || !this.due(code!)) return;
    this.sink.event({
      level: "warn",
      kind: `response-${code}`,
      message: `${result.method} ${shortUrl(result.url)} ${what}: ${result.error!.message}`,
      data: { url: shortUrl(result.url), code, message: result.error!.message },
    });
  }

  /** A page some of whose links or structure the page limits cut. */
  page(url: string, limits: PageLimitCounts): void {
    const parts: string[] = [];
    if (limits.linksOverLimit > 0) parts.push(`${limits.linksOverLimit} links past the first ${PAGE_LIMITS.maxLinksPerPage} ignored`);
    if (limits.urlsTooLong > 0) parts.push(`${limits.urlsTooLong} URLs over ${MAX_URL_CHARS} characters dropped`);
    if (limits.elementsTooDeep > 0) parts.push(`${limits.elementsTooDeep} elements nested deeper than ${PAGE_LIMITS.maxElementDepth} not tracked (their links kept, paths cut there)`);
    if (limits.scansCut > 0) parts.push(`${limits.scansCut} searches for an element to close cut short (the page spent ${PAGE_LIMITS.maxStackScanSteps} steps)`);
    if (limits.valuesCut > 0) parts.push(`${limits.valuesCut} tag paths or attributes cut to ${PAGE_LIMITS.maxTagPathChars} / ${PAGE_LIMITS.maxAttributeChars} characters`);
    if (parts.length === 0 || !this.due("page-limits")) return;
    this.sink.event({ level: "warn", kind: "page-limits", message: `Page ${shortUrl(url)} hit the page limits: ${parts.join("; ")}`, data: { url: shortUrl(url), ...limits } });
  }

  /** The seen set is full: reported once. */
  seenSetFull(maxSeen: number): void {
    if (!this.due("seen-set-full", 1)) return;
    this.sink.event({
      level: "warn",
      kind: "seen-set-full",
      message: `The crawl has seen ${maxSeen} URLs (maxSeenUrls): new links on pages are ignored from now on; the crawl goes on with the links it holds`,
      data: { maxSeen },
    });
  }

  /** A sitemap file over the protocol's limits: read up to them. */
  sitemapCut(url: string, maxUrls: number, maxBytes: number): void {
    if (!this.due("sitemap-cut")) return;
    this.sink.event({
      level: "info",
      kind: "sitemap-cut",
      message: `The sitemap ${url} is over the protocol's limits (${maxUrls} URLs, ${maxBytes} bytes): it was read up to them`,
      data: { url },
    });
  }

    /** A redirect chain the engine stopped following. */
  redirectStopped(kind: "redirect-loop" | "redirect-limit", from: string, to: string, hops: number): void {
    if (!this.due(kind)) return;
    const message =
      kind === "redirect-loop"
        ? `Redirect loop: ${shortUrl(from)} leads back to ${shortUrl(to)} after ${hops} hops; not followed further`
        : `Redirect chain from ${shortUrl(from)} stopped after ${hops} hops (maxRedirects); next was ${shortUrl(to)}`;
    this.sink.event({ level: "warn", kind, message, data: { from: shortUrl(from), to: shortUrl(to), hops } });
  }

  /** The disk quota stopped the crawl. */
  diskQuota(message: string): void {
    if (!this.due("disk-quota-reached", 1)) return;
    this.sink.event({ level: "warn", kind: "disk-quota-reached", message: `The crawl stops: ${message}` });
  }

  private due(kind: string, limit = EVENTS_PER_KIND): boolean {
    const count = this.counts.get(kind) ?? 0;
    if (count >= limit) return false;
    this.counts.set(kind, count + 1);
    return true;
  }
}

/** URLs in events are cut to 300 characters: a 200 000-character URL must not ride along. */
function shortUrl(url: string): string {
  return url.length <= 300 ? url : `${url.slice(0, 300)}… (${url.length} characters)`;
}
