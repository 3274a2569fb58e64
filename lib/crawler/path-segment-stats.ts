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
 * this ranks the section holding the targets first (measured: docs/notes/benchmarks-journal.md).
 *
 * Memory is bounded: tokens are hashed (FNV-1a, 32 bits) into {@link BUCKETS} counters, so a
 * crawl of millions of pages with unique slugs costs 2 MB; a collision only blurs two rates.
 * A site's few hundred tokens do not need the 2 MB: the counters start sparse (a map from bucket
 * to a slot in two small arrays, grown by doubling) and become the dense arrays only once
 * {@link SPARSE_LIMIT} buckets are in use. A worker holding thousands of crawls keeps a few KB
 * per crawl instead of 2 MB, and a checkpoint lists the buckets in use without scanning 2^18.
 * Both forms give the same rates and the same state.
 */
export const BUCKETS = 1 << 18;
export const PRIOR_PULLS = 2;
/** Buckets in use past which the counters go dense: the map then costs about what the arrays do. */
export const SPARSE_LIMIT = 1 << 15;
const MAX_SEGMENTS = 6;
const FIRST_SLOTS = 64;

/** Plain JSON state: the non-zero buckets as [bucket, pulls, successes]. */
export interface PathSegmentStatsState {
  readonly pulls: number;
  readonly successes: number;
  readonly buckets: [bucket: number, pulls: number, successes: number][];
}

export class PathSegmentStats {
  /** Sparse form: bucket → its slot in the arrays below; null once dense (the arrays are then indexed by bucket). */
  private slots: Map<number, number> | null = new Map();
  private bucketPulls = new Uint32Array(FIRST_SLOTS);
  private bucketSuccesses = new Uint32Array(FIRST_SLOTS);
  private pulls = 0;
  private successes = 0;
  /** Scratch list of the current URL's buckets. */
  private readonly scratch: number[] = [];

  /** Records a pulled page: `success` when it gave targets. */
  add(url: string, success: boolean): void {
    this.pulls++;
    if (success) this.successes++;
    for (const bucket of this.bucketsOf(url)) {
      const index = this.indexFor(bucket);
      this.bucketPulls[index]!++;
      if (success) this.bucketSuccesses[index]!++;
    }
  }

  /** Pulls recorded so far: every {@link add} changes every URL's {@link logRatio}, so a rank kept for this count is current. */
  get pullCount(): number {
    return this.pulls;
  }

  /** Σ over the URL's tokens of log(shrunk rate / overall rate); 0 before any pull. */
  logRatio(url: string): number {
    const buckets = this.bucketsOf(url);
    return this.logRatioOfBuckets(buckets, 0, buckets.length);
  }

  /**
   * {@link logRatio} of a URL whose {@link pathSegmentBuckets} are `buckets[from..to)`: the same
   * sum in the same order, for callers that hashed the URL once and kept its buckets.
   * `knownSlots` (optional, beside `buckets`, zero at first): each bucket's slot + 1 once found, so
   * that the next sum skips the map lookup. A slot never moves while the counters are sparse, and
   * dense counters need no lookup; the caller keeps it with this instance only.
   */
  logRatioOfBuckets(buckets: ArrayLike<number>, from: number, to: number, knownSlots?: Int32Array): number {
    if (this.pulls === 0) return 0;
    const overall = (this.successes + 1) / (this.pulls + 2);
    const slots = this.slots;
    let sum = 0;
    for (let at = from; at < to; at++) {
      const bucket = buckets[at]!;
      let index: number | undefined;
      if (slots === null) index = bucket;
      else if (knownSlots !== undefined && knownSlots[at] !== 0) index = knownSlots[at]! - 1;
      else {
        index = slots.get(bucket);
        if (index !== undefined && knownSlots !== undefined) knownSlots[at] = index + 1;
      }
      if (index === undefined) continue;
      const n = this.bucketPulls[index]!;
      if (n === 0) continue;
      const rate = (this.bucketSuccesses[index]! + PRIOR_PULLS * overall) / (n + PRIOR_PULLS);
      sum += Math.log(rate / overall);
    }
    return sum;
  }

  /** Whether the counters are the dense arrays (tests). */
  get dense(): boolean {
    return this.slots === null;
  }

  toState(): PathSegmentStatsState {
    const buckets: [number, number, number][] = [];
    if (this.slots === null) {
      for (let b = 0; b < BUCKETS; b++) if (this.bucketPulls[b] !== 0) buckets.push([b, this.bucketPulls[b]!, this.bucketSuccesses[b]!]);
    } else {
      for (const [bucket, index] of this.slots) if (this.bucketPulls[index] !== 0) buckets.push([bucket, this.bucketPulls[index]!, this.bucketSuccesses[index]!]);
      buckets.sort((a, b) => a[0] - b[0]);
    }
    return { pulls: this.pulls, successes: this.successes, buckets };
  }

  static fromState(state: PathSegmentStatsState): PathSegmentStats {
    const stats = new PathSegmentStats();
    stats.pulls = state.pulls;
    stats.successes = state.successes;
    for (const [bucket, pulls, successes] of state.buckets) {
      if (!(Number.isInteger(bucket) && bucket >= 0 && bucket < BUCKETS)) throw new TypeError(`Invalid path-segment state: bucket ${bucket}`);
      const index = stats.indexFor(bucket);
      stats.bucketPulls[index] = pulls;
      stats.bucketSuccesses[index] = successes;
    }
    return stats;
  }

