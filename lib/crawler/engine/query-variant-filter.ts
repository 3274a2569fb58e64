/**
 * Learns which query parameters only re-present a page (`?print=1`, `?view=compact`,
 * `?sort=asc` on a page whose list is short), and skips links that add nothing but those to a
 * page the crawl already knows. Such a variant costs a request, gives the targets of its page a
 * second time, and, while the bandit's groups all score 0, its link group takes a turn in every
 * round of exploration (what skipping them saves: docs/BENCHMARKS.md).
 *
 * How it learns. A page that links a *variant* of its own URL (same path, its own query pairs
 * plus at least one more) keeps its link set until that variant is crawled. When it is, the
 * variant's links are compared with the page's: if at most 1 in {@link MAX_NEW_LINK_SHARE_INV} is
 * new, each added pair (`print=1`, exactly as written) gets a confirmation; otherwise it is
 * marked as changing the page, for good. A pair confirmed on {@link CONFIRMATIONS} different
 * paths before any contradiction is *redundant*, for good too: a later link whose URL, without its
 * redundant pairs, is already known is not crawled (and since such links are no longer crawled,
 * no later variant could contradict it). A link whose page without the pair is unknown is still
 * crawled, so nothing becomes unreachable. Different paths, because what holds on one listing
 * need not hold on another page of it: `/datasets?tag=a` may add nothing to a short `/datasets`,
 * yet `/datasets?page=3&tag=a` lists other datasets than `/datasets?page=3`. Only links are
 * compared, not text: a crawl for files needs the links of a page, and a variant that only
 * reflows the text adds none.
 *
 * Memory is bounded: a waiting variant keeps its page's links as 32-bit hashes (a collision could
 * only hide one new link), at most {@link MAX_PENDING} variants wait (the oldest is forgotten
 * first), those whose pairs are all judged are forgotten at once, and a judged pair is one short
 * string.
 */
import { fnv1a32 } from "../path-segment-stats";

export const CONFIRMATIONS = 2;
/** A variant "adds nothing" when at most 1 of this many of its links is not on its page (2 %). */
export const MAX_NEW_LINK_SHARE_INV = 50;
export const MAX_PENDING = 1000;

/**
 * Plain JSON state: each judged pair with the paths that confirmed it and whether a variant
 * contradicted it, and the variants waiting for comparison, oldest first, with their page's link
 * hashes.
 */
export interface QueryVariantFilterState {
  readonly pairs: [pair: string, confirmedOnPaths: string[], changesPage: boolean][];
  readonly pending: [variantUrl: string, pageUrl: string, pageLinkHashes: number[], addedPairs: string[]][];
}

interface Verdict {
  /** Paths (URLs without their query) of the pages whose variants confirmed the pair. */
  confirmedOnPaths: string[];
  changesPage: boolean;
}

interface PendingVariant {
  /** The URL of the page that links the variant. */
  readonly pageUrl: string;
  /** That page's links, hashed ({@link fnv1a32}). */
  readonly pageLinks: ReadonlySet<number>;
  /** The query pairs the variant adds to the page's URL. */
  readonly addedPairs: readonly string[];
}

export class QueryVariantFilter {
  private readonly verdicts = new Map<string, Verdict>();
  private readonly redundant = new Set<string>();
  /** Variants waiting to be crawled, by URL, in the order they were found. */
  private readonly pending = new Map<string, PendingVariant>();

  /**
   * True when `url` only adds redundant pairs to a URL that `isKnown` (seen by the crawl): that
   * link is not worth a request.
   */
  isRedundant(url: string, isKnown: (url: string) => boolean): boolean {
    if (this.redundant.size === 0) return false;
    const q = url.indexOf("?");
    if (q < 0) return false;
    const pairs = splitQuery(url, q);
    const kept = pairs.filter((pair) => !this.redundant.has(pair));
    if (kept.length === pairs.length) return false;
    return isKnown(kept.length > 0 ? `${url.slice(0, q + 1)}${kept.join("&")}` : url.slice(0, q));
  }

  /**
   * A crawled page: `requestedUrl` is the link that was pulled, `pageUrl` where the page answered
   * (after redirects) and `links` every link extracted from it (normalised URLs). Judges the page
   * if it is a variant waiting for comparison, and keeps its links if it links variants of itself
   * whose pairs are not judged yet. Returns the pairs that just became redundant.
   */
  notePage(requestedUrl: string, pageUrl: string, links: readonly string[]): string[] {
    const madeRedundant: string[] = [];
    const waiting = this.pending.get(requestedUrl);
    if (waiting) {
      this.pending.delete(requestedUrl);
      const addsNothing = addsNothingNew(waiting, requestedUrl, links);
      let judged = false;
      for (const pair of waiting.addedPairs) {
        const verdict = this.judge(pair, addsNothing, waiting.pageUrl);
        if (verdict === "redundant") madeRedundant.push(pair);
        if (verdict !== null) judged = true;
      }
      if (judged) this.forgetJudgedVariants();
    }
    this.keepForVariants(pageUrl, links);
    return madeRedundant;
  }

