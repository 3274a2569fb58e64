/** `[url, ETag, Last-Modified]` of each page that sent a validator, as a run last saw it. */
export type PageValidatorsState = [url: string, etag: string | null, lastModified: string | null][];

/** Pages whose validators are kept, at most (URLs are kept whole: a conditional request needs the exact strings). */
export const MAX_PAGE_VALIDATORS = 100_000;

/**
 * The validators (ETag, Last-Modified) the pages of a site answered with, kept from run to run:
 * a re-crawl revisits such a page with a conditional GET, and a 304 says it is unchanged at the
 * cost of a request without a body. Pages that send none are not kept. Bounded by
 * {@link MAX_PAGE_VALIDATORS}: past it, pages not kept before are not added.
 */
export class PageValidators {
  private readonly entries = new Map<string, [etag: string | null, lastModified: string | null]>();

  constructor(
    previous: PageValidatorsState | null | undefined,
    private readonly limit = MAX_PAGE_VALIDATORS,
  ) {
    for (const [url, etag, lastModified] of previous ?? []) this.entries.set(url, [etag, lastModified]);
  }

  /** Records a page's 2xx answer headers (lower-case names): its validators, or that it has none now. */
  note(url: string, headers: Readonly<Record<string, string | undefined>>): void {
    const etag = headers.etag ?? null;
    const lastModified = headers["last-modified"] ?? null;
    if (etag === null && lastModified === null) {
      this.entries.delete(url);
      return;
    }
    if (this.entries.has(url) || this.entries.size < this.limit) this.entries.set(url, [etag, lastModified]);
  }

  /** The conditional headers for a page's revisit; null when it sent no validator. */
  conditionalHeaders(url: string): Record<string, string> | null {
    const entry = this.entries.get(url);
    if (!entry) return null;
    const headers: Record<string, string> = {};
    if (entry[0] !== null) headers["if-none-match"] = entry[0];
    if (entry[1] !== null) headers["if-modified-since"] = entry[1];
    return headers;
  }

  get size(): number {
    return this.entries.size;
  }

  toState(): PageValidatorsState {
    return [...this.entries].map(([url, [etag, lastModified]]) => [url, etag, lastModified]);
  }
}
