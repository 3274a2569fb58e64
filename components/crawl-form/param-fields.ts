import type { z } from "zod";
import type { algorithmParamsSchema } from "@/lib/crawl-config";
import { formatBytes } from "@/lib/format";
import { SETTINGS_TABLE, type SettingRow } from "@/lib/crawler/settings-table";

export type AlgorithmParams = z.output<typeof algorithmParamsSchema>;
export type NumberParamKey = { [K in keyof AlgorithmParams]: AlgorithmParams[K] extends number ? K : never }[keyof AlgorithmParams];
export type BooleanParamKey = { [K in keyof AlgorithmParams]: AlgorithmParams[K] extends boolean ? K : never }[keyof AlgorithmParams];
export type GroupIndex = AlgorithmParams["groupIndex"];
export type BanditPolicy = AlgorithmParams["policy"];
/** The settings shown as a select. */
export type ChoiceParamKey = "groupIndex" | "policy";

export interface ParamField {
  key: NumberParamKey;
  label: string;
  hint: string;
  /** Its default and the paper's value (settings-table.ts), shown after the hint. */
  note: string;
  /** Step of the number input: 1 for counts, "any" for real numbers. */
  step: "1" | "any";
  bytes?: boolean;
}

/** An on/off setting, shown as a checkbox above its group's numbers. */
export interface ParamToggle {
  key: BooleanParamKey;
  label: string;
  hint: string;
  /** Its default and the paper's value (settings-table.ts), shown after the hint. */
  note: string;
}

/** A setting with a few named choices, shown as a select above its group's numbers. */
export interface ParamChoice {
  key: ChoiceParamKey;
  label: string;
  hint: string;
  /** Its default and the paper's value (settings-table.ts), shown after the hint. */
  note: string;
  options: { value: string; label: string }[];
}

export interface ParamGroup {
  title: string;
  toggles?: ParamToggle[];
  choices?: ParamChoice[];
  fields: ParamField[];
}

/** A group as written below: labels and hints; the rest comes from lib/crawler/settings-table.ts. */
interface ParamGroupSpec extends Omit<ParamGroup, "fields" | "toggles" | "choices"> {
  toggles?: Omit<ParamToggle, "note">[];
  choices?: Omit<ParamChoice, "note">[];
  fields: Omit<ParamField, "step" | "bytes" | "note">[];
}

function shownValue(row: SettingRow, value: unknown): string {
  if (typeof value === "boolean") return value ? "on" : "off";
  if (typeof value === "number") return row.kind === "number" && row.unit === "bytes" ? formatBytes(value) : String(Number(value.toPrecision(6)));
  return String(value);
}

/** "Default 0.75, as in the paper." / "Default on; the paper: off." from the setting's row. */
export function defaultNote(key: keyof typeof SETTINGS_TABLE): string {
  const row: SettingRow = SETTINGS_TABLE[key];
  const shown = shownValue(row, row.default);
  if (row.paperValue === undefined) return `Default ${shown}.`;
  return row.paperValue === row.default ? `Default ${shown}, as in the paper.` : `Default ${shown}; the paper: ${shownValue(row, row.paperValue)}.`;
}

/** Each setting's note (its default and the paper's value) and, for numbers, the input's step and unit, from its row. */
function fromTable(spec: ParamGroupSpec): ParamGroup {
  const withNote = <T extends { key: keyof typeof SETTINGS_TABLE }>(item: T): T & { note: string } => ({ ...item, note: defaultNote(item.key) });
  return {
    ...spec,
    toggles: spec.toggles?.map(withNote),
    choices: spec.choices?.map(withNote),
    fields: spec.fields.map((field) => {
      const row: SettingRow = SETTINGS_TABLE[field.key];
      const number = row.kind === "number" ? row : null;
      return { ...withNote(field), step: number?.integer ? "1" : "any", ...(number?.unit === "bytes" ? { bytes: true } : {}) };
    }),
  };
}

const HNSW_ONLY = "Applies to HNSW search only.";

