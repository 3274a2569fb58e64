/**
 * Tag path → fixed-size vector (docs/ALGORITHM.md, "Grouping links into actions",
 * steps 1–3): n-grams of the path's steps, a growing vocabulary, bag-of-words
 * frequencies, and Knuth multiplicative hashing of the vocabulary *index* into 2^m
 * buckets, each bucket holding the mean over all vocabulary positions it receives.
 *
 * The kit materialises the full V-long frequency vector and the full 4096-long hashed
 * vector for every link. Here both are sparse: a path touches at most its own n-grams,
 * and the number of vocabulary positions per bucket (the mean's denominator, zeros
 * included) is kept as a running count, so a projection is O(path length), not O(V).
 */

/** Sparse projected vector: ascending bucket indices and their values (all > 0). */
export interface SparseVector {
  readonly indices: Uint16Array;
  readonly values: Float64Array;
}

/** Hash and n-gram settings; defaults from docs/ALGORITHM.md. */
export interface ProjectionOptions {
  /** n of the n-grams. @default 2 */
  readonly ngramSize?: number;
  /** a. @default 766245317 */
  readonly hashMultiplier?: number;
  /** w, at most 26 so that the exact product below stays under 2^53. @default 15 */
  readonly hashWordBits?: number;
  /** m ≤ w; 2^m dimensions. @default 12 */
  readonly hashOutputBits?: number;
}

/** Plain JSON state: the vocabulary in index order (bucket counts are derived from it). */
export interface TagPathProjectorState {
  readonly vocabulary: string[];
}

/**
 * Knuth's multiplicative hash h(x) = floor(((x·a) mod 2^w) / 2^(w−m)), exactly.
 *
 * x·a overflows 2^53 (a ≈ 7.7·10^8, x up to millions), so it is not computed. Instead:
 * write x = q₁·2^w + r₁ and a = q₂·2^w + r₂ with r₁ = x mod 2^w, r₂ = a mod 2^w. Then
 * x·a = r₁·r₂ + 2^w·(q₁·r₂ + q₂·r₁ + q₁·q₂·2^w), and the second term is a multiple of
 * 2^w, so (x·a) mod 2^w = (r₁·r₂) mod 2^w. With w ≤ 26, r₁·r₂ < 2^52 is exact in a
 * double. For the defaults, a mod 2^15 = 766245317 mod 32768 = 31173 (odd, so h is a
 * bijection of each 2^15 run of indices onto itself before the shift, and each of the
 * 4096 buckets receives exactly 8 of every 32768 consecutive indices).
 */
export function knuthHash(x: number, a: number, w: number, m: number): number {
  const modulus = 2 ** w;
  const r = ((x % modulus) * (a % modulus)) % modulus;
  return Math.floor(r / 2 ** (w - m));
}

const SOS = "[SOS]";
const EOS = "[EOS]";

/** n-grams of a tag path: split on `/` (the leading `/` yields an empty first step), [SOS] … [EOS]. */
export function tagPathNgrams(tagPath: string, n = 2): string[] {
  const tokens = tagPath.split("/");
  tokens.unshift(SOS);
  tokens.push(EOS);
  if (n <= 1) return tokens;
  const grams: string[] = [];
  for (let i = 0; i + n <= tokens.length; i++) {
    let gram = tokens[i]!;
    for (let k = 1; k < n; k++) gram += "/" + tokens[i + k]!;
    grams.push(gram);
  }
  return grams;
}

/** Projects tag paths with a vocabulary that grows as paths are seen; one per crawl. */
export class TagPathProjector {
  /** 2^m. */
  readonly dimensions: number;
  private readonly n: number;
  private readonly a: number;
  private readonly w: number;
  private readonly m: number;
  private readonly vocabulary = new Map<string, number>();
  private readonly words: string[] = [];
  /** Number of vocabulary indices hashed to each bucket: the denominator of its mean. */
  private readonly bucketSizes: Uint32Array;

