/**
 * Online URL classifier, html vs target, without a request (docs/ALGORITHM.md, "URL
 * classifier"): logistic regression on the counts of the 95² printable-ASCII character
 * bigrams of the lower-cased URL, trained by SGD one epoch per batch of b labelled URLs.
 *
 * The SGD step reproduces scikit-learn's `SGDClassifier(loss='log_loss', alpha=1e-4,
 * learning_rate='optimal', penalty='l2', fit_intercept=True).partial_fit` (`_plain_sgd`
 * in sklearn/linear_model/_sgd_fast.pyx), per sample, in order:
 *   eta = 1 / (α (t0 + t − 1))            t counts samples since the start, from 1
 *   p   = wscale · (w·x) + b
 *   g   = dloss(p, y), clipped to ±1e12   y = +1 target, −1 html
 *   wscale ← wscale · max(0, 1 − eta α)   L2 decay, O(1) instead of O(9025)
 *   w   ← w − eta g x / wscale           sparse: only the URL's bigrams
 *   b   ← b − eta g · intercept_decay
 * and after the epoch w ← wscale·w, wscale ← 1 (sklearn's `reset_wscale`; also done
 * when wscale < 1e-9).
 *
 * t0 ("optimal_init") as sklearn derives it: typw = sqrt(1/sqrt(α)) = sqrt(1/0.01) = 10;
 * eta0 = typw / max(1, dloss(−typw, 1)) = 10 / max(1, −1/(e^−10 + 1)) = 10 / 1 = 10;
 * t0 = 1 / (eta0 α) = 1 / (10 · 1e-4) = 1000, so the first step has eta = 1/(α·1000) = 10.
 *
 * intercept_decay: sklearn uses 1.0 for dense input but 0.01 (SPARSE_INTERCEPT_DECAY)
 * for sparse input, and the kit feeds it a sparse CountVectorizer matrix, so the kit's
 * intercept moved 100× slower than its weights. The default follows the kit (0.01).
 * The kit named the classes ['html', 'data_resource'], making html sklearn's positive
 * class; logistic regression is symmetric under y → −y from w = 0, so predictions match.
 */
import type { Prng } from "./prng";
import { ALGORITHM_DEFAULTS } from "./settings-table";

export type UrlLabel = "html" | "target";

const FEATURES = 95 * 95;
/** sklearn's MAX_DLOSS. */
const MAX_DLOSS = 1e12;

/** Settings; defaults from docs/ALGORITHM.md and scikit-learn. */
export interface UrlClassifierOptions {
  /** Shuffles each batch, as sklearn shuffles each epoch; the crawl's generator. */
  readonly prng: Prng;
  /** b: labelled URLs per epoch. @default 10 */
  readonly batchSize?: number;
  /** L2 regularisation α. @default 1e-4 */
  readonly alpha?: number;
  /** Factor of the intercept step (see above). @default 0.01 */
  readonly interceptDecay?: number;
}

/** Plain JSON state (the Prng is the crawl's and is saved with it). */
export interface UrlClassifierState {
  readonly weights: number[];
  readonly intercept: number;
  /** sklearn's t_: 1 + samples trained on. */
  readonly t: number;
  readonly epochs: number;
  readonly buffer: [url: string, label: UrlLabel][];
}

/** Bigram index of two char codes, −1 unless both are printable ASCII (32..126). */
function bigram(a: number, b: number): number {
  // A bigram with any other character is not in the vocabulary: dropped, as CountVectorizer
  // with a fixed vocabulary drops it (its neighbours do not pair up either).
  return a >= 32 && a <= 126 && b >= 32 && b <= 126 ? (a - 32) * 95 + (b - 32) : -1;
}

/** Sorted distinct bigram indices of the lower-cased URL and their counts (sklearn's CSR row). */
export function urlBigrams(url: string): { indices: Int32Array; counts: Float64Array } {
  const s = url.toLowerCase();
  const raw = new Int32Array(Math.max(0, s.length - 1));
  let n = 0;
  for (let i = 1; i < s.length; i++) {
    const f = bigram(s.charCodeAt(i - 1), s.charCodeAt(i));
    if (f >= 0) raw[n++] = f;
  }
  const sorted = raw.subarray(0, n).sort();
  let distinct = 0;
  for (let i = 0; i < n; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
  const indices = new Int32Array(distinct);
  const counts = new Float64Array(distinct);
  for (let i = 0, k = -1; i < n; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) indices[++k] = sorted[i]!;
    counts[k]!++;
  }
  return { indices, counts };
}

/** sklearn's `Log.dloss(p, y)`: derivative of log(1 + e^(−py)), with its shortcuts for |py| > 18. */
export function logLossDerivative(p: number, y: number): number {
  const z = p * y;
  if (z > 18) return Math.exp(-z) * -y;
  if (z < -18) return -y;
  return -y / (Math.exp(z) + 1);
}

