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
 * Four samples and weight 3: the outlook helps where one section holds the targets and costs
 * nothing elsewhere; more samples or another weight measured no better (docs/BENCHMARKS.md,
 * "what each default is worth").
 */
export const OUTLOOK_SAMPLES = 4;
/** e^5 ≈ 148 times an average page's chance: beyond, a single lucky token should not decide. */
export const MAX_OUTLOOK_LOG_RATIO = 5;

/** The outlook of a group whose best sampled link ranks `bestLogRatio` (−∞: nothing to rank). */
export function groupOutlook(bestLogRatio: number, weight: number, rewardScale: number): number {
  return weight * rewardScale * (Math.exp(Math.min(bestLogRatio, MAX_OUTLOOK_LOG_RATIO)) - 1);
}
