/**
 * Index policies of the sleeping bandit for count rewards (a pull's reward is a number of new
 * targets, 0, 1, 2, …, unbounded), besides the paper's AUER (sleeping-bandit.ts):
 *
 * - `kl-ucb` (Cappé, Garivier, Maillard, Munos, Stoltz 2013), Poisson family: the index of an
 *   action with mean μ over n pulls at t counted requests is the largest q ≥ μ with
 *   n · KL(μ, q) ≤ ln t. Its confidence bound follows the shape of a count distribution, where
 *   AUER's √(ln t / n) is the bound of rewards in [0, 1] and is far too wide or too narrow for
 *   counts depending on the site.
 * - `thompson`: Thompson sampling with the Gamma–Poisson conjugate model. An action's rate λ has
 *   the prior Gamma(shape {@link GAMMA_PRIOR_SHAPE}, rate {@link GAMMA_PRIOR_RATE}); after n pulls
 *   with total reward S its posterior is Gamma(shape + S, rate + n). Each choice draws one λ per
 *   awake action from its posterior (with the crawl's PRNG) and takes the highest. An action
 *   with a few unlucky pulls keeps a posterior wide enough to be drawn again, so it is not
 *   starved the way a point estimate with a shrinking bonus starves it.
 */
import type { Prng } from "./prng";

export const BANDIT_POLICIES = ["auer", "thompson", "kl-ucb"] as const;
export type BanditPolicy = (typeof BANDIT_POLICIES)[number];

/**
 * Prior of Thompson sampling: Gamma(1, 1), an exponential with mean one target per pull, as if
 * each action had been pulled once and given one target. Optimistic on purpose: a new action is
 * tried before its posterior can fall under a sparse site's paying actions; each barren pull then
 * divides its expected rate by (1 + n).
 */
export const GAMMA_PRIOR_SHAPE = 1;
export const GAMMA_PRIOR_RATE = 1;

/** KL divergence of Poisson(p) from Poisson(q): q − p + p ln(p / q) (p ln p = 0 at p = 0). */
export function poissonKl(p: number, q: number): number {
  if (p === 0) return q;
  return q - p + p * Math.log(p / q);
}

/**
 * KL-UCB index for Poisson rewards: the largest q ≥ mean with n · KL(mean, q) ≤ ln t; +∞ for an
 * action never pulled, the mean when ln t ≤ 0. Newton's method from an upper bound (KL(p, q) ≥
 * (q − p)² / (2q) for q ≥ p gives q₀ = p + L + √(L² + 2pL), L = ln t / n): the function is convex
 * and increasing above the mean, so the iterates fall monotonically onto the root, in ≈ 5 steps.
 */
export function klUcbPoissonIndex(mean: number, n: number, logT: number): number {
  if (n <= 0) return Infinity;
  if (logT <= 0) return mean;
  const level = logT / n;
  let q = mean + level + Math.sqrt(level * level + 2 * mean * level);
  for (let step = 0; step < 60; step++) {
    const f = poissonKl(mean, q) - level;
    const slope = 1 - mean / q; // d/dq KL(mean, q)
    if (f <= 0 || slope <= 0) return q;
    const next = q - f / slope;
    if (q - next <= 1e-12 * q) return next;
    q = next;
  }
  return q;
}

/** A standard normal draw (Box–Muller; the second value is dropped so that draws stay one per call). */
function normal(prng: Prng): number {
  const u = 1 - prng.next(); // (0, 1]
  const v = prng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * A Gamma(shape, rate) draw (mean shape / rate) by Marsaglia and Tsang's method; shape < 1 by
 * drawing Gamma(shape + 1) and multiplying by U^(1/shape).
 */
export function sampleGamma(shape: number, rate: number, prng: Prng): number {
  if (!(shape > 0) || !(rate > 0)) throw new RangeError(`Gamma needs shape > 0 and rate > 0, got ${shape}, ${rate}`);
  if (shape < 1) return sampleGamma(shape + 1, rate, prng) * Math.pow(1 - prng.next(), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normal(prng);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = 1 - prng.next();
    if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) return (d * v) / rate;
  }
}

/** The Gamma posterior of an action's rate after `pulls` pulls with `totalReward` targets. */
export function gammaPosterior(totalReward: number, pulls: number): { shape: number; rate: number } {
  return { shape: GAMMA_PRIOR_SHAPE + totalReward, rate: GAMMA_PRIOR_RATE + pulls };
}