  constructor(options: ProjectionOptions = {}) {
    this.n = options.ngramSize ?? 2;
    this.a = options.hashMultiplier ?? 766245317;
    this.w = options.hashWordBits ?? 15;
    this.m = options.hashOutputBits ?? 12;
    if (!Number.isInteger(this.n) || this.n < 1) throw new RangeError(`ngramSize must be a positive integer, got ${this.n}`);
    if (!Number.isInteger(this.w) || this.w < 1 || this.w > 26) throw new RangeError(`hashWordBits must be in 1..26, got ${this.w}`);
    if (!Number.isInteger(this.m) || this.m < 1 || this.m > this.w || this.m > 16) {
      throw new RangeError(`hashOutputBits must be in 1..min(w, 16), got ${this.m}`);
    }
    if (!Number.isSafeInteger(this.a) || this.a < 1) throw new RangeError(`hashMultiplier must be a positive integer`);
    this.dimensions = 2 ** this.m;
    this.bucketSizes = new Uint32Array(this.dimensions);
  }

  static fromState(state: TagPathProjectorState, options: ProjectionOptions = {}): TagPathProjector {
    const projector = new TagPathProjector(options);
    for (const word of state.vocabulary) projector.addWord(word);
    if (projector.words.length !== state.vocabulary.length) throw new TypeError("Invalid projector state: duplicate vocabulary entries");
    return projector;
  }

  toState(): TagPathProjectorState {
    return { vocabulary: this.words.slice() };
  }

  /** V: distinct n-grams seen so far. */
  get vocabularySize(): number {
    return this.words.length;
  }

  /** h(x) for this projector's settings. */
  bucketOf(index: number): number {
    return knuthHash(index, this.a, this.w, this.m);
  }

  /**
   * Projects a tag path, first adding its unseen n-grams to the vocabulary (so the same
   * path projects differently later, when more vocabulary positions share its buckets).
   */
  project(tagPath: string): SparseVector {
    const grams = tagPathNgrams(tagPath, this.n);
    for (const gram of grams) this.addWord(gram);
    return this.vectorOf(grams, this.bucketSizes);
  }

  /**
   * Re-projects already-projected tag paths as they were at the time: each with the
   * vocabulary size V it had then (its n-grams must be in the vocabulary). Restores use
   * it to rebuild cached vectors bit for bit instead of storing them. O(V + Σ lengths).
   */
  reproject(requests: readonly { readonly tagPath: string; readonly vocabularySize: number }[]): SparseVector[] {
    const order = requests.map((_, i) => i).sort((x, y) => requests[x]!.vocabularySize - requests[y]!.vocabularySize);
    const sizes = new Uint32Array(this.dimensions);
    const out: SparseVector[] = new Array(requests.length);
    let filled = 0;
    for (const i of order) {
      const { tagPath, vocabularySize } = requests[i]!;
      if (vocabularySize > this.words.length) throw new RangeError(`Vocabulary size ${vocabularySize} exceeds ${this.words.length}`);
      for (; filled < vocabularySize; filled++) sizes[this.bucketOf(filled)]!++;
      const grams = tagPathNgrams(tagPath, this.n);
      for (const gram of grams) {
        const index = this.vocabulary.get(gram);
        if (index === undefined || index >= vocabularySize) throw new RangeError(`Tag path ${tagPath} was not projected at size ${vocabularySize}`);
      }
      out[i] = this.vectorOf(grams, sizes);
    }
    return out;
  }

  /** Dense copy of a projected vector (what an HNSW index stores). */
  toDense(vector: SparseVector, out: Float32Array = new Float32Array(this.dimensions)): Float32Array {
    out.fill(0);
    for (let i = 0; i < vector.indices.length; i++) out[vector.indices[i]!] = vector.values[i]!;
    return out;
  }

  /**
   * Bucket value = Σ (count(g)/L) over the path's n-grams g hashed there, divided by the
   * number of vocabulary positions hashed there (`sizes`, V counted after additions).
   */
  private vectorOf(grams: readonly string[], sizes: Uint32Array): SparseVector {
    const frequency = 1 / grams.length;
    const sums = new Map<number, number>();
    for (const gram of grams) {
      const bucket = this.bucketOf(this.vocabulary.get(gram)!);
      sums.set(bucket, (sums.get(bucket) ?? 0) + frequency);
    }
    const indices = Uint16Array.from(sums.keys()).sort();
    const values = new Float64Array(indices.length);
    for (let i = 0; i < indices.length; i++) values[i] = sums.get(indices[i]!)! / sizes[indices[i]!]!;
    return { indices, values };
  }

  private addWord(word: string): number {
    let index = this.vocabulary.get(word);
    if (index === undefined) {
      index = this.words.length;
      this.vocabulary.set(word, index);
      this.words.push(word);
      this.bucketSizes[this.bucketOf(index)]!++;
    }
    return index;
  }
}
