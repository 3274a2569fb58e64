/**
 * Do two Poisson rates differ? The conditional exact test (Przyborowski and Wilenski 1940): given
 * the total count S = x + y of two Poisson samples observed over exposures m and n, x is
 * Binomial(S, m / (m + n)) when the rates are equal. The two-sided p-value is twice the smaller
 * tail at x (at most 1). Exact for small counts, where the chi-square approximation of a
 * likelihood-ratio test is not valid, so no minimum count is needed: few observations simply
 * cannot give a small p-value.
 *
 * Here: x targets over m pulls of one URL shape of an action, y over n pulls of its other shapes.
 */

/** ln k! for k = 0, 1, …, grown on demand. */
const logFactorials: number[] = [0];

function logFactorial(k: number): number {
  for (let i = logFactorials.length; i <= k; i++) logFactorials.push(logFactorials[i - 1]! + Math.log(i));
  return logFactorials[k]!;
}

/** ln P(X = k), X ~ Binomial(total, p), 0 < p < 1. */
function logBinomial(k: number, total: number, p: number): number {
  return logFactorial(total) - logFactorial(k) - logFactorial(total - k) + k * Math.log(p) + (total - k) * Math.log1p(-p);
}

/**
 * P(X ≥ k) (`upper`) or P(X ≤ k) for X ~ Binomial(total, p). Summed from k away from the mean,
 * where terms only shrink, stopping once they no longer change the sum.
 */
function binomialTail(k: number, total: number, p: number, upper: boolean): number {
  let sum = 0;
  for (let i = k; upper ? i <= total : i >= 0; i += upper ? 1 : -1) {
    const term = Math.exp(logBinomial(i, total, p));
    sum += term;
    if (term < sum * 1e-12) break;
  }
  return Math.min(1, sum);
}

/** Two-sided p-value of "rate x/m equals rate y/n" for Poisson counts x, y over exposures m, n > 0. */
export function poissonRatesPValue(x: number, m: number, y: number, n: number): number {
  if (!(m > 0) || !(n > 0)) return 1;
  const total = x + y;
  if (total === 0) return 1;
  const p = m / (m + n);
  const expected = total * p;
  // Only the tail on x's side of the mean can be small; the other one is ≥ 1/2.
  const tail = x >= expected ? binomialTail(x, total, p, true) : binomialTail(x, total, p, false);
  return Math.min(1, 2 * tail);
}
