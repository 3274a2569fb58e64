import type { LinkScorer } from "./link-scorer";
import { pathSegmentBuckets, type PathSegmentStats } from "./path-segment-stats";

/**
 * How SB ranks a link inside the group its bandit picked (sb-strategy.ts), and what a group's URL
 * outlook is made of (group-outlook.ts): the path-segment log-ratio (path-segment-stats.ts) plus
 * {@link SCORER_WEIGHT} × the 2-gram scorer's log-odds (link-scorer.ts), the log-odds capped at
 * ±{@link SCORER_LOGIT_CAP}.
 *
 * Why the cap. The scorer is trained by SGD with scikit-learn's 'optimal' rate on raw bigram
 * counts: the first steps have η = 10, and a URL of 100 characters has ~100 bigrams, so after a
 * few batches its log-odds run into the hundreds. FOCUSED only sorts by them, so there the scale
 * does not matter; here they are added to a log-ratio of a few nats, and uncapped the 2-grams
 * decided alone: on a code forge, histories and blame views of files (which never lead to a
 * target) outranked permalinks to data files by hundreds of log-odds. Capped, the scorer moves a
 * link by at most 3 nats either way and the segment statistics, which learn the same thing per
 * path segment instead of per character pair, keep their say. What the cap and the weight are
 * worth is in docs/BENCHMARKS.md ("What each default is worth").
 */

/**
 * Weight of the 2-gram scorer next to the path-segment log-ratio: the segments decide, the
 * 2-grams break their ties and speak for URLs whose segments are new.
 */
export const SCORER_WEIGHT = 0.1;
/** ±30 log-odds, i.e. ±3 nats of rank once weighted. */
export const SCORER_LOGIT_CAP = 30;

/** The rank of a link from its path-segment log-ratio and the scorer's log-odds. */
export function linkRank(segmentLogRatio: number, scorerLogit: number): number {
  return segmentLogRatio + SCORER_WEIGHT * Math.max(-SCORER_LOGIT_CAP, Math.min(SCORER_LOGIT_CAP, scorerLogit));
}

/** What ranking reads of a link (the engine's FrontierLink has these). */
export interface RankedLink {
  readonly url: string;
  readonly anchorText: string;
  readonly depth: number;
}

/** Distinct token sequences, and URL prefixes, kept at most: past them a link is ranked from its URL string, as before. */
export const MAX_KEPT = 1 << 16;
/** Shapes (and prefixes) kept whatever the number of links filed. */
export const KEPT_FREELY = 1024;
/** Past {@link KEPT_FREELY}, one more shape (and prefix) may be kept per this many links filed: a few bytes per link at most. */
export const LINKS_PER_KEPT = 16;

/** First length of the tables, grown by doubling: a worker holds thousands of crawls, most of them small. */
const FIRST_SIZE = 64;

/**
 * What {@link linkRank} needs from a link, worked out once when SB files it, so that ranking a
 * drawn link (32 a pull, and the outlook's draws) does not hash and walk its URL string again.
 *
 * - Its path-segment buckets (path-segment-stats.ts), interned: links with the same token sequence
 *   (`0:en`, `1:releases`, `2:#`, …) share one, and its log-ratio is kept until the statistics
 *   next learn a pull, so most draws read it instead of summing it.
 * - Its URL's prefix up to the last `/` of the path, interned: the 2-gram sum of the prefix is
 *   kept until the scorer next trains, and only the rest of the URL is summed. A prefix's sum is
 *   carried on from its parent directory's, kept the same way, so the host and the upper
 *   directories a site's links share are summed once per training step.
 *
 * Both give the very numbers {@link PathSegmentStats.logRatio} and {@link LinkScorer.logit} give
 * (the same terms added in the same order), so the draws and the crawl are unchanged. A link filed
 * before a checkpoint restore, past the caps, or with a non-ASCII URL is ranked from its strings.
 */
export class LinkRankFeatures {
  /** Per link id: its shape id + 1 and its prefix id + 1 (0: none). */
  private perLink = new Int32Array(2 * FIRST_SIZE);
  /** A 32-bit hash of a bucket sequence → its shape id. */
  private readonly shapeIds = new Map<number, number>();
  /** Links filed so far: what the tables may grow with. */
  private filed = 0;
  /** Shape s's buckets are `shapeBuckets[shapeStart[s] .. shapeStart[s + 1])`. */
  private shapeBuckets = new Int32Array(4 * FIRST_SIZE);
  /** Beside `shapeBuckets`: each bucket's slot in the segment statistics + 1 once found (0: not yet). */
  private shapeSlots = new Int32Array(4 * FIRST_SIZE);
  private shapeStart = new Int32Array(FIRST_SIZE);
  private shapeCount = 0;
  private shapeRank = new Float64Array(FIRST_SIZE);
  /** The statistics' pull count each shape's log-ratio was made at; −1 never. */
  private shapeRankAt = new Float64Array(FIRST_SIZE).fill(-1);
  private readonly prefixIds = new Map<string, number>();
  private readonly prefixes: string[] = [];
  /** Each prefix's parent: the prefix up to its previous `/`; −1 none. */
  private readonly prefixParent: number[] = [];
  private prefixSum = new Float64Array(FIRST_SIZE);
  /** The scorer's training steps each prefix's sum was made at; −1 never. */
  private prefixSumAt = new Float64Array(FIRST_SIZE).fill(-1);
  private readonly scratch: number[] = [];

