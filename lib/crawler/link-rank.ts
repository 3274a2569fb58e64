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
 * decided alone: on a code forge, histories and blame views of files (which never lead to a
 * target) outranked permalinks to data files by hundreds of log-odds. Capped, the scorer moves a
 * link by at most 3 nats either way and the segment statistics, which learn the same thing per
 * path segment instead of per character pair, keep their say. What the cap and the weight are
 * worth is in docs/BENCHMARKS.md ("What each default is worth").
 */

/**
 * Weight of the 2-gram scorer next to the path-segment log-ratio: the segments decide, the
 * 2-grams break their ties and speak for URLs whose segments are new.
 */
export const SCORER_WEIGHT = 0.1;
/** ±30 log-odds, i.e. ±3 nats of rank once weighted. */
export const SCORER_LOGIT_CAP = 30;

/** The rank of a link from its path-segment log-ratio and the scorer's log-odds. */
export function linkRank(segmentLogRatio: number, scorerLogit: number): number {
  return segmentLogRatio + SCORER_WEIGHT * Math.max(-SCORER_LOGIT_CAP, Math.min(SCORER_LOGIT_CAP, scorerLogit));
}