/** The algorithm settings (docs/ALGORITHM.md), grouped as the algorithm uses them, one line each. */
const PARAM_GROUP_SPECS: ParamGroupSpec[] = [
  {
    title: "Tag-path groups",
    choices: [
      {
        key: "groupIndex",
        label: "Nearest-group search",
        hint: "How a new link finds the group closest to its tag path. Exact always finds the true nearest centroid and is fast; HNSW is hnswlib's approximate index, as in the paper, slower at 4096 dimensions.",
        options: [
          { value: "exact", label: "Exact (true nearest centroid, fast)" },
          { value: "hnsw", label: "HNSW (approximate, as in the paper)" },
        ],
      },
    ],
    fields: [
      { key: "similarityThreshold", label: "Similarity threshold θ", hint: "Minimum cosine similarity for a link to join an existing group; higher makes more, smaller groups." },
      { key: "hnswM", label: "HNSW M", hint: `Links per node of the nearest-group index: more is more accurate and slower. ${HNSW_ONLY}` },
      { key: "hnswEfConstruction", label: "HNSW ef (construction)", hint: `Search breadth when a new group is added to the index. ${HNSW_ONLY}` },
      { key: "hnswEf", label: "HNSW ef (search)", hint: `Search breadth when a link looks for its nearest group. ${HNSW_ONLY}` },
    ],
  },
  {
    title: "Bandit and URL classifier",
    choices: [
      {
        key: "policy",
        label: "Bandit policy",
        hint: "How the next group is chosen: AUER is the paper's score; KL-UCB and Thompson sampling are made for rewards that are counts of files, and keep trying a group that was unlucky a few times.",
        options: [
          { value: "auer", label: "AUER (as in the paper)" },
          { value: "kl-ucb", label: "KL-UCB (Poisson)" },
          { value: "thompson", label: "Thompson sampling (Gamma–Poisson)" },
        ],
      },
    ],
    toggles: [
      {
        key: "rewardScaledExploration",
        label: "Scale exploration to the site's reward",
        hint: "Multiply the exploration bonus by the targets an average page has brought so far, so that a site with few targets is not explored group by group in turn.",
      },
      {
        key: "barrenDamping",
        label: "Explore less the groups whose pages bring nothing new",
        hint: "While a group has given no target, shrink its exploration bonus by the share of its pages that brought a new link of a group that has, so that print versions and breadcrumbs of pages already crawled stop being tried in turn with the lists that lead somewhere.",
      },
      {
        key: "regroupRediscoveredLinks",
        label: "Move a waiting link to a better group when another page lists it",
        hint: "A link first seen in a \"see also\" box and later in a list whose links have paid off is crawled as one of that list's links, instead of waiting its turn among the \"see also\" links; off keeps every link in the group it was first seen in, as in the paper.",
      },
      {
        key: "splitActionsByUrlShape",
        label: "Split a group whose links lead to sections that pay differently",
        hint: "Links of one page structure (a pagination bar shared by several sections) that lead to URLs of different sections are split into groups of their own once their rewards clearly differ (an exact test of two rates), so that a rich section is not starved by barren ones. Off keeps one group per page structure, as in the paper.",
      },
      {
        key: "useSitemaps",
        label: "Read the site's sitemaps",
        hint: "After the root page, read the sitemaps robots.txt names (or /sitemap.xml) and put the URLs they list into the frontier as a group of their own: the crawler keeps choosing it only if it brings files. SB-CLASSIFIER only.",
      },
      {
        key: "rewardPulledTargets",
        label: "Count a page link that was a file as a find",
        hint: "A link typed as a page that answers with a target file counts one target for its group; off counts it as a failed pull, as in the paper, and a group of document links that look like pages is then left aside.",
      },
      {
        key: "labelRedirectedLinks",
        label: "Learn link types from redirected requests",
        hint: "A link whose request was redirected to a page or a file teaches the URL classifier what it was; off learns only from direct answers, as in the paper, and download links that always redirect are never learnt as files.",
      },
      {
        key: "followRedirectsOffSite",
        label: "Follow redirects to other hosts for files",
        hint: "A link of the site that redirects to a CDN or a storage bucket is followed there, and kept when it answers a target file; off fetches nothing outside the site, as in the paper.",
      },
      {
        key: "revisitsCompete",
        label: "Re-crawls: revisit known pages alongside new links",
        hint: "In a re-crawl, revisit the pages of earlier runs whenever their kind of page is expected to find more (from how often it changed before) than the best group of new links; off revisits them once no new link is left, which found more of the files added to old pages without a marker.",
      },
      {
        key: "stableTagPathClasses",
        label: "Ignore per-page numbers and hashes in classes",
        hint: "Classes and ids such as postid-123 or styles_card__3xK9a name the page, not the part of the page a link is in: their numbers and hashes are ignored, so that links in the same place share a group. Off keeps classes as they are, as in the paper.",
      },
    ],
    fields: [
      { key: "banditAlpha", label: "Exploration weight α", hint: "How strongly the bandit tries little-used groups; 0 only follows the best mean reward." },
      { key: "urlOutlookWeight", label: "Weight of link URLs in the group choice", hint: "When choosing a group, also weigh what the URLs of a few of its links promise (the same statistics as the link ranking), so that groups whose pages gave nothing yet are told apart by where they lead; 0 leaves the choice to the bandit, as in the paper." },
      { key: "longTermCreditDiscount", label: "Long-term credit γ", hint: "A page's new targets also count, times γ, for the group that led to the page and, times γ², for the one before (up to the depth below), so that listing and pagination groups whose files come a few pages later are not left aside; 0 rewards only the group that fetched the page, as in the paper. From 0 to below 1." },
      { key: "longTermCreditDepth", label: "Long-term credit depth", hint: "How many groups back along the way to a page share its targets when γ is above 0." },
      { key: "linkRankSamples", label: "Links ranked per choice", hint: "Within the chosen group, draw this many links and follow the one whose URL (its path segments, its letters) looks most like those of the pages that gave targets; 1 picks uniformly at random, as in the paper." },
      { key: "classifierBatchSize", label: "Classifier batch size", hint: "Labelled URLs per training pass; until the first pass, new links are typed by HEAD requests." },
      { key: "sgdAlpha", label: "Classifier regularisation", hint: "L2 penalty of the URL classifier (SGD): larger means a simpler model." },
    ],
  },
  {
    title: "Early stopping",
    toggles: [
      {
        key: "earlyStop",
        label: "Stop early when the harvest dries up",
        hint: "End the crawl when the moving average of new targets per request stays below τ for P windows; off: it runs until the budget is spent or the site is exhausted.",
      },
    ],
    fields: [
      { key: "earlyStopWindowRequests", label: "Window (requests)", hint: "Requests per window; the slope (new targets per request) is measured over each window." },
      { key: "earlyStopBeta", label: "Smoothing β", hint: "Weight of the past in the moving average of the slope (0 = no smoothing)." },
      { key: "earlyStopTargetsPerRequest", label: "Threshold τ (targets per request)", hint: "A window whose moving average falls below τ counts as a low window." },
      { key: "earlyStopPatienceWindows", label: "Patience (windows)", hint: "Consecutive low windows before the crawl stops by itself." },
    ],
  },
  {
    title: "Safety limits",
    toggles: [
      {
        key: "skipDeadUrlShapes",
        label: "Set aside URL shapes that only answer useless files",
        hint: "After 3 links of one URL shape (the path with its numbers ignored, e.g. /media/img/#) answered neither a page nor a target, set the rest of that shape aside; a few are still tried, and if one answers a page or a target the set-aside links come back.",
      },
      {
        key: "skipRedundantQueryVariants",
        label: "Skip query variants that repeat a known page",
        hint: "Once pages of two different paths, crawled with a query pair (e.g. ?print=1), showed no link that their page without it lacks, links adding only that pair to a page already known are not crawled.",
      },
    ],
    fields: [
      { key: "trapExtraLengthChars", label: "Trap filter: extra URL length", hint: "Links longer than the root URL plus this many characters are skipped (endless calendars, session loops)." },
      { key: "trapRepeatCount", label: "Trap filter: repeated segments", hint: "Links repeating one path segment or query value this many times are skipped." },
      { key: "maxRedirects", label: "Maximum redirects", hint: "Redirect hops followed per link; every hop is a counted request." },
      { key: "maxTargetBytes", label: "Maximum target size (bytes)", hint: "Larger files are aborted and logged as too large." },
      { key: "maxHtmlBytes", label: "Maximum page size (bytes)", hint: "Larger HTML pages (counted after decompression) are aborted and logged as too large." },
      { key: "requestDeadlineMs", label: "Request deadline (ms)", hint: "A request that has not finished (headers and body) after this long is abandoned, however slowly the server keeps sending." },
      { key: "diskQuotaBytes", label: "Disk quota (bytes)", hint: "When the crawl's stored files reach this size, it stops downloading and ends (budget spent: bytes)." },
      { key: "maxSeenUrls", label: "Known URLs at most", hint: "Links beyond this many distinct URLs are ignored (about 150 bytes of memory each), so a site with endless links cannot exhaust the worker." },
    ],
  },
  {
    title: "Baselines",
    fields: [
      { key: "tpOffExplorationRequests", label: "TP-OFF exploration (requests)", hint: "Breadth-first requests before TP-OFF freezes its group values (TP-OFF only)." },
      { key: "focusedWarmupRequests", label: "FOCUSED warm-up (requests)", hint: "Breadth-first requests before FOCUSED trusts its classifier (FOCUSED only)." },
    ],
  },
];

export const PARAM_GROUPS: ParamGroup[] = PARAM_GROUP_SPECS.map(fromTable);

export const PARAM_KEYS: NumberParamKey[] = PARAM_GROUPS.flatMap((group) => group.fields.map((field) => field.key));

/** Every setting of the Advanced section that is not a number: checkboxes and selects. */
export const PARAM_TOGGLES: ParamToggle[] = PARAM_GROUPS.flatMap((group) => group.toggles ?? []);
export const PARAM_CHOICES: ParamChoice[] = PARAM_GROUPS.flatMap((group) => group.choices ?? []);