  /** Where the bucket's counters are: its slot (made on first use), or the bucket itself once dense. */
  private indexFor(bucket: number): number {
    const slots = this.slots;
    if (slots === null) return bucket;
    const slot = slots.get(bucket);
    if (slot !== undefined) return slot;
    if (slots.size >= SPARSE_LIMIT) {
      this.goDense();
      return bucket;
    }
    const next = slots.size;
    if (next === this.bucketPulls.length) {
      this.bucketPulls = grown(this.bucketPulls, 2 * next);
      this.bucketSuccesses = grown(this.bucketSuccesses, 2 * next);
    }
    slots.set(bucket, next);
    return next;
  }

  private goDense(): void {
    const pulls = new Uint32Array(BUCKETS);
    const successes = new Uint32Array(BUCKETS);
    for (const [bucket, index] of this.slots!) {
      pulls[bucket] = this.bucketPulls[index]!;
      successes[bucket] = this.bucketSuccesses[index]!;
    }
    this.bucketPulls = pulls;
    this.bucketSuccesses = successes;
    this.slots = null;
  }

  /** The URL's tokens (see the class comment), hashed; the returned array is reused. */
  private bucketsOf(url: string): number[] {
    const out = this.scratch;
    out.length = 0;
    pathSegmentBuckets(url, out);
    return out;
  }
}

function grown(array: Uint32Array<ArrayBuffer>, length: number): Uint32Array<ArrayBuffer> {
  const bigger = new Uint32Array(length);
  bigger.set(array);
  return bigger;
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

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const COLON = 0x3a;
const HASH_SIGN = 0x23;

/** 32-bit FNV-1a of a string's UTF-16 code units. */
export function fnv1a32(text: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return hash >>> 0;
}

/** The bucket of one token: its {@link fnv1a32} modulo {@link BUCKETS}. */
export function tokenBucket(token: string): number {
  return fnv1a32(token) & (BUCKETS - 1);
}

/**
 * Appends the buckets of {@link pathSegmentTokens}`(url)` to `out`, in the same order, without
 * building the token strings: SB ranks ≈ 100 URLs per request (link ranking and outlook), and
 * the strings were a third of that cost on link-heavy sites. Unit-tested against the tokens.
 */
export function pathSegmentBuckets(url: string, out: number[]): void {
  const hostAt = url.indexOf("//");
  const pathAt = url.indexOf("/", hostAt < 0 ? 0 : hostAt + 2);
  if (pathAt < 0) {
    out.push(depthBucket(0));
    return;
  }
  const queryAt = url.indexOf("?", pathAt);
  const pathEnd = queryAt < 0 ? url.length : queryAt;
  let depth = 0;
  let at = pathAt;
  while (at < pathEnd) {
    let end = url.indexOf("/", at);
    if (end < 0 || end > pathEnd) end = pathEnd;
    if (end > at) {
      if (depth < MAX_SEGMENTS) {
        let hash = mixNumber(FNV_OFFSET, depth);
        hash = Math.imul(hash ^ COLON, FNV_PRIME);
        let inDigits = false;
        for (let i = at; i < end; i++) {
          const code = url.charCodeAt(i);
          const digit = code >= 0x30 && code <= 0x39;
          if (!digit) hash = Math.imul(hash ^ code, FNV_PRIME);
          else if (!inDigits) hash = Math.imul(hash ^ HASH_SIGN, FNV_PRIME);
          inDigits = digit;
        }
        out.push((hash >>> 0) & (BUCKETS - 1));
      }
      depth++;
    }
    at = end + 1;
  }
  out.push(depthBucket(depth));
  if (queryAt < 0) return;
  let pairAt = queryAt + 1;
  while (pairAt <= url.length) {
    let pairEnd = url.indexOf("&", pairAt);
    if (pairEnd < 0) pairEnd = url.length;
    let keyEnd = url.indexOf("=", pairAt);
    if (keyEnd < 0 || keyEnd > pairEnd) keyEnd = pairEnd;
    if (keyEnd > pairAt) {
      let hash = Math.imul(Math.imul(FNV_OFFSET ^ 0x71 /* q */, FNV_PRIME) ^ COLON, FNV_PRIME);
      for (let i = pairAt; i < keyEnd; i++) hash = Math.imul(hash ^ url.charCodeAt(i), FNV_PRIME);
      out.push((hash >>> 0) & (BUCKETS - 1));
    }
    pairAt = pairEnd + 1;
  }
}

/** Bucket of the token `d:<depth>`. */
function depthBucket(depth: number): number {
  const hash = mixNumber(Math.imul(Math.imul(FNV_OFFSET ^ 0x64 /* d */, FNV_PRIME) ^ COLON, FNV_PRIME), depth);
  return (hash >>> 0) & (BUCKETS - 1);
}

/** FNV-1a of the decimal digits of a non-negative integer, continuing `hash`. */
function mixNumber(hash: number, value: number): number {
  const digits = String(value);
  for (let i = 0; i < digits.length; i++) hash = Math.imul(hash ^ digits.charCodeAt(i), FNV_PRIME);
  return hash;
}
