/**
 * Change-rate estimation under incomplete observation (Cho & Garcia-Molina, "Estimating
 * frequency of change", 2003). A page revisited at intervals shows only whether it changed at
 * least once since the last visit, not how many times: the naive rate X / (n · I) undercounts a
 * page that changes more often than it is visited. Modelling changes as a Poisson process of
 * rate λ, a visit after an interval I finds a change with probability 1 − e^(−λI); their
 * estimator, with n visits, X of them finding a change,
 *
 *   λ̂ = −ln((n − X + 0.5) / (n + 0.5)) / I
 *
 * is nearly unbiased, and finite when every visit found a change (X = n).
 */

/**
 * λ̂ in changes per millisecond: `visits` visits at a mean `intervalMs` apart, `changes` of them
 * finding a change. 0 without visits or without a positive interval (nothing is known).
 */
export function estimateChangeRate(visits: number, changes: number, intervalMs: number): number {
  if (!(visits > 0) || !(intervalMs > 0)) return 0;
  const detected = Math.min(Math.max(changes, 0), visits);
  const rate = -Math.log((visits - detected + 0.5) / (visits + 0.5)) / intervalMs;
  return rate > 0 ? rate : 0; // not −0 when no change was seen
}

/** The probability that a page changing at `ratePerMs` changed at least once in `intervalMs`: 1 − e^(−λI). */
export function changeProbability(ratePerMs: number, intervalMs: number): number {
  if (!(ratePerMs > 0) || !(intervalMs > 0)) return 0;
  return 1 - Math.exp(-ratePerMs * intervalMs);
}