  constructor(
    private readonly segments: PathSegmentStats,
    private readonly scorer: LinkScorer,
  ) {}

  /** Shapes and prefixes kept (tests). */
  get kept(): { shapes: number; prefixes: number } {
    return { shapes: this.shapeCount, prefixes: this.prefixes.length };
  }

  /** Works out and keeps what the link's rank needs (its id is the link table's). */
  file(id: number, url: string): void {
    this.filed++;
    if (2 * id + 1 >= this.perLink.length) this.perLink = grownInt32(this.perLink, Math.max(2 * id + 2, 2 * this.perLink.length));
    this.perLink[2 * id] = this.shapeOf(url) + 1;
    this.perLink[2 * id + 1] = this.prefixOf(url) + 1;
  }

  /** {@link linkRank} of the link, to the last bit what it is from its strings. */
  rank(id: number, url: string, anchorText: string, depth: number): number {
    return this.rankOf(this.shapeAt(id), this.prefixAt(id), url, anchorText, depth);
  }

  /**
   * {@link rank} of several drawn links at once: `ranks[i]` for `ids[i]` (`links[i]` its link,
   * undefined for a link no longer in the table: −∞). A frontier of a million links is hundreds of
   * MB, so each drawn link's object, URL string and kept ids are cache misses; all of them are read
   * first, in short loops whose reads do not wait for one another, and only then ranked.
   */
  rankAll(ids: readonly number[], links: readonly (RankedLink | undefined)[], count: number, ranks: number[]): void {
    const { drawnUrls: urls, drawnAnchors: anchors, drawnDepths: depths, drawnShapes: shapes, drawnPrefixes: prefixes, drawnLastCodes: lastCodes } = this;
    for (let i = 0; i < count; i++) {
      const link = links[i];
      urls[i] = link === undefined ? "" : link.url;
      anchors[i] = link === undefined ? "" : link.anchorText;
      depths[i] = link === undefined ? 0 : link.depth;
      shapes[i] = this.shapeAt(ids[i]!);
      prefixes[i] = this.prefixAt(ids[i]!);
    }
    // The URLs' last characters: their strings' ends are in the processor's cache for the sums below.
    for (let i = 0; i < count; i++) lastCodes[i] = urls[i]!.charCodeAt(urls[i]!.length - 1);
    for (let i = 0; i < count; i++) {
      ranks[i] = links[i] === undefined ? -Infinity : this.rankOf(shapes[i]!, prefixes[i]!, urls[i]!, anchors[i]!, depths[i]!);
    }
  }

  private rankOf(shape: number, prefix: number, url: string, anchorText: string, depth: number): number {
    const segmentLogRatio = shape >= 0 ? this.shapeLogRatio(shape) : this.segments.logRatio(url);
    if (prefix < 0) return linkRank(segmentLogRatio, this.scorer.logit(url, anchorText, depth));
    const urlSum = this.scorer.asciiBigramSum(url, this.prefixes[prefix]!.length, url.length, this.prefixBigramSum(prefix));
    return linkRank(segmentLogRatio, this.scorer.logitOfUrlSum(urlSum, anchorText, depth));
  }

  /** The link's shape id, −1 when none was kept. */
  private shapeAt(id: number): number {
    return 2 * id < this.perLink.length ? this.perLink[2 * id]! - 1 : -1;
  }

  /** The link's prefix id, −1 when none was kept. */
  private prefixAt(id: number): number {
    return 2 * id < this.perLink.length ? this.perLink[2 * id + 1]! - 1 : -1;
  }

  /** Scratch of {@link rankAll}. */
  private readonly drawnUrls: string[] = [];
  private readonly drawnAnchors: string[] = [];
  private readonly drawnDepths: number[] = [];
  private readonly drawnShapes: number[] = [];
  private readonly drawnPrefixes: number[] = [];
  private readonly drawnLastCodes: number[] = [];

  private shapeLogRatio(shape: number): number {
    const pulls = this.segments.pullCount;
    if (this.shapeRankAt[shape] !== pulls) {
      this.shapeRank[shape] = this.segments.logRatioOfBuckets(this.shapeBuckets, this.shapeStart[shape]!, this.shapeStart[shape + 1]!, this.shapeSlots);
      this.shapeRankAt[shape] = pulls;
    }
    return this.shapeRank[shape]!;
  }

