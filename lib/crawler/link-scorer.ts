/**
 * A link's promise, from the link alone: logistic regression over its depth and the character
 * 2-grams of its URL and anchor text, trained online by SGD on "did this page give targets?".
 * Features: URL bigrams in [0, 95²), anchor bigrams in [95², 2·95²), depth one-hot (0…15, last
 * bucket open) after that. Same learning-rate schedule as the URL classifier (scikit-learn
 * 'optimal', α = 1e-4, t0 = 1000).
 *
 * Two users: the FOCUSED baseline orders its whole frontier by it (ALGORITHM.md "Baselines"),
 * and SB-CLASSIFIER uses it to choose *within* the tag-path group its bandit picked
 * (sb-strategy.ts), which is where the tag path alone cannot tell links apart: a dataset's
 * redirect-to-file links and its duplicate "resources" pages, or the sections of a documentation
 * tree that hold the dossiers.
 */
const BIGRAMS = 95 * 95;
const DEPTH_BUCKETS = 16;
const FEATURES = 2 * BIGRAMS + DEPTH_BUCKETS;
const ALPHA = 1e-4;
const T0 = 1000;

/** Scratch counts of {@link addBigrams}, zero between calls. */
const bigramCounts = new Uint32Array(2 * BIGRAMS);
const bigramOrder: number[] = [];

/**
 * Adds the text's bigram counts to `into`, each bigram at its first occurrence (the map's order is
 * the order training sums in): counted in a scratch array first, so a URL of 80 bigrams costs
 * 80 increments and one map entry per distinct bigram instead of a lookup and a write each.
 */
function addBigrams(text: string, offset: number, into: Map<number, number>): void {
  const s = text.toLowerCase();
  const order = bigramOrder;
  order.length = 0;
  for (let i = 1; i < s.length; i++) {
    const a = s.charCodeAt(i - 1) - 32;
    const b = s.charCodeAt(i) - 32;
    if (a < 0 || a >= 95 || b < 0 || b >= 95) continue;
    const index = offset + a * 95 + b;
    if (bigramCounts[index]!++ === 0) order.push(index);
  }
  for (const index of order) {
    into.set(index, bigramCounts[index]!);
    bigramCounts[index] = 0;
  }
}

export function linkFeatures(url: string, anchorText: string, depth: number): Map<number, number> {
  const features = new Map<number, number>();
  addBigrams(url, 0, features);
  addBigrams(anchorText, BIGRAMS, features);
  features.set(2 * BIGRAMS + Math.min(depth, DEPTH_BUCKETS - 1), 1);
  return features;
}

/** Plain JSON state of a {@link LinkScorer}, for checkpoints. */
export interface LinkScorerState {
  /** Non-zero weights as [index, value] (the vector has 2·95² + 16 slots, mostly zero). */
  readonly weights: [number, number][];
  readonly intercept: number;
  readonly t: number;
  readonly pending: [features: [number, number][], label: number][];
  readonly trained: boolean;
}

export class LinkScorer {
  private readonly weights = new Float64Array(FEATURES);
  private intercept = 0;
  private t = 1;
  private pending: [Map<number, number>, number][] = [];
  trained = false;

  constructor(private readonly batchSize = 10) {}

  toState(): LinkScorerState {
    const weights: [number, number][] = [];
    for (let i = 0; i < this.weights.length; i++) if (this.weights[i] !== 0) weights.push([i, this.weights[i]!]);
    return { weights, intercept: this.intercept, t: this.t, pending: this.pending.map(([x, y]) => [[...x], y]), trained: this.trained };
  }

  static fromState(state: LinkScorerState, batchSize = 10): LinkScorer {
    const scorer = new LinkScorer(batchSize);
    for (const [index, value] of state.weights) scorer.weights[index] = value;
    scorer.intercept = state.intercept;
    scorer.t = state.t;
    scorer.pending = state.pending.map(([x, y]) => [new Map(x), y]);
    scorer.trained = state.trained;
    return scorer;
  }

