/**
 * Efficiency numbers of a crawl from the request number at which each target was fetched
 * (ALGORITHM.md "Metrics"): requests to reach a fraction of a reference target count, and
 * the targets-after-N-requests curve used to compare strategies at every budget.
 */

/** Request count at which ceil(fraction × total) targets had been fetched; null if never. */
export function requestsToReach(targetRequestSeqs: readonly number[], total: number, fraction: number): number | null {
  if (total <= 0) return null;
  const need = Math.max(1, Math.ceil(total * fraction - 1e-9));
  if (targetRequestSeqs.length < need) return null;
  const sorted = [...targetRequestSeqs].sort((a, b) => a - b);
  return sorted[need - 1]!;
}

/** Targets fetched after each multiple of `step` requests, up to `maxRequests`. */
export function targetsCurve(targetRequestSeqs: readonly number[], maxRequests: number, step: number): number[] {
  const sorted = [...targetRequestSeqs].sort((a, b) => a - b);
  const curve: number[] = [];
  let index = 0;
  for (let requests = step; requests <= maxRequests; requests += step) {
    while (index < sorted.length && sorted[index]! <= requests) index += 1;
    curve.push(index);
  }
  return curve;
}

/**
 * The first request count (a multiple of `step`) after which `candidate` never again has
 * fewer targets than `reference`, or null when it is behind at the end. Both curves are
 * taken on the same steps; past the end of a crawl its last value holds.
 */
export function atLeastAsGoodAfter(candidate: readonly number[], reference: readonly number[], step: number): number | null {
  const length = Math.max(candidate.length, reference.length);
  const at = (curve: readonly number[], i: number) => curve[Math.min(i, curve.length - 1)] ?? 0;
  let lastBehind = -1;
  for (let i = 0; i < length; i++) if (at(candidate, i) < at(reference, i)) lastBehind = i;
  if (lastBehind === length - 1) return null;
  // Index i is the count after (i + 1) × step requests; the first count never behind is i + 2.
  return lastBehind === -1 ? 0 : (lastBehind + 2) * step;
}
