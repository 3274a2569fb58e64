/**
 * Seeded randomness for the site simulator.
 *
 * Pages are generated lazily from ids, so most randomness is *addressed*: a page's
 * choices come from `new Rng(hash32(siteSeed, KIND, id))` rather than from one stream
 * consumed in crawl order. That keeps a page identical whichever order it is requested in.
 */

/** murmur3's finaliser: a cheap 32-bit avalanche. */
export function mix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Hash up to four 32-bit integers into one; order matters. */
export function hash32(a: number, b = 0, c = 0, d = 0): number {
  let h = mix32((a ^ 0x9e3779b9) >>> 0);
  h = mix32((h ^ Math.imul(b | 0, 0xcc9e2d51)) + 0x1b873593);
  h = mix32((h ^ Math.imul(c | 0, 0x1b873593)) + 0xe6546b64);
  h = mix32((h ^ Math.imul(d | 0, 0x85ebca6b)) + 0x2545f491);
  return h;
}

/** mulberry32: tiny, fast, good enough for layout decisions (not for cryptography). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  u32(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  /** Uniform integer in [lo, hi] (inclusive). */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("Rng.pick on an empty list");
    return items[this.int(items.length)] as T;
  }

  /** Log-uniform in [lo, hi]: file sizes are spread over orders of magnitude. */
  logUniform(lo: number, hi: number): number {
    return Math.round(Math.exp(Math.log(lo) + this.float() * (Math.log(hi) - Math.log(lo))));
  }
}

/** Multiplicative inverse of an odd number modulo 2^32 (Newton iteration). */
function inverseOdd(a: number): number {
  let x = a;
  for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x));
  return x >>> 0;
}

const SCRAMBLE = 0x2c1b3c6d | 1;
const UNSCRAMBLE = inverseOdd(SCRAMBLE);

/**
 * Reversible id obfuscation for opaque URLs like `/file/8f3a2c1d`: real CMSs expose hashes,
 * and the crawler must not be able to guess a type from them. Reversible so routing needs no table.
 */
export function scrambleId(id: number): string {
  return (Math.imul(id ^ 0x5bd1e995, SCRAMBLE) >>> 0).toString(16).padStart(8, "0");
}

/** Inverse of {@link scrambleId}; NaN when the token is not 8 hex digits. */
export function unscrambleId(token: string): number {
  if (!/^[0-9a-f]{8}$/.test(token)) return Number.NaN;
  return ((Math.imul(parseInt(token, 16), UNSCRAMBLE) >>> 0) ^ 0x5bd1e995) >>> 0;
}
