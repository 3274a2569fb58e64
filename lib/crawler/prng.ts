/**
 * Seeded pseudo-random generator: every random choice of a crawl goes through one
 * `Prng`, so a crawl with the same seed on the same site makes the same choices, and a
 * checkpointed crawl resumes with the exact same sequence (`toState`/`fromState`).
 *
 * sfc32 (Chris Doty-Humphrey's Small Fast Counting generator): 128-bit state, passes
 * PractRand, and needs only 32-bit integer ops, which V8 keeps in registers.
 * `Math.random` was rejected because it cannot be seeded or checkpointed; xoshiro128**
 * would do equally well but needs a non-zero-state guard that sfc32's counter avoids.
 */

/** Plain JSON state of a {@link Prng}: four unsigned 32-bit words. */
export interface PrngState {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
}

const TWO_POW_32 = 4294967296;

/** splitmix32: spreads a (possibly tiny or sequential) seed over all 32 bits. */
function splitmix32(state: number): { state: number; value: number } {
  const next = (state + 0x9e3779b9) | 0;
  let z = next;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  z ^= z >>> 16;
  return { state: next, value: z >>> 0 };
}

function isUint32(value: unknown): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < TWO_POW_32;
}

export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  private constructor(a: number, b: number, c: number, d: number) {
    this.a = a | 0;
    this.b = b | 0;
    this.c = c | 0;
    this.d = d | 0;
  }

  /**
   * A generator from a 32-bit integer seed (other numbers are truncated to their low
   * 32 bits). Seeds 0, 1, 2… give unrelated streams thanks to splitmix32 expansion.
   */
  static fromSeed(seed: number): Prng {
    let s = Math.trunc(Number.isFinite(seed) ? seed : 0) | 0;
    const words: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = splitmix32(s);
      s = r.state;
      words.push(r.value);
    }
    const prng = new Prng(words[0]!, words[1]!, words[2]!, words[3]!);
    // 12 warm-up rounds, as sfc32's author recommends, so that the first outputs do
    // not reflect the seeding.
    for (let i = 0; i < 12; i++) prng.nextUint32();
    return prng;
  }

  /** Restores a generator saved by {@link toState}; throws `TypeError` on a malformed state. */
  static fromState(state: PrngState): Prng {
    if (!state || !isUint32(state.a) || !isUint32(state.b) || !isUint32(state.c) || !isUint32(state.d)) {
      throw new TypeError("Invalid PRNG state: expected four unsigned 32-bit integers a, b, c, d");
    }
    return new Prng(state.a, state.b, state.c, state.d);
  }

  /** Plain JSON snapshot; `Prng.fromState(p.toState())` continues the same sequence. */
  toState(): PrngState {
    return { a: this.a >>> 0, b: this.b >>> 0, c: this.c >>> 0, d: this.d >>> 0 };
  }

  /** Next unsigned 32-bit integer, uniform on [0, 2^32). */
  nextUint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float on [0, 1) with 32 bits of randomness. */
  next(): number {
    return this.nextUint32() / TWO_POW_32;
  }

  /**
   * Uniform integer on [0, n), unbiased: `floor(next() * n)` over-weights some values
   * when n does not divide 2^32, so draws at or above the largest multiple of n are
   * rejected (at most one retry in two on average, in practice almost never).
   * @param n integer in [1, 2^32]
   */
  nextInt(n: number): number {
    if (!Number.isInteger(n) || n < 1 || n > TWO_POW_32) {
      throw new RangeError(`nextInt(n) needs an integer n in [1, 2^32], got ${n}`);
    }
    const limit = TWO_POW_32 - (TWO_POW_32 % n);
    for (;;) {
      const r = this.nextUint32();
      if (r < limit) return r % n;
    }
  }

  /** Fisher–Yates shuffle in place (uniform over permutations); returns `items`. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = this.nextInt(i + 1);
      const tmp = items[i]!;
      items[i] = items[j]!;
      items[j] = tmp;
    }
    return items;
  }
}
