/**
 * Link extraction that never holds the event loop for long. The tokenizer is synchronous: a 10 MB
 * page, or a page built to be slow (hundreds of thousands of nested elements and stray end tags),
 * parsed in one call would freeze every other crawl of the worker, its lease heartbeat, its
 * controls and the politeness clocks. Here the page is fed in slices and the parse yields to the
 * event loop (setImmediate, so due timers run first) whenever it has worked for
 * {@link YIELD_AFTER_MS}; resolving the links yields the same way. Pages of an honest size
 * (≤ one slice, a few thousand links) never yield and cost nothing extra.
 */
import { PageLinkParser, type PageContext, type PageLinks } from "./links";
import { createYieldPoint } from "./yield-point";

/** HTML characters tokenized in one step (≈ 0.1 ms on an ordinary page, a few ms on the worst). */
export const PARSE_SLICE_CHARS = 16 * 1024;
/** Links resolved in one step (≈ 2 ms at most). */
const RESOLVE_SLICE_LINKS = 500;
/** Work done between two yields to the event loop. */
export const YIELD_AFTER_MS = 10;

/** `extractPageLinks`, yielding to the event loop every {@link YIELD_AFTER_MS} of work; same result. */
export async function extractPageLinksAsync(
  html: string,
  pageUrl: string,
  page: PageContext = {},
  sliceChars: number = PARSE_SLICE_CHARS,
): Promise<PageLinks> {
  const pause = createYieldPoint(YIELD_AFTER_MS);
  const parser = new PageLinkParser(html, pageUrl, page);
  for (let start = 0; start < html.length; start += sliceChars) {
    parser.write(start, Math.min(html.length, start + sliceChars));
    const turn = pause();
    if (turn) await turn;
  }
  const resolver = parser.end();
  while (resolver.remaining > 0) {
    resolver.resolveUpTo(RESOLVE_SLICE_LINKS);
    const turn = pause();
    if (turn) await turn;
  }
  return resolver.result();
}