  /** The prefix's 2-gram sum, carried on from its parent prefix's (kept the same way), so a site's shared directories are summed once per training step. */
  private prefixBigramSum(prefix: number): number {
    const steps = this.scorer.steps;
    if (this.prefixSumAt[prefix] !== steps) {
      const text = this.prefixes[prefix]!;
      const parent = this.prefixParent[prefix]!;
      this.prefixSum[prefix] =
        parent < 0 ? this.scorer.asciiBigramSum(text, 1, text.length, 0) : this.scorer.asciiBigramSum(text, this.prefixes[parent]!.length, text.length, this.prefixBigramSum(parent));
      this.prefixSumAt[prefix] = steps;
    }
    return this.prefixSum[prefix]!;
  }


  /** The interned id of the URL's bucket sequence; −1 when none may be kept ({@link mayKeepAnother}) or on a hash collision. */
  private shapeOf(url: string): number {
    const buckets = this.scratch;
    buckets.length = 0;
    pathSegmentBuckets(url, buckets);
    let key = 0x811c9dc5;
    for (const bucket of buckets) key = Math.imul(key ^ bucket, 0x01000193);
    key = (Math.imul(key ^ buckets.length, 0x01000193) >>> 0);
    const known = this.shapeIds.get(key);
    if (known !== undefined) return this.shapeIs(known, buckets) ? known : -1;
    if (!this.mayKeepAnother(this.shapeCount)) return -1;
    const shape = this.shapeCount++;
    if (shape + 2 > this.shapeStart.length) {
      const length = 2 * this.shapeStart.length;
      this.shapeStart = grownInt32(this.shapeStart, length);
      this.shapeRank = grownFloat64(this.shapeRank, length);
      this.shapeRankAt = grownFloat64(this.shapeRankAt, length, -1);
    }
    const start = this.shapeStart[shape]!;
    if (start + buckets.length > this.shapeBuckets.length) {
      const length = Math.max(start + buckets.length, 2 * this.shapeBuckets.length);
      this.shapeBuckets = grownInt32(this.shapeBuckets, length);
      this.shapeSlots = grownInt32(this.shapeSlots, length);
    }
    for (let i = 0; i < buckets.length; i++) this.shapeBuckets[start + i] = buckets[i]!;
    this.shapeStart[shape + 1] = start + buckets.length;
    this.shapeIds.set(key, shape);
    return shape;
  }

  /** Whether the kept shape has exactly these buckets (its key is a 32-bit hash: another sequence may share it). */
  private shapeIs(shape: number, buckets: readonly number[]): boolean {
    const start = this.shapeStart[shape]!;
    if (this.shapeStart[shape + 1]! - start !== buckets.length) return false;
    for (let i = 0; i < buckets.length; i++) if (this.shapeBuckets[start + i] !== buckets[i]) return false;
    return true;
  }

  /**
   * Whether a table holding `kept` shapes or prefixes may keep another: below its cap, and below
   * {@link KEPT_FREELY} + one per {@link LINKS_PER_KEPT} links filed. Kept entries pay for
   * themselves when links share them; on a site where every link has its own slug they would cost
   * more than the links, so past that share a link with a new one is ranked from its strings.
   */
  private mayKeepAnother(kept: number): boolean {
    return kept < MAX_KEPT && kept < KEPT_FREELY + this.filed / LINKS_PER_KEPT;
  }


  /** The interned id of the URL's prefix up to its path's last `/`; −1 for a non-ASCII URL, a short prefix, or when none may be kept. */
  private prefixOf(url: string): number {
    let end = url.length;
    for (let i = 0; i < url.length; i++) {
      const code = url.charCodeAt(i);
      if (code >= 0x80) return -1;
      if (end === url.length && (code === 0x3f /* ? */ || code === 0x23) /* # */) end = i;
    }
    return this.internPrefix(url, url.lastIndexOf("/", end - 1) + 1);
  }

  /** The interned id of `url`'s first `cut` characters (ending in `/`), its parent (up to the previous `/`) interned first; −1 when too short or past the cap. */
  private internPrefix(url: string, cut: number): number {
    if (cut < 2) return -1;
    const text = url.slice(0, cut);
    const known = this.prefixIds.get(text);
    if (known !== undefined) return known;
    const parent = this.internPrefix(url, url.lastIndexOf("/", cut - 2) + 1);
    if (!this.mayKeepAnother(this.prefixes.length)) return -1;
    const prefix = this.prefixes.length;
    // A copy: the slice would keep the whole URL alive after its link is crawled.
    const own = Buffer.from(text, "latin1").toString("latin1");
    this.prefixes.push(own);
    this.prefixParent.push(parent);
    this.prefixIds.set(own, prefix);
    if (prefix >= this.prefixSum.length) {
      this.prefixSum = grownFloat64(this.prefixSum, 2 * this.prefixSum.length);
      this.prefixSumAt = grownFloat64(this.prefixSumAt, 2 * this.prefixSumAt.length, -1);
    }
    return prefix;
  }

}

function grownInt32(array: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(length);
  bigger.set(array);
  return bigger;
}

function grownFloat64(array: Float64Array<ArrayBuffer>, length: number, fill = 0): Float64Array<ArrayBuffer> {
  const bigger = new Float64Array(length);
  if (fill !== 0) bigger.fill(fill, array.length);
  bigger.set(array);
  return bigger;
}
