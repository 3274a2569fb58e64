import { BANDIT_POLICIES } from "./bandit-policies";

/**
 * The algorithm's settings (a crawl's `params`), each written once: its default, its range, the
 * paper's value where there is one, and what it means. Everything else is derived from this table:
 * the zod schema (params-schema.ts), {@link ALGORITHM_DEFAULTS}, `sb-paper`'s settings
 * (engine/paper-faithful.ts), the values older stored crawls ran with (stored-crawl-config.ts) and
 * docs/SETTINGS.md (settings-doc.ts; a test keeps the page equal to its rendering).
 */

interface SettingRowBase<V> {
  /** What the setting does, one line (docs/SETTINGS.md). */
  readonly meaning: string;
  readonly default: V;
  /** The value of the paper (or of its authors' kit) where it has one. */
  readonly paperValue?: V;
  /**
   * `sb-paper` runs with `paperValue` whatever the crawl's settings say: a Forage addition turned
   * off, or the paper's own choice of method. Other paper values are only defaults.
   */
  readonly pinnedBySbPaper?: true;
  /**
   * The value a crawl stored before the setting existed ran with: resuming, replaying or showing
   * it must not switch it to the newer default halfway.
   */
  readonly valueBeforeItExisted?: V;
  /** Names the setting was stored under before; a stored crawl's old name is read as this one. */
  readonly formerNames?: readonly string[];
}

export interface NumberSettingRow extends SettingRowBase<number> {
  readonly kind: "number";
  readonly min: number;
  readonly max: number;
  /** The value itself is outside the range (`min < x`, `x < max`). */
  readonly minExclusive?: true;
  readonly maxExclusive?: true;
  readonly integer?: true;
  /** Bytes are shown in KiB/MiB/GiB in the docs. */
  readonly unit?: "bytes";
  /** The field message for a value below the range, when it says more than "must be at least min". */
  readonly belowMessage?: string;
  /** The field message for a value above the range, when it says more than "must be at most max". */
  readonly aboveMessage?: string;
}

export interface BooleanSettingRow extends SettingRowBase<boolean> {
  readonly kind: "boolean";
}

export interface ChoiceSettingRow<C extends string = string> extends SettingRowBase<C> {
  readonly kind: "choice";
  readonly choices: readonly C[];
}

export type SettingRow = NumberSettingRow | BooleanSettingRow | ChoiceSettingRow;

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