export class UrlClassifier {
  readonly batchSize: number;
  readonly alpha: number;
  readonly interceptDecay: number;
  /** t0 = 1/(eta0·α), see the derivation above. */
  readonly t0: number;
  private readonly prng: Prng;
  private readonly weights = new Float64Array(FEATURES);
  private intercept = 0;
  private t = 1;
  private epochs = 0;
  private buffer: [string, UrlLabel][] = [];

  constructor(options: UrlClassifierOptions) {
    this.prng = options.prng;
    this.batchSize = options.batchSize ?? ALGORITHM_DEFAULTS.classifierBatchSize;
    this.alpha = options.alpha ?? ALGORITHM_DEFAULTS.sgdAlpha;
    this.interceptDecay = options.interceptDecay ?? 0.01;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1) throw new RangeError(`batchSize must be ≥ 1, got ${this.batchSize}`);
    if (!(this.alpha > 0)) throw new RangeError(`alpha must be > 0, got ${this.alpha}`);
    const typw = Math.sqrt(1 / Math.sqrt(this.alpha));
    const eta0 = typw / Math.max(1, logLossDerivative(-typw, 1));
    this.t0 = 1 / (eta0 * this.alpha);
  }

  static fromState(state: UrlClassifierState, options: UrlClassifierOptions): UrlClassifier {
    if (state.weights.length !== FEATURES) throw new TypeError(`Invalid classifier state: ${state.weights.length} weights`);
    const classifier = new UrlClassifier(options);
    classifier.weights.set(state.weights);
    classifier.intercept = state.intercept;
    classifier.t = state.t;
    classifier.epochs = state.epochs;
    classifier.buffer = state.buffer.map(([url, label]) => [url, label]);
    return classifier;
  }

  toState(): UrlClassifierState {
    return {
      weights: Array.from(this.weights),
      intercept: this.intercept,
      t: this.t,
      epochs: this.epochs,
      buffer: this.buffer.map(([url, label]) => [url, label]),
    };
  }

  /** True once the first batch has been trained on. */
  isTrained(): boolean {
    return this.epochs > 0;
  }

  /** Labelled URLs waiting for the next epoch. */
  get pendingLabels(): number {
    return this.buffer.length;
  }

  /** Buffers a true label; the b-th one trains an epoch over the batch and clears it. */
  addLabel(url: string, label: UrlLabel): void {
    this.buffer.push([url, label]);
    if (this.buffer.length >= this.batchSize) {
      this.trainEpoch(this.buffer);
      this.buffer = [];
    }
  }

  /**
   * Decision value w·x + b (> 0: target), 0 before any training. Sums the weights in
   * URL order straight from the characters (0.3 µs, no feature arrays); training sums in
   * sklearn's sorted order, which differs only in the last bits.
   */
  decision(url: string): number {
    const s = url.toLowerCase();
    let sum = 0;
    for (let i = 1; i < s.length; i++) {
      const f = bigram(s.charCodeAt(i - 1), s.charCodeAt(i));
      if (f >= 0) sum += this.weights[f]!;
    }
    return sum + this.intercept;
  }

  /** P(target | url) = sigmoid(w·x + b), as sklearn's `predict_proba`. */
  probability(url: string): number {
    return 1 / (1 + Math.exp(-this.decision(url)));
  }

  /**
   * "target" when w·x + b > 0, like sklearn's `predict`. Untrained, the decision is 0 and
   * the answer "html": mistyping a page as a target loses its whole subtree, the reverse
   * only costs one request.
   */
  predict(url: string): UrlLabel {
    return this.decision(url) > 0 ? "target" : "html";
  }

  private dot(indices: Int32Array, counts: Float64Array, wscale = 1): number {
    let s = 0;
    for (let i = 0; i < indices.length; i++) s += this.weights[indices[i]!]! * counts[i]!;
    return s * wscale;
  }

  /** One pass of sklearn's `_plain_sgd` over the batch, in a Prng-shuffled order. */
  private trainEpoch(batch: readonly [string, UrlLabel][]): void {
    const samples = this.prng.shuffle(batch.map(([url, label]) => ({ x: urlBigrams(url), y: label === "target" ? 1 : -1 })));
    const w = this.weights;
    let wscale = 1;
    for (const { x, y } of samples) {
      const eta = 1 / (this.alpha * (this.t0 + this.t - 1));
      const p = this.dot(x.indices, x.counts, wscale) + this.intercept;
      const dloss = Math.min(MAX_DLOSS, Math.max(-MAX_DLOSS, logLossDerivative(p, y)));
      const update = -eta * dloss;
      wscale *= Math.max(0, 1 - eta * this.alpha);
      if (wscale < 1e-9) {
        for (let i = 0; i < FEATURES; i++) w[i]! *= wscale;
        wscale = 1;
      }
      if (update !== 0) {
        const step = update / wscale;
        for (let i = 0; i < x.indices.length; i++) w[x.indices[i]!]! += x.counts[i]! * step;
        this.intercept += update * this.interceptDecay;
      }
      this.t++;
    }
    if (wscale !== 1) for (let i = 0; i < FEATURES; i++) w[i]! *= wscale;
    this.epochs++;
  }
}
