import type { CrawlConfig } from "../crawl-config";
import type { PathSegmentStatsState } from "../path-segment-stats";
import { Prng } from "../prng";
import type { SleepingBanditState } from "../sleeping-bandit";
import { UrlClassifier } from "../url-classifier";
import { ENGINE_STATE_VERSION, type EngineState } from "./engine-state";
import { LinkTable } from "./link-table";
import { FORGETTING_FACTOR, type LearnedState } from "./recrawl-basis";
import { createStrategy } from "./strategies/create-strategy";
import { restoreStrategy } from "./strategies/restore-strategy";
import type { CrawlStrategy } from "./strategies/strategy";
import type { CrawlCounters } from "./types";

/** Strategies whose bandit a re-crawl may reuse, by family: sb-paper's raw AUER bandit is not sb's. */
const SB_FAMILY: Record<string, string> = { sb: "sb", "sb-oracle": "sb", "sb-paper": "sb-paper" };

/**
 * The engine state a re-crawl starts from: the previous run's model (tag-path groups with their
 * centroids, the bandit's statistics scaled by `forgetting`, the URL classifier, the link scorer
 * and URL-segment statistics, dead URL shapes and redundant query pairs), a new PRNG from the
 * crawl's seed, no counters, and a frontier holding only the pages to revisit first (filed into
 * their groups, so the bandit draws the ones of groups that paid first). Everything else is found
 * again from the root. The bandit model is reused only between SB runs; other strategies start
 * with their own empty frontier.
 */
export function startingState(learned: LearnedState | null, config: CrawlConfig, counters: CrawlCounters, forgetting = FORGETTING_FACTOR): EngineState {
  const run = (learned?.changeHistory?.runs ?? 1) + 1;
  const prng = Prng.fromSeed(config.seed);
  const links = new LinkTable(config.params.maxSeenUrls);
  const previous = learned?.engine ?? null;
  let strategy: CrawlStrategy;
  if (previous && SB_FAMILY[config.strategy] !== undefined && SB_FAMILY[config.strategy] === SB_FAMILY[previous.strategy]) {
    const sb = previous.strategyState as { bandit: SleepingBanditState; segments?: PathSegmentStatsState; waiting: number };
    strategy = restoreStrategy(config, prng, links, {
      ...sb,
      bandit: forgetBandit(sb.bandit, forgetting),
      segments: sb.segments ? forgetSegments(sb.segments, forgetting) : undefined,
      waiting: 0,
    });
  } else {
    strategy = createStrategy(config, prng, links);
  }
  for (const page of learned?.revisit ?? []) {
    if (page.url === config.rootUrl || !links.markSeen(page.url)) continue;
    strategy.add(links.createLink({ url: page.url, tagPath: page.tagPath, anchorText: "", depth: page.depth, referrer: null, groupId: null }));
  }
  const classifier = previous?.classifier ?? new UrlClassifier({ prng: Prng.fromSeed(config.seed) }).toState();
  return {
    version: ENGINE_STATE_VERSION,
    strategy: config.strategy,
    seed: config.seed,
    rootDone: false,
    counters,
    prng: prng.toState(),
    links: links.toState(),
    strategyState: strategy.toState(),
    classifier,
    earlyStop: null,
    // Shapes keep their verdicts (a dead one is still probed, and revived by one useful answer); their parked links are the old run's.
    deadShapes: previous?.deadShapes ? { useful: previous.deadShapes.useful, useless: previous.deadShapes.useless } : null,
    queryVariants: previous?.queryVariants ?? null,
    storedTargetBytes: 0,
    // The runs' listing entries so far: this run compares its entries with them and overwrites them.
    listingEntries: previous?.listingEntries,
    // The pages' fingerprints so far: this run compares its revisits with them and overwrites them.
    pageFingerprints: previous?.pageFingerprints,
    pageValidators: previous?.pageValidators,
    run,
  };
}

/** Pull counts and reward sums scaled by `factor` (means kept), links dropped: the old run's confidence halves. */
export function forgetBandit(state: SleepingBanditState, factor: number): SleepingBanditState {
  return {
    ...state,
    actions: state.actions.map((action) => {
      const selections = Math.round(action.selections * factor);
      return {
        selections,
        meanReward: selections > 0 ? action.meanReward : 0,
        totalReward: selections > 0 ? action.meanReward * selections : 0,
        fertilePulls: Math.min(selections, Math.round((action.fertilePulls ?? 0) * factor)),
        links: [],
      };
    }),
  };
}

/** URL-segment pull and success counts scaled by `factor` (whole numbers: they are Uint32 counters). */
export function forgetSegments(state: PathSegmentStatsState, factor: number): PathSegmentStatsState {
  const scale = (n: number) => Math.round(n * factor);
  return {
    pulls: scale(state.pulls),
    successes: Math.min(scale(state.pulls), scale(state.successes)),
    buckets: state.buckets.map(([bucket, pulls, successes]) => [bucket, scale(pulls), Math.min(scale(pulls), scale(successes))] as [number, number, number]).filter(([, pulls]) => pulls > 0),
  };
}
