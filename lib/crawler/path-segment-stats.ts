/**
 * How often pages whose URL has a given path segment gave targets: the second half of SB's
 * choice inside a group (sb-strategy.ts), next to the 2-gram {@link LinkScorer}.
 *
 * A URL is cut into tokens: each path segment with its position and its digit runs replaced
 * by `#` (`/proceedings/vol-12/x` → `0:proceedings`, `1:vol-#`, `2:x`), the number of segments,
 * and the query keys. Every pulled page adds one pull, and one success when it gave targets, to
 * each of its tokens. A link scores the sum over its tokens of log(rate / overall rate), each
 * rate shrunk towards the overall one by {@link PRIOR_PULLS} imaginary pulls: a naive-Bayes
 * log-ratio in which unseen tokens count 0. Where the character 2-grams blur a section name
 * into the digits of long slugs, a segment is one token: on the deep archive and the newspaper
 * this ranks the section holding the targets first (measured: docs/BENCHMARKS.md).
 *
 * Memory is fixed: tokens are hashed (FNV-1a, 32 bits) into {@link BUCKETS} counters, so a
 * crawl of millions of pages with unique slugs costs 2 MB; a collision only blurs two rates.
 */
export const BUCKETS = 1 << 18;
export const PRIOR_PULLS = 2;
const MAX_SEGMENTS = 6;

/** Plain JSON state: the non-zero buckets as [bucket, pulls, successes]. */
export interface PathSegmentStatsState {
  readonly pulls: number;
  readonly successes: number;
  readonly buckets: [bucket: number, pulls: number, successes: number][];
}

export class PathSegmentStats {
  private readonly bucketPulls = new Uint32Array(BUCKETS);
  private readonly bucketSuccesses = new Uint32Array(BUCKETS);
  private pulls = 0;
  private successes = 0;
  /** Scratch list of the current URL's buckets. */
  private readonly scratch: number[] = [];

  /** Records a pulled page: `success` when it gave targets. */
  add(url: string, success: boolean): void {
    this.pulls++;
    if (success) this.successes++;
    for (const bucket of this.bucketsOf(url)) {
      this.bucketPulls[bucket]!++;
      if (success) this.bucketSuccesses[bucket]!++;
    }
  }

  /** Σ over the URL's tokens of log(shrunk rate / overall rate); 0 before any pull. */
  logRatio(url: string): number {
    if (this.pulls === 0) return 0;
    const overall = (this.successes + 1) / (this.pulls + 2);
    let sum = 0;
    for (const bucket of this.bucketsOf(url)) {
      const n = this.bucketPulls[bucket]!;
      if (n === 0) continue;
      const rate = (this.bucketSuccesses[bucket]! + PRIOR_PULLS * overall) / (n + PRIOR_PULLS);
      sum += Math.log(rate / overall);
    }
    return sum;
  }

  toState(): PathSegmentStatsState {
    const buckets: [number, number, number][] = [];
    for (let b = 0; b < BUCKETS; b++) if (this.bucketPulls[b] !== 0) buckets.push([b, this.bucketPulls[b]!, this.bucketSuccesses[b]!]);
    return { pulls: this.pulls, successes: this.successes, buckets };
  }

  static fromState(state: PathSegmentStatsState): PathSegmentStats {
    const stats = new PathSegmentStats();
    stats.pulls = state.pulls;
    stats.successes = state.successes;
    for (const [bucket, pulls, successes] of state.buckets) {
      if (!(bucket >= 0 && bucket < BUCKETS)) throw new TypeError(`Invalid path-segment state: bucket ${bucket}`);
      stats.bucketPulls[bucket] = pulls;
      stats.bucketSuccesses[bucket] = successes;
    }
    return stats;
  }

  /** The URL's tokens (see the class comment), hashed; the returned array is reused. */
  private bucketsOf(url: string): number[] {
    const out = this.scratch;
    out.length = 0;
    for (const token of pathSegmentTokens(url)) out.push(fnv1a(token) & (BUCKETS - 1));
    return out;
  }
}

/** `http://h/proceedings/vol-12/x?print=1&a=2` → `0:proceedings`, `1:vol-#`, `2:x`, `d:3`, `q:print`, `q:a`. */
export function pathSegmentTokens(url: string): string[] {
  const hostAt = url.indexOf("//");
  const pathAt = url.indexOf("/", hostAt < 0 ? 0 : hostAt + 2);
  if (pathAt < 0) return ["d:0"];
  const queryAt = url.indexOf("?", pathAt);
  const path = queryAt < 0 ? url.slice(pathAt) : url.slice(pathAt, queryAt);
  const tokens: string[] = [];
  let depth = 0;
  for (const segment of path.split("/")) {
    if (!segment) continue;
    if (depth < MAX_SEGMENTS) tokens.push(`${depth}:${segment.replace(/\d+/g, "#")}`);
    depth++;
  }
  tokens.push(`d:${depth}`);
  if (queryAt >= 0) {
    for (const pair of url.slice(queryAt + 1).split("&")) {
      const eq = pair.indexOf("=");
      const key = eq < 0 ? pair : pair.slice(0, eq);
      if (key) tokens.push(`q:${key}`);
    }
  }
  return tokens;
}

/** 32-bit FNV-1a of a string's UTF-16 code units. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
