import type { CrawlConfig } from "../../crawl-config";

type Params = CrawlConfig["params"];

/**
 * The settings that turn every Forage addition off, leaving the paper's SB-CLASSIFIER exactly as
 * docs/ALGORITHM.md states it: a uniformly random link of the chosen action, the raw AUER bonus
 * α·sqrt(ln t / n) with t the counted requests, HNSW grouping at θ, the URL classifier with its
 * HEAD bootstrap and immediate downloads of new targets. Each key names one addition; the engine
 * or the SB strategy checks it, so `sb` can also switch any single one off (bench `--params`).
 *
 * What stays on for `sb-paper` because it is not a choice of the algorithm but the engine every
 * strategy shares (BFS included): link extraction details (`<base>`, `<meta>` refresh), redirects
 * followed hop by hop, a failed pull counted as a selection with reward 0 (ALGORITHM.md step 5),
 * politeness, robots.txt, size caps, and the fallback to GET typing on a server that refuses HEAD
 * (without it such a site ends on its first page).
 */
export const SB_PAPER_PARAMS = {
  /** The paper draws one link uniformly within the action. */
  linkRankSamples: 1,
  /** AUER's bonus, unscaled. */
  rewardScaledExploration: false,
  /** No damping of actions that never paid. */
  dampBarrenExploration: false,
  /** Links come from pages only. */
  useSitemaps: false,
  /** An action is its tag-path group, never split by URL. */
  splitActionsByUrlShape: false,
  /** A link keeps the action it was first seen in. */
  regroupRediscoveredLinks: false,
  /** A page's reward goes to the action that pulled it only (no long-term credit). */
  longTermCreditDiscount: 0,
  /** The bandit alone chooses the action. */
  urlOutlookWeight: 0,
  /** Every link is fetched, whatever its URL shape answered before. */
  skipDeadUrlShapes: false,
  /** Every query variant is fetched. */
  skipRedundantQueryVariants: false,
  /** A page pull that was a target counts reward 0, as a failed pull. */
  rewardPulledTargets: false,
  /** Redirected GETs give the classifier no label. */
  labelRedirectedLinks: false,
  /** Tag paths keep classes and ids as the page has them. */
  stableTagPathClasses: false,
  /** Nothing off the site is fetched, redirects included. */
  followRedirectsOffSite: false,
  /** The paper's nearest-action search. */
  groupIndex: "hnsw",
  /** The paper's AUER score. */
  policy: "auer",
} as const satisfies Partial<Params>;

/**
 * The settings the engine runs a crawl with: for `sb-paper`, the crawl's own with
 * {@link SB_PAPER_PARAMS} on top (whatever the stored settings say: `sb-paper` means the paper);
 * any other strategy runs its settings unchanged.
 */
export function effectiveConfig(config: CrawlConfig): CrawlConfig {
  if (config.strategy !== "sb-paper") return config;
  return { ...config, params: { ...config.params, ...SB_PAPER_PARAMS } };
}