export const SETTINGS_TABLE = {
  // Tag-path groups (actions)
  similarityThreshold: {
    kind: "number", default: 0.75, paperValue: 0.75, min: 0, minExclusive: true, max: 1,
    meaning: "θ: minimum cosine similarity of a link's projected tag path to a group's centroid for the link to join that group",
  },
  groupIndex: {
    kind: "choice", choices: ["exact", "hnsw"], default: "exact", paperValue: "hnsw", pinnedBySbPaper: true,
    meaning: "Nearest-group search: exact (an inverted index over centroids, the true nearest) or hnsw (hnswlib's approximate index, as in the paper)",
  },
  hnswM: { kind: "number", default: 16, paperValue: 16, min: 2, max: 128, integer: true, meaning: "HNSW M: links per node of the nearest-group index (hnsw only)" },
  hnswEfConstruction: { kind: "number", default: 200, paperValue: 200, min: 1, max: 2000, integer: true, meaning: "HNSW efConstruction: search breadth when a group is added (hnsw only)" },
  hnswEf: { kind: "number", default: 10, paperValue: 10, min: 1, max: 2000, integer: true, meaning: "HNSW ef: search breadth of a query, k = 1 (hnsw only)" },
  stableTagPathClasses: {
    kind: "boolean", default: true, paperValue: false, pinnedBySbPaper: true, valueBeforeItExisted: false,
    meaning: "Per-page numbers and hashes in the classes and ids of tag paths are replaced (postid-123 → postid-N), so links in the same place share a tag path",
  },
  // The bandit
  policy: {
    kind: "choice", choices: BANDIT_POLICIES, default: "auer", paperValue: "auer", pinnedBySbPaper: true,
    meaning: "How the bandit chooses a group: auer (the paper's UCB score with α), kl-ucb (KL-UCB for Poisson counts) or thompson (Gamma–Poisson Thompson sampling)",
  },
  banditAlpha: {
    kind: "number", default: 2 * Math.SQRT2, paperValue: 2 * Math.SQRT2, min: 0, max: 100,
    meaning: "α: weight of the exploration term of the AUER score (2√2 ≈ 2.82843)",
  },
  rewardScaledExploration: {
    kind: "boolean", default: false, paperValue: false, pinnedBySbPaper: true, valueBeforeItExisted: false,
    meaning: "The exploration bonus is scaled by the mean reward per pull so far, so a sparse site is not explored round-robin",
  },
  barrenDamping: {
    kind: "boolean", default: true, paperValue: false, pinnedBySbPaper: true, valueBeforeItExisted: false, formerNames: ["dampBarrenExploration"],
    meaning: "A group that never gave a target has its bonus scaled by the share of its pulls that brought a new link of a group that has",
  },
  regroupRediscoveredLinks: {
    kind: "boolean", default: false, paperValue: false, pinnedBySbPaper: true, valueBeforeItExisted: false,
    meaning: "A waiting link that another page lists under a better-paying group moves to that group",
  },
  splitActionsByUrlShape: {
    kind: "boolean", default: true, paperValue: false, pinnedBySbPaper: true, valueBeforeItExisted: false,
    meaning: "A group whose links lead to URL shapes that pay clearly differently (exact test of two Poisson rates, 0.001 level) is split per shape",
  },
  urlOutlookWeight: {
    kind: "number", default: 3, paperValue: 0, pinnedBySbPaper: true, valueBeforeItExisted: 0, min: 0, max: 100, belowMessage: "must not be negative",
    meaning: "Weight, in the group choice, of what the URLs of a few of the group's links promise above an average page; 0 = the bandit alone",
  },
  linkRankSamples: {
    kind: "number", default: 32, paperValue: 1, pinnedBySbPaper: true, valueBeforeItExisted: 1, min: 1, max: 1024, integer: true,
    meaning: "Links drawn in the chosen group, of which the one whose URL looks most like paying pages' is crawled; 1 = uniformly random",
  },
  longTermCreditDiscount: {
    kind: "number", default: 0, paperValue: 0, pinnedBySbPaper: true, valueBeforeItExisted: 0, min: 0, max: 1, maxExclusive: true,
    aboveMessage: "must be below 1 (a discount γ in [0, 1))",
    meaning: "γ: a page's r new targets also credit γ·r, γ²·r… to the actions that led to it; 0 = the paper's immediate reward",
  },
  longTermCreditDepth: {
    kind: "number", default: 2, min: 1, max: 8, integer: true,
    meaning: "Ancestor actions that share a page's reward when longTermCreditDiscount > 0",
  },
  rewardPulledTargets: {
    kind: "boolean", default: true, paperValue: false, pinnedBySbPaper: true,
    meaning: "A page pull that turned out to be a kept target counts reward 1 for its group; the paper counts it as a failed pull (0)",
  },
  revisitsCompete: {
    kind: "boolean", default: false, valueBeforeItExisted: false,
    meaning: "A re-crawl revisits known pages in competition with fresh links (a class's expected finds against the best action's) instead of once the fresh frontier is empty",
  },
  // The URL classifier
  classifierBatchSize: { kind: "number", default: 10, paperValue: 10, min: 1, max: 10_000, integer: true, meaning: "b: labelled URLs per training pass of the URL classifier" },
  sgdAlpha: { kind: "number", default: 1e-4, paperValue: 1e-4, min: 0, minExclusive: true, max: 1, meaning: "L2 regularisation α of the SGD URL classifier" },
  labelRedirectedLinks: {
    kind: "boolean", default: true, paperValue: false, pinnedBySbPaper: true,
    meaning: "A link whose GET was redirected to a page or a target teaches the classifier that label for its own URL",
  },
  // Where links come from, and which are skipped
  useSitemaps: {
    kind: "boolean", default: true, paperValue: false, pinnedBySbPaper: true, valueBeforeItExisted: false,
    meaning: "The site's sitemaps are read after the root page and their URLs form a group of their own (SB crawls)",
  },
  followRedirectsOffSite: {
    kind: "boolean", default: true, paperValue: false, pinnedBySbPaper: true,
    meaning: "A site link's redirect to another host (a CDN, a bucket) is followed, and kept when it answers a target",
  },
  skipDeadUrlShapes: {
    kind: "boolean", default: true, paperValue: false, pinnedBySbPaper: true,
    meaning: "Links of a URL shape that answered 3 times with neither a page nor a target are set aside (a few still probed)",
  },
  skipRedundantQueryVariants: {
    kind: "boolean", default: true, paperValue: false, pinnedBySbPaper: true, valueBeforeItExisted: false,
    meaning: "Links that only add a query pair (?print=1) shown by two paths to add no link are skipped",
  },
  trapExtraLengthChars: { kind: "number", default: 350, paperValue: 350, min: 0, max: 100_000, integer: true, meaning: "Trap filter: a URL longer than the root URL by more than this many characters is skipped" },
  trapRepeatCount: { kind: "number", default: 3, paperValue: 3, min: 2, max: 1000, integer: true, meaning: "Trap filter: a URL in which one path segment or query key/value occurs this many times is skipped" },
  // Early stopping (the paper gives its shape, not its numbers)
  earlyStop: { kind: "boolean", default: true, meaning: "Stop when the smoothed targets per request stay below τ for P windows" },
  earlyStopWindowRequests: { kind: "number", default: 500, min: 10, max: 1_000_000, integer: true, meaning: "k: requests per early-stopping window" },
  earlyStopBeta: { kind: "number", default: 0.9, min: 0, max: 1, maxExclusive: true, meaning: "β: smoothing of the per-window slope (exponential moving average)" },
  earlyStopTargetsPerRequest: { kind: "number", default: 0.01, min: 0, max: 1, meaning: "τ: targets per request under which a window counts as low" },
  earlyStopPatienceWindows: { kind: "number", default: 10, min: 1, max: 1000, integer: true, meaning: "P: consecutive low windows before the crawl stops" },
  // Limits
  maxRedirects: { kind: "number", default: 10, min: 0, max: 50, integer: true, meaning: "Redirect hops followed per link, each a counted request" },
  maxTargetBytes: {
    kind: "number", default: 100 * MIB, min: 1, max: 64 * GIB, integer: true, unit: "bytes", aboveMessage: "must be at most 64 GiB",
    meaning: "Largest target file kept, counted decoded",
  },
  maxHtmlBytes: {
    kind: "number", default: 10 * MIB, min: 1, max: 256 * MIB, integer: true, unit: "bytes", aboveMessage: "must be at most 256 MiB",
    meaning: "Largest HTML page read, counted decoded; larger pages end too-large",
  },
  requestDeadlineMs: {
    kind: "number", default: 120_000, min: 1000, max: 3_600_000, integer: true, aboveMessage: "must be at most 3600000 (one hour)",
    meaning: "Total time of one request, headers and body together (ms)",
  },
  diskQuotaBytes: {
    kind: "number", default: 50 * GIB, min: 1, max: 1024 * 1024 * GIB, integer: true, unit: "bytes", aboveMessage: "must be at most 1 PiB",
    meaning: "Target bytes the crawl may store; reached, the crawl stops (budget-bytes)",
  },
  maxSeenUrls: {
    kind: "number", default: 5_000_000, min: 100, max: 100_000_000, integer: true,
    meaning: "URLs the crawl remembers as seen; past it new links are ignored (≈ 150 bytes a URL)",
  },
  // Baselines
  tpOffExplorationRequests: { kind: "number", default: 3000, paperValue: 3000, min: 1, max: 10_000_000, integer: true, meaning: "Breadth-first requests before TP-OFF freezes its group values" },
  focusedWarmupRequests: { kind: "number", default: 100, paperValue: 100, min: 0, max: 10_000_000, integer: true, meaning: "Breadth-first requests before FOCUSED trusts its classifier" },
} as const satisfies Record<string, SettingRow>;