  /** P(the page behind this link gives targets); 0.5 before any training. */
  score(features: Map<number, number>): number {
    let z = this.intercept;
    for (const [index, value] of features) z += this.weights[index]! * value;
    return 1 / (1 + Math.exp(-z));
  }

  /**
   * The log-odds of {@link score} for a link, computed straight from its text without building
   * the feature map: SB ranks dozens of links per request with it.
   */
  logit(url: string, anchorText: string, depth: number): number {
    return this.intercept + this.bigramSum(url, 0) + this.bigramSum(anchorText, BIGRAMS) + this.weights[2 * BIGRAMS + Math.min(depth, DEPTH_BUCKETS - 1)]!;
  }

  /**
   * Training steps taken so far: the weights and intercept change only when it grows, so a sum of
   * weights kept for this count is current.
   */
  get steps(): number {
    return this.t;
  }

  /**
   * {@link logit} from the URL's bigram sum already made ({@link asciiBigramSum}): the same terms
   * added in the same order, so the same number.
   */
  logitOfUrlSum(urlBigramSum: number, anchorText: string, depth: number): number {
    // An empty anchor text (SB files none) adds 0: skipping it saves a call to toLowerCase.
    const anchorSum = anchorText.length === 0 ? 0 : this.bigramSum(anchorText, BIGRAMS);
    return this.intercept + urlBigramSum + anchorSum + this.weights[2 * BIGRAMS + Math.min(depth, DEPTH_BUCKETS - 1)]!;
  }

  /**
   * The URL-bigram sum of {@link logit} for an ASCII text, carried on: `sum` plus the weights of
   * the bigrams ending at positions `from`..`to`−1 (position i: characters i−1 and i), in order.
   * From `sum` = 0 and `from` = 1 to the text's length it is the text's own sum; a prefix's sum
   * carried on over the rest is the whole text's, to the last bit (the same additions in the same
   * order). ASCII only: there lower-casing a character at a time is `toLowerCase`.
   */
  asciiBigramSum(text: string, from: number, to: number, sum: number): number {
    let previous = from > 0 ? lowerAscii(text.charCodeAt(from - 1)) - 32 : -1;
    for (let i = from; i < to; i++) {
      const a = previous;
      const b = lowerAscii(text.charCodeAt(i)) - 32;
      previous = b;
      if (a < 0 || a >= 95 || b < 0 || b >= 95) continue;
      sum += this.weights[a * 95 + b]!;
    }
    return sum;
  }

  /** Buffers a label; trains one pass when `batchSize` labels are waiting. Returns true when it trained. */
  addLabel(features: Map<number, number>, positive: boolean): boolean {
    this.pending.push([features, positive ? 1 : -1]);
    if (this.pending.length < this.batchSize) return false;
    for (const [x, y] of this.pending) {
      const eta = 1 / (ALPHA * (T0 + this.t - 1));
      let z = this.intercept;
      for (const [index, value] of x) z += this.weights[index]! * value;
      const gradient = -y / (1 + Math.exp(y * z)); // d(log loss)/dz
      const decay = 1 - eta * ALPHA;
      for (const [index, value] of x) this.weights[index] = this.weights[index]! * decay - eta * gradient * value;
      this.intercept -= eta * gradient * 0.01; // sparse intercept decay, as scikit-learn
      this.t += 1;
    }
    this.pending = [];
    this.trained = true;
    return true;
  }

  /** Σ of the weights of the text's bigrams (each occurrence counted), as {@link linkFeatures} would list them. */
  private bigramSum(text: string, offset: number): number {
    const s = text.toLowerCase();
    let sum = 0;
    for (let i = 1; i < s.length; i++) {
      const a = s.charCodeAt(i - 1) - 32;
      const b = s.charCodeAt(i) - 32;
      if (a < 0 || a >= 95 || b < 0 || b >= 95) continue;
      sum += this.weights[offset + a * 95 + b]!;
    }
    return sum;
  }
}

/** An ASCII code lower-cased as `toLowerCase` does. */
function lowerAscii(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 32 : code;
}
