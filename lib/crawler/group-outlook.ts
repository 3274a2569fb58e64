/**
 * A group's URL outlook: what the URLs of its unvisited links promise, added to its AUER score
 * when the SB bandit chooses (sb-strategy.ts, `urlOutlookWeight`; Forage's addition).
 *
 * The bandit judges a group by the mean reward of its past pulls. Where pages with targets are
 * rare, every group that leads towards them scores ~0 (a documentation section's child lists
 * link index pages, not the dossiers), and AUER explores each zero group ≈ α² ln t times. The
 * URL statistics learned in the same crawl (path-segment rates, 2-gram scorer) know more: "the
 * pages under /proceedings/…/…/ gave targets". So each asked group draws {@link OUTLOOK_SAMPLES}
 * of its links, takes the best rank r (a naive-Bayes log-ratio: e^r ≈ how many times an average
 * page's chance of giving targets that link has) and adds
 *
 *   weight × rewardScale × (e^min(r, {@link MAX_OUTLOOK_LOG_RATIO}) − 1)
 *
 * where rewardScale is the mean reward per pull so far: the link's expected reward above an
 * average pull's, in the units of the group means. A group whose links look average gains
 * nothing; one whose links all look worse than average loses up to weight × rewardScale.
 *
 * Measured (tuning harness, small sites, seeds 1–8, requests to 90 % ÷ the paper's BFS; weight
 * 0 → 3): statistics office 0.50 → 0.47, deep archive 0.82 → 0.75, open data 0.50 → 0.51;
 * weight 1 or 10, 8 samples, α = 2 all within ±0.03 of weight 3 with 4 samples.
 */
export const OUTLOOK_SAMPLES = 4;
/** e^5 ≈ 148 times an average page's chance: beyond, a single lucky token should not decide. */
export const MAX_OUTLOOK_LOG_RATIO = 5;

/** The outlook of a group whose best sampled link ranks `bestLogRatio` (−∞: nothing to rank). */
export function groupOutlook(bestLogRatio: number, weight: number, rewardScale: number): number {
  return weight * rewardScale * (Math.exp(Math.min(bestLogRatio, MAX_OUTLOOK_LOG_RATIO)) - 1);
}