export type SettingKey = keyof typeof SETTINGS_TABLE;

/** The value type of a row: a number, a boolean or one of its choices. */
export type SettingValue<R> = R extends { kind: "number" } ? number : R extends { kind: "boolean" } ? boolean : R extends ChoiceSettingRow<infer C> ? C : never;

/** Every setting with its value type: the shape of a crawl's `params`. */
export type AlgorithmParams = { -readonly [K in SettingKey]: SettingValue<(typeof SETTINGS_TABLE)[K]> };

/** The table's rows in order, each with its key. */
export const SETTING_ROWS: readonly (SettingRow & { readonly key: SettingKey })[] = (Object.keys(SETTINGS_TABLE) as SettingKey[]).map((key) => ({
  key,
  ...(SETTINGS_TABLE[key] as SettingRow),
}));

/** Every setting's default: what `{ rootUrl }` alone crawls with. */
export const ALGORITHM_DEFAULTS: Readonly<AlgorithmParams> = Object.freeze(
  Object.fromEntries(SETTING_ROWS.map((row) => [row.key, row.default])) as AlgorithmParams,
);

/**
 * Settings that were read by nothing and are gone: a stored crawl that still has one is read
 * without it (stored-crawl-config.ts); a new crawl that sets one is refused with this message.
 */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  discoveryCredit: "is no longer a setting: nothing read it",
};
