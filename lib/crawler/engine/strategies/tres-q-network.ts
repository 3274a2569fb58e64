import type { Prng } from "../../prng";

/**
 * TRES's Q-function: a small multilayer perceptron on typed arrays, input → one hidden ReLU
 * layer → one linear output Q(s, a). Trained by Adam on the Huber loss of (Q(x) − y), one
 * minibatch at a time (tres-ddqn.ts builds the targets y). Weights start from He-uniform draws
 * of the crawl's PRNG, so a seeded crawl builds the same network every time.
 */

/** Plain JSON state of a {@link QNetwork} (weights and Adam moments as number arrays). */
export interface QNetworkState {
  readonly inputs: number;
  readonly hidden: number;
  readonly weights: number[];
  readonly m: number[];
  readonly v: number[];
  readonly steps: number;
}

export interface QNetworkOptions {
  readonly learningRate: number;
  /** Errors beyond it count linearly (Huber loss): one surprising page cannot swing the network. */
  readonly huberDelta: number;
}

const BETA1 = 0.9;
const BETA2 = 0.999;
const EPSILON = 1e-8;

export class QNetwork {
  /** Layout: W1 (hidden × inputs, row-major), b1 (hidden), w2 (hidden), b2 (1). */
  readonly weights: Float64Array;
  private readonly m: Float64Array;
  private readonly v: Float64Array;
  private steps = 0;
  private readonly activations: Float64Array;
  private readonly gradient: Float64Array;

  private constructor(
    readonly inputs: number,
    readonly hidden: number,
    private readonly options: QNetworkOptions,
  ) {
    const size = hidden * inputs + 2 * hidden + 1;
    this.weights = new Float64Array(size);
    this.m = new Float64Array(size);
    this.v = new Float64Array(size);
    this.activations = new Float64Array(hidden);
    this.gradient = new Float64Array(size);
  }

  /** He-uniform hidden weights, small output weights, zero biases. */
  static create(inputs: number, hidden: number, prng: Prng, options: QNetworkOptions): QNetwork {
    const network = new QNetwork(inputs, hidden, options);
    const hiddenLimit = Math.sqrt(6 / inputs);
    const outputLimit = Math.sqrt(6 / hidden) * 0.1;
    for (let i = 0; i < hidden * inputs; i++) network.weights[i] = (2 * prng.next() - 1) * hiddenLimit;
    const w2 = hidden * inputs + hidden;
    for (let j = 0; j < hidden; j++) network.weights[w2 + j] = (2 * prng.next() - 1) * outputLimit;
    return network;
  }

  static fromState(state: QNetworkState, options: QNetworkOptions): QNetwork {
    const network = new QNetwork(state.inputs, state.hidden, options);
    const size = network.weights.length;
    if (![state.weights, state.m, state.v].every((array) => Array.isArray(array) && array.length === size)) {
      throw new TypeError(`Invalid Q network state: expected ${size} weights and Adam moments for ${state.inputs} inputs and ${state.hidden} hidden units`);
    }
    network.weights.set(state.weights);
    network.m.set(state.m);
    network.v.set(state.v);
    network.steps = state.steps;
    return network;
  }

  toState(): QNetworkState {
    return { inputs: this.inputs, hidden: this.hidden, weights: Array.from(this.weights), m: Array.from(this.m), v: Array.from(this.v), steps: this.steps };
  }

  /** Copies another network's weights (the DDQN target network's periodic sync). */
  copyWeightsFrom(other: QNetwork): void {
    this.weights.set(other.weights);
  }

  /** Q of one input vector (length `inputs`, read from `offset`). */
  predict(x: ArrayLike<number>, offset = 0): number {
    const { inputs, hidden, weights } = this;
    const b1 = hidden * inputs;
    const w2 = b1 + hidden;
    let out = weights[w2 + hidden]!;
    for (let j = 0; j < hidden; j++) {
      let z = weights[b1 + j]!;
      const row = j * inputs;
      for (let i = 0; i < inputs; i++) z += weights[row + i]! * x[offset + i]!;
      if (z > 0) out += weights[w2 + j]! * z;
    }
    return out;
  }

  /**
   * One Adam step on the mean Huber loss of a minibatch: `xs[k]` the inputs, `ys[k]` their targets.
   * Returns the mean loss before the step.
   */
  train(xs: readonly ArrayLike<number>[], ys: readonly number[]): number {
    const { inputs, hidden, weights, activations, gradient } = this;
    const b1 = hidden * inputs;
    const w2 = b1 + hidden;
    const b2 = w2 + hidden;
    gradient.fill(0);
    let loss = 0;
    const n = xs.length;
    for (let k = 0; k < n; k++) {
      const x = xs[k]!;
      let out = weights[b2]!;
      for (let j = 0; j < hidden; j++) {
        let z = weights[b1 + j]!;
        const row = j * inputs;
        for (let i = 0; i < inputs; i++) z += weights[row + i]! * x[i]!;
        const a = z > 0 ? z : 0;
        activations[j] = a;
        out += weights[w2 + j]! * a;
      }
      const error = out - ys[k]!;
      const delta = this.options.huberDelta;
      loss += Math.abs(error) <= delta ? 0.5 * error * error : delta * (Math.abs(error) - 0.5 * delta);
      const dOut = (Math.abs(error) <= delta ? error : Math.sign(error) * delta) / n;
      gradient[b2] = gradient[b2]! + dOut;
      for (let j = 0; j < hidden; j++) {
        const a = activations[j]!;
        if (a <= 0) continue;
        gradient[w2 + j] = gradient[w2 + j]! + dOut * a;
        const dz = dOut * weights[w2 + j]!;
        gradient[b1 + j] = gradient[b1 + j]! + dz;
        const row = j * inputs;
        for (let i = 0; i < inputs; i++) gradient[row + i] = gradient[row + i]! + dz * x[i]!;
      }
    }
    this.adamStep();
    return loss / n;
  }

  private adamStep(): void {
    const { weights, m, v, gradient } = this;
    this.steps += 1;
    const rate = (this.options.learningRate * Math.sqrt(1 - BETA2 ** this.steps)) / (1 - BETA1 ** this.steps);
    for (let i = 0; i < weights.length; i++) {
      const g = gradient[i]!;
      m[i] = BETA1 * m[i]! + (1 - BETA1) * g;
      v[i] = BETA2 * v[i]! + (1 - BETA2) * g * g;
      weights[i] = weights[i]! - (rate * m[i]!) / (Math.sqrt(v[i]!) + EPSILON);
    }
  }
}
