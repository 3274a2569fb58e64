/**
 * How SB ranks a link inside the group its bandit picked (sb-strategy.ts), and what a group's URL
 * outlook is made of (group-outlook.ts): the path-segment log-ratio (path-segment-stats.ts) plus
 * {@link SCORER_WEIGHT} × the 2-gram scorer's log-odds (link-scorer.ts), the log-odds capped at
 * ±{@link SCORER_LOGIT_CAP}.
 *
 * Why the cap. The scorer is trained by SGD with scikit-learn's 'optimal' rate on raw bigram
 * counts: the first steps have η = 10, and a URL of 100 characters has ~100 bigrams, so after a
 * few batches its log-odds run into the hundreds. FOCUSED only sorts by them, so there the scale
 * does not matter; here they are added to a log-ratio of a few nats, and uncapped the 2-grams
 * decided alone. Traced on the code forge (seed 1): a file's history, segment log-ratio −0.45 and
 * log-odds −928.5, ranked above a Permalink to a data file at a commit, +2.18 and −1 089; the
 * history pages never gave a target, the Permalinks did, and the forge's group of file-header
 * buttons (Raw, Permalink, Blame, History) spent ≈ 310 of its 428 pulls on histories, blames and
 * source views. Capped, the scorer moves a link by at most 3 nats either way and the segment
 * statistics, which learn the same thing per path segment instead of per character pair, keep
 * their say.
 *
 * Measured (tuning harness: sb, small sites, seeds 1–16 on three port ranges, requests to 90 % of
 * the targets ÷ the paper's BFS, means of 48 runs; docs/BENCHMARKS.md), uncapped → cap 30: deep
 * archive 0.615 → 0.524, wiki 0.314 → 0.250, code forge 0.453 → 0.393, statistics office and open
 * data −0.007, documentation site +0.008, the others within ±0.002. On two of the port ranges,
 * cap 10 cost the ministry portal +0.06 and cap 20 measured like 30 within the noise.
 */

/**
 * Weight of the 2-gram scorer next to the path-segment log-ratio. Measured in the third session
 * (uncapped, 3 seeds, small sites, ÷ Forage's BFS): 2-grams alone 0.58 / 0.40 / 0.65 / 0.95 / 0.27
 * (statistics, ministry, open data, deep sparse, newspaper); segments alone 0.58 / 0.40 / 0.71 /
 * 0.94 / 0.17; weight 1: 0.58 / 0.38 / 0.66 / 0.89 / 0.23; weight 0.1: 0.57 / 0.40 / 0.66 / 0.86 / 0.17.
 */
export const SCORER_WEIGHT = 0.1;
/** ±30 log-odds, i.e. ±3 nats of rank once weighted. */
export const SCORER_LOGIT_CAP = 30;

/** The rank of a link from its path-segment log-ratio and the scorer's log-odds. */
export function linkRank(segmentLogRatio: number, scorerLogit: number): number {
  return segmentLogRatio + SCORER_WEIGHT * Math.max(-SCORER_LOGIT_CAP, Math.min(SCORER_LOGIT_CAP, scorerLogit));
}