  /** The pairs judged redundant so far. */
  get redundantPairs(): readonly string[] {
    return [...this.redundant];
  }

  toState(): QueryVariantFilterState {
    return {
      pairs: [...this.verdicts].map(([pair, v]) => [pair, [...v.confirmedOnPaths], v.changesPage]),
      pending: [...this.pending].map(([url, w]) => [url, w.pageUrl, [...w.pageLinks], [...w.addedPairs]]),
    };
  }

  static fromState(state: QueryVariantFilterState): QueryVariantFilter {
    const filter = new QueryVariantFilter();
    if (!state || !Array.isArray(state.pairs) || !Array.isArray(state.pending)) throw new TypeError("Invalid query-variant state: no pairs or pending variants");
    for (const [pair, confirmedOnPaths, changesPage] of state.pairs) {
      if (!Array.isArray(confirmedOnPaths)) throw new TypeError(`Invalid query-variant state: pair ${pair}`);
      filter.verdicts.set(pair, { confirmedOnPaths: [...confirmedOnPaths], changesPage });
      if (!changesPage && confirmedOnPaths.length >= CONFIRMATIONS) filter.redundant.add(pair);
    }
    for (const [url, pageUrl, pageLinks, addedPairs] of state.pending) filter.pending.set(url, { pageUrl, pageLinks: new Set(pageLinks), addedPairs });
    return filter;
  }

  /** Counts one comparison for `pair` on the page `pageUrl`; returns the verdict it reached, if any. */
  private judge(pair: string, addsNothing: boolean, pageUrl: string): "redundant" | "changes-page" | null {
    const verdict = this.verdicts.get(pair) ?? { confirmedOnPaths: [], changesPage: false };
    this.verdicts.set(pair, verdict);
    if (this.isJudged(pair)) return null;
    if (!addsNothing) {
      verdict.changesPage = true;
      return "changes-page";
    }
    const path = withoutQuery(pageUrl);
    if (verdict.confirmedOnPaths.includes(path)) return null;
    verdict.confirmedOnPaths.push(path);
    if (verdict.confirmedOnPaths.length < CONFIRMATIONS) return null;
    this.redundant.add(pair);
    return "redundant";
  }

  private isJudged(pair: string): boolean {
    const verdict = this.verdicts.get(pair);
    return verdict !== undefined && (verdict.changesPage || verdict.confirmedOnPaths.length >= CONFIRMATIONS);
  }

  private forgetJudgedVariants(): void {
    for (const [url, variant] of this.pending) if (variant.addedPairs.every((pair) => this.isJudged(pair))) this.pending.delete(url);
  }

  /** Files every link of the page that is a variant of it with a pair still to judge. */
  private keepForVariants(pageUrl: string, links: readonly string[]): void {
    const path = withoutQuery(pageUrl);
    const pagePairs = path.length < pageUrl.length ? splitQuery(pageUrl, path.length) : [];
    let pageLinks: Set<number> | null = null;
    for (const url of links) {
      if (url.length <= path.length + 1 || url.charCodeAt(path.length) !== QUESTION_MARK || !url.startsWith(path)) continue;
      if (this.pending.has(url)) continue;
      const addedPairs = pairsAdded(pagePairs, splitQuery(url, path.length));
      if (!addedPairs || addedPairs.every((pair) => this.isJudged(pair))) continue;
      pageLinks ??= new Set(links.map(fnv1a32));
      if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value!);
      this.pending.set(url, { pageUrl, pageLinks, addedPairs });
    }
  }
}

const QUESTION_MARK = 0x3f;

function withoutQuery(url: string): string {
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

/** The query pairs of `url`, whose `?` is at `q`; empty pairs (`a=1&&b=2`) dropped. */
function splitQuery(url: string, q: number): string[] {
  const hash = url.indexOf("#", q);
  return url.slice(q + 1, hash < 0 ? url.length : hash).split("&").filter((pair) => pair !== "");
}

/** The pairs of `variant` that are not in `page` (as a multiset), or null when `variant` lacks one of `page`'s pairs. */
function pairsAdded(page: readonly string[], variant: readonly string[]): string[] | null {
  const rest = variant.slice();
  for (const pair of page) {
    const at = rest.indexOf(pair);
    if (at < 0) return null;
    rest.splice(at, 1);
  }
  return rest.length > 0 ? rest : null;
}

/** True when at most 1 in {@link MAX_NEW_LINK_SHARE_INV} of the variant's links is missing from its page. */
function addsNothingNew(waiting: PendingVariant, variantUrl: string, links: readonly string[]): boolean {
  const pageHash = fnv1a32(waiting.pageUrl);
  const variantHash = fnv1a32(variantUrl);
  let counted = 0;
  let fresh = 0;
  for (const url of links) {
    const hash = fnv1a32(url);
    if (hash === pageHash || hash === variantHash) continue;
    counted += 1;
    if (!waiting.pageLinks.has(hash)) fresh += 1;
  }
  return fresh * MAX_NEW_LINK_SHARE_INV <= counted;
}
