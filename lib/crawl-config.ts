import { z } from "zod";
import {
  ALGORITHM_DEFAULTS,
  DEFAULT_BLOCKED_EXTENSIONS,
  DEFAULT_BLOCKED_MIME_PREFIXES,
  PAPER_TARGET_MIME_TYPES,
} from "./crawler/defaults";
import { BANDIT_POLICIES } from "./crawler/bandit-policies";
import { urlPatternListProblems } from "./crawler/url-pattern-safety";
import { describeFieldErrors, zodFieldErrors, type FieldErrors } from "./field-errors";

/**
 * The configuration of one crawl: validated once at the edge (API, CLI), stored with the crawl
 * as JSON, read back by the worker. Strict objects reject typos ("budjet") instead of ignoring
 * them; every field has a literal default, so `{ rootUrl }` alone is a complete crawl.
 */

export const STRATEGIES = ["sb", "sb-paper", "sb-oracle", "bfs", "dfs", "random", "focused", "tp-off", "tres"] as const;
export type Strategy = (typeof STRATEGIES)[number];

export const STRATEGY_LABELS: Record<Strategy, string> = {
  sb: "SB-CLASSIFIER (learns which page structures lead to targets)",
  "sb-paper": "SB-PAPER (the paper's algorithm exactly, none of Forage's additions)",
  "sb-oracle": "SB-ORACLE (replays only: true link types)",
  bfs: "Breadth-first (BFS)",
  dfs: "Depth-first (DFS)",
  random: "Random",
  focused: "Focused (URL and anchor classifier)",
  "tp-off": "Tag paths offline (TP-OFF)",
  tres: "TRES (deep Q-learning over a Tree-Frontier)",
};

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

const mimeType = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/, "must look like type/subtype, e.g. text/csv");

const mimePrefix = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/([a-z0-9][a-z0-9!#$&^_.+-]*)?$/, 'must be a MIME type or a prefix ending in "/", e.g. image/');

const extension = z
  .string()
  .trim()
  .toLowerCase()
  .transform((value) => (value.startsWith(".") ? value : `.${value}`))
  .pipe(z.string().regex(/^\.[a-z0-9][a-z0-9_+-]*$/, "must be a file extension such as .png"));

export const rootUrlSchema = z
  .string()
  .trim()
  .min(1, "is required")
  .max(2048, "is longer than 2048 characters")
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      ctx.addIssue({ code: "custom", message: "is not a valid URL (include http:// or https://)" });
      return;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      ctx.addIssue({ code: "custom", message: `must use http or https, not ${url.protocol.replace(":", "")}` });
    } else if (!url.hostname) {
      ctx.addIssue({ code: "custom", message: "has no host name" });
    } else if (url.username || url.password) {
      ctx.addIssue({ code: "custom", message: "must not contain a user name or password" });
    }
  })
  .transform((value) => {
    const url = new URL(value);
    url.hash = "";
    return url.toString();
  });

const positiveInt = (max: number) => z.number().int("must be a whole number").min(1, "must be at least 1").max(max);

export const budgetSchema = z.strictObject({
  /** Counted requests (GET + HEAD). @default 1000 */
  requests: positiveInt(100_000_000).default(1000),
  /** Total bytes received (targets and pages); null = no limit. @default null */
  bytes: positiveInt(Number.MAX_SAFE_INTEGER).nullable().default(null),
  /** Running time in seconds (pauses excluded); null = no limit. @default null */
  seconds: positiveInt(365 * 24 * 3600).nullable().default(null),
});

/**
 * URL patterns: each `re:` pattern must be one RE2 can run, and their programs small enough
 * together (url-pattern-safety.ts); a bad pattern is named by its index, an oversized list as a whole.
 */
const urlPatterns = z
  .array(z.string().trim().min(1).max(500))
  .max(500)
  .superRefine((patterns, ctx) => {
    const problems = urlPatternListProblems(patterns);
    for (const [index, message] of problems.patterns) ctx.addIssue({ code: "custom", path: [index], message });
    if (problems.list) ctx.addIssue({ code: "custom", message: problems.list });
  });

export const blocklistSchema = z.strictObject({
  /** URL patterns never requested: `*` globs, or `re:` followed by a regular expression (JavaScript syntax without lookaheads or back-references). @default [] */
  urlPatterns: urlPatterns.default([]),
  /** Extensions of the last path segment never requested. @default the kit's 168 media extensions */
  extensions: z.array(extension).max(2000).default([...DEFAULT_BLOCKED_EXTENSIONS]),
  /** MIME types or prefixes whose body is aborted as soon as headers arrive. @default image/, audio/, video/ */
  mimeTypes: z.array(mimePrefix).max(200).default([...DEFAULT_BLOCKED_MIME_PREFIXES]),
});

export const archiveSchema = z.strictObject({
  /** Keep a web archive (WARC/1.1) of every exchange under `crawls/<id>/warc/`. @default true (false for crawls stored before it existed) */
  keepWarc: z.boolean().default(true),
  /** A WARC file is closed and a new one opened past this size. @default 1 GiB */
  warcFileBytes: z.number().int("must be a whole number").min(1024 * 1024, "must be at least 1 MiB (1048576)").max(64 * GIB, "must be at most 64 GiB").default(GIB),
});

export const politenessSchema = z.strictObject({
  /** Minimum time between two requests to one host. @default 1000 */
  delayMs: z.number().int("must be a whole number").min(0, "must not be negative").max(600_000).default(1000),
  /** Obey robots.txt (RFC 9309). @default true */
  obeyRobots: z.boolean().default(true),
  /** Requests in flight per host. @default 1 */
  maxConcurrentPerHost: z.number().int().min(1).max(16).default(1),
  /** Cap on a robots.txt Crawl-delay. @default 30000 */
  maxCrawlDelayMs: z.number().int().min(0).max(600_000).default(30_000),
  /** User-Agent header; null = Forage's default, naming Forage and a contact URL. @default null */
  userAgent: z.string().trim().min(1).max(300).nullable().default(null),
});

/** The algorithm's settings (docs/ALGORITHM.md): shown in the cockpit's "Advanced" section. */
export const algorithmParamsSchema = z.strictObject({
  similarityThreshold: z.number().gt(0).max(1).default(ALGORITHM_DEFAULTS.similarityThreshold),
  banditAlpha: z.number().min(0).max(100).default(ALGORITHM_DEFAULTS.banditAlpha),
  /**
   * How the bandit chooses the group: "auer" (the paper's UCB score, α above), "kl-ucb" (the
   * KL-UCB index for Poisson count rewards) or "thompson" (Thompson sampling, Gamma–Poisson
   * posterior, drawn with the crawl's seeded PRNG); bandit-policies.ts. @default "auer"
   */
  policy: z.enum(BANDIT_POLICIES, { message: `must be one of ${BANDIT_POLICIES.join(", ")}` }).default("auer"),
  classifierBatchSize: z.number().int().min(1).max(10_000).default(ALGORITHM_DEFAULTS.classifierBatchSize),
  sgdAlpha: z.number().gt(0).max(1).default(ALGORITHM_DEFAULTS.sgdAlpha),
  /**
   * Within the group the bandit picked, draw this many links and crawl the one whose URL looks
   * most like the pages that gave targets (path-segment rates + URL/anchor 2-gram scorer, learned
   * from this crawl's pulls; sb-strategy.ts); 1 = the paper's uniformly random link (Forage's
   * addition). @default 32
   */
  linkRankSamples: z.number().int("must be a whole number").min(1, "must be at least 1").max(1024).default(32),
  /**
   * Scale the bandit's exploration bonus by the mean reward per pull so far, so that sparse
   * sites (0.02 targets per page) are not explored round-robin (Forage's addition). @default true
   */
  rewardScaledExploration: z.boolean().default(true),
  /**
   * Explore less a group that has never given a target while its pages bring no new link of a
   * group that has (print versions, breadcrumbs of pages already crawled): its bonus × the share of
   * such fertile pulls (sleeping-bandit.ts; Forage's addition). @default true
   */
  dampBarrenExploration: z.boolean().default(true),
  /**
   * A link waiting in the frontier that another page lists again under a tag path whose group has
   * a better mean reward moves to that group (a dossier first seen in a "see also" box, then in a
   * dossier list). The paper keeps it where it was first seen (Forage's addition). @default true
   */
  regroupRediscoveredLinks: z.boolean().default(true),
  /**
   * When choosing a group, add this many times what the URLs of a few of its links promise above an
   * average page (the same URL statistics as `linkRankSamples`; group-outlook.ts); 0 = the bandit
   * alone, as in the paper (Forage's addition). @default 3
   */
  urlOutlookWeight: z.number().min(0, "must not be negative").max(100).default(3),
  /**
   * Long-term credit: when a page yields r new targets, the action that pulled its parent page also
   * gets γ·r and the one before γ²·r (up to `longTermCreditDepth` ancestors), so that listing and
   * pagination groups that lead to files a few steps later are not starved (sb-strategy.ts). 0 =
   * the paper's immediate reward (Forage's addition). @default 0
   */
  longTermCreditDiscount: z.number().min(0, "must be at least 0").lt(1, "must be below 1 (a discount γ in [0, 1))").default(0),
  /** Ancestor actions that share a page's reward when `longTermCreditDiscount` > 0. @default 2 */
  longTermCreditDepth: z.number().int("must be a whole number").min(1, "must be at least 1").max(8, "must be at most 8").default(2),
  /**
   * Set aside links whose URL shape answered 3 times with neither a page nor a target, probing a
   * few, and bring them back when one answers something useful (dead-shape-filter.ts; Forage's
   * addition). @default true
   */
  skipDeadUrlShapes: z.boolean().default(true),
  /**
   * Skip links that only add a query pair (`?print=1`) to a page the crawl knows, once pages of two
   * different paths, crawled with that pair, showed no link their page without it lacks
   * (query-variant-filter.ts; Forage's addition). @default true
   */
  skipRedundantQueryVariants: z.boolean().default(true),
  /**
   * A page pull whose link turned out to be a target (typed as a page, answered with a file) counts
   * reward 1 for its group. The paper counts such a pull as a failed one (reward 0); a group of
   * document links typed as pages until pulled is then starved (Forage's addition). @default true
   */
  rewardPulledTargets: z.boolean().default(true),
  /**
   * A link whose GET was redirected to a page or a target gives the classifier that label for its
   * own URL. The kit gave redirects no label, so extension-less download URLs that always redirect
   * were never learnt as targets (Forage's addition). @default true
   */
  labelRedirectedLinks: z.boolean().default(true),
  /**
   * Follow a redirect of a site's link to another host (a CDN, a bucket) and keep what answers there
   * when it is a target. The paper fetches nothing off the site (Forage's addition). @default true
   */
  followRedirectsOffSite: z.boolean().default(true),
  /**
   * Read the site's sitemaps after the root page (the `Sitemap:` lines of robots.txt, else
   * /sitemap.xml; index files and gzip too), each one counted request, and put the URLs they list
   * into the frontier as a group of their own, which the bandit tries and keeps choosing only if
   * it pays. SB crawls only: the baselines crawl links, as in the paper (Forage's addition). @default true
   */
  useSitemaps: z.boolean().default(true),
  /**
   * Split a group whose links lead to URL shapes (section, query keys) that pay clearly differently
   * into one group per such shape (a conditional exact test of two Poisson rates at the 0.001
   * level; action-splitter.ts): a pagination bar shared by a rich section and barren ones. The
   * paper keeps one action per tag-path group (Forage's addition). Off by default until the site
   * family bench shows it earns its place (docs/BENCHMARKS.md). @default false
   */
  splitActionsByUrlShape: z.boolean().default(false),
  /**
   * Replace per-page numbers and hashes in the classes and ids of tag paths (`postid-123` →
   * `postid-N`, `styles_card__3xK9a` → `styles_card__H`; tag-path-classes.ts), so that links
   * playing the same part on every page share a tag path, and the vocabulary stays bounded. The
   * paper keeps classes as they are (Forage's addition). @default true
   */
  stableTagPathClasses: z.boolean().default(true),
  /**
   * Nearest-group search: "exact" (an inverted index over centroids: the true nearest, a few µs
   * per new tag path) or "hnsw" (hnswlib's approximate index, ≈ 2 ms per new tag path at 4096
   * dimensions). @default "exact"
   */
  groupIndex: z.enum(["exact", "hnsw"]).default("exact"),
  hnswM: z.number().int().min(2).max(128).default(ALGORITHM_DEFAULTS.hnswM),
  hnswEfConstruction: z.number().int().min(1).max(2000).default(ALGORITHM_DEFAULTS.hnswEfConstruction),
  hnswEf: z.number().int().min(1).max(2000).default(ALGORITHM_DEFAULTS.hnswEf),
  earlyStop: z.boolean().default(true),
  earlyStopWindowRequests: z.number().int().min(10).max(1_000_000).default(ALGORITHM_DEFAULTS.earlyStopWindowRequests),
  earlyStopBeta: z.number().min(0).lt(1).default(ALGORITHM_DEFAULTS.earlyStopBeta),
  earlyStopTargetsPerRequest: z.number().min(0).max(1).default(ALGORITHM_DEFAULTS.earlyStopTargetsPerRequest),
  earlyStopPatienceWindows: z.number().int().min(1).max(1000).default(ALGORITHM_DEFAULTS.earlyStopPatienceWindows),
  trapExtraLengthChars: z.number().int().min(0).max(100_000).default(ALGORITHM_DEFAULTS.trapExtraLengthChars),
  trapRepeatCount: z.number().int().min(2).max(1000).default(ALGORITHM_DEFAULTS.trapRepeatCount),
  maxRedirects: z.number().int().min(0).max(50).default(10),
  /** Largest target file kept, counted *decoded* (a gzip-encoded CSV counts its CSV bytes). @default 100 MiB, at most 64 GiB */
  maxTargetBytes: z.number().int().min(1).max(64 * GIB, "must be at most 64 GiB").default(100 * MIB),
  /** Largest HTML page read, counted *decoded*; larger pages end "too-large". @default 10 MiB, at most 256 MiB */
  maxHtmlBytes: z.number().int().min(1).max(256 * MIB, "must be at most 256 MiB").default(10 * MIB),
  /**
   * Total time of one request, headers and body together (idle timeouts alone never end a server
   * that drips a byte every few seconds); past it the request ends as an error. @default 120000
   */
  requestDeadlineMs: z.number().int("must be a whole number").min(1000, "must be at least 1000").max(3_600_000, "must be at most 3600000 (one hour)").default(120_000),
  /**
   * Target bytes this crawl may store on disk; reached, the crawl stops (stop reason
   * "budget-bytes", with the quota named). A download that would cross it is cut. @default 50 GiB
   */
  diskQuotaBytes: z.number().int("must be a whole number").min(1, "must be at least 1").max(1024 * 1024 * GIB, "must be at most 1 PiB").default(50 * GIB),
  /**
   * URLs the crawl remembers as seen (frontier, crawled, set aside); past it, new links of the
   * pages crawled are ignored (an event says so) and the crawl goes on with its frontier. Bounds
   * the memory of the link table (≈ 150 bytes a URL). @default 5000000
   */
  maxSeenUrls: z.number().int("must be a whole number").min(100, "must be at least 100").max(100_000_000).default(5_000_000),
  /** Requests of breadth-first exploration before TP-OFF freezes its group values. @default 3000 */
  tpOffExplorationRequests: z.number().int().min(1).max(10_000_000).default(3000),
  /** Requests of breadth-first exploration before FOCUSED trusts its classifier. @default 100 */
  focusedWarmupRequests: z.number().int().min(0).max(10_000_000).default(100),
});

/** The id of a recipe (`forage recipes list`), or "auto": whichever the site's pages show. */
export const RECIPE_CHOICE_AUTO = "auto";

/** When a crawl renders pages in a browser (`render`). */
export const RENDER_MODES = ["off", "auto", "always"] as const;
export type RenderMode = (typeof RENDER_MODES)[number];
export const DEFAULT_RENDER_MODE: RenderMode = "auto";

const applicationsSchema = z.strictObject({
  /**
   * Use the site's own catalog or API when its application is recognised: its enumerations
   * become actions the bandit chooses among. @default true
   */
  use: z.boolean().default(true),
  /** "auto" (recognised from the site's pages), or a recipe id: that application is assumed (its probe still confirms it). @default "auto" */
  recipe: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "must be \"auto\" or a recipe id (lower-case letters, digits and dashes)").max(100).default(RECIPE_CHOICE_AUTO),
});

export const crawlConfigSchema = z.strictObject({
  rootUrl: rootUrlSchema,
  name: z.string().trim().max(200).nullable().default(null),
  targetMimeTypes: z.array(mimeType).min(1, "needs at least one MIME type").max(500).default([...PAPER_TARGET_MIME_TYPES]),
  budget: budgetSchema.default(budgetSchema.parse({})),
  blocklist: blocklistSchema.default(blocklistSchema.parse({})),
  politeness: politenessSchema.default(politenessSchema.parse({})),
  strategy: z.enum(STRATEGIES).default("sb"),
  params: algorithmParamsSchema.default(algorithmParamsSchema.parse({})),
  /** The crawl's web archive. */
  archive: archiveSchema.default(archiveSchema.parse({})),
  /** Seed of every random choice; chosen at creation when absent, then stored with the crawl. */
  seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
  /**
   * Reach every loopback/private/link-local address (cloud-metadata addresses stay refused).
   * Only the local CLI sets it (`forage crawl --allow-private-network`: its user is the admin);
   * the API refuses it (ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING): there, the server's network
   * policy decides. Crawls stored with it keep it on resume and replay. @default false
   */
  allowPrivateNetwork: z.boolean().default(false),
  /**
   * A re-crawl: the id of a finished crawl of the same site whose learned state (groups, bandit
   * statistics, classifier, dead URL shapes) this run starts from, and whose files are known: not
   * downloaded again, reported as unchanged. Checked against the database when the crawl is
   * created (store/commands/check-previous-crawl.ts). @default null (a first crawl)
   */
  after: z.number().int("must be a whole number").positive("must be a crawl id").nullable().default(null),
  /** With `after`: a conditional GET of every known file (304 unchanged, 404/410 gone, new bytes changed). @default false */
  checkKnownFiles: z.boolean().default(false),
  /** Application-aware crawling (docs/RECIPES.md; SB strategies). */
  applications: applicationsSchema.default(applicationsSchema.parse({})),
  /**
   * Render pages in a browser (Chromium) so that links built by scripts are seen: "off" reads HTML
   * only; "auto" renders a page whose HTML looks like a script-built shell, or whose URL shape's
   * rendered pages showed links their HTML lacked; "always" renders every page. Every request of
   * the browser goes through the crawl's own rules (robots.txt, politeness, network policy, budget,
   * web archive). @default "auto" ("off" for crawls stored before rendering existed)
   */
  render: z.enum(RENDER_MODES, { message: `must be one of ${RENDER_MODES.join(", ")}` }).default(DEFAULT_RENDER_MODE),
});

/** The field message of an API request that sets `allowPrivateNetwork`. */
export const ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING =
  "is set by the server's network policy: an admin adds private networks (FORAGE_PRIVATE_NETWORKS or Settings → Network)";

export type CrawlConfigInput = z.input<typeof crawlConfigSchema>;
export type CrawlConfig = z.output<typeof crawlConfigSchema> & { seed: number };

export type { FieldErrors };

export class CrawlConfigError extends Error {
  constructor(readonly fields: FieldErrors) {
    super(describeFieldErrors("Invalid crawl settings", fields));
    this.name = "CrawlConfigError";
  }
}

/** Zod issues of crawl settings → field messages (lib/field-errors.ts), unknown keys named as settings. */
export function settingFieldErrors(error: z.ZodError): FieldErrors {
  return zodFieldErrors(error, "is not a known setting");
}

/**
 * Validates crawl settings and fills defaults; a missing seed is drawn here, once, and stored.
 * @throws CrawlConfigError naming every bad field.
 */
export function parseCrawlConfig(input: unknown, drawSeed: () => number = defaultSeed): CrawlConfig {
  const parsed = crawlConfigSchema.safeParse(input);
  if (!parsed.success) throw new CrawlConfigError(settingFieldErrors(parsed.error));
  return { ...parsed.data, seed: parsed.data.seed ?? drawSeed() };
}

function defaultSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/**
 * Algorithm settings added after crawls were first stored, with the value a crawl stored without
 * them ran with (the paper's behaviour). Without this, resuming, replaying or live-editing an older
 * crawl would switch it to the newer default halfway.
 */
const PARAMS_ADDED_LATER = { useSitemaps: false, splitActionsByUrlShape: false, stableTagPathClasses: false, linkRankSamples: 1, rewardScaledExploration: false, urlOutlookWeight: 0, dampBarrenExploration: false, regroupRediscoveredLinks: false, skipRedundantQueryVariants: false, longTermCreditDiscount: 0 } as const;

/** A stored crawl's settings document with {@link PARAMS_ADDED_LATER} filled in where its params lack them; ready for the schema. */
export function withParamsAddedLater(stored: unknown): unknown {
  if (typeof stored !== "object" || stored === null) return stored;
  const params = (stored as { params?: unknown }).params;
  if (typeof params !== "object" || params === null) return stored;
  // A crawl stored before web archives existed kept none: resuming it must not start one halfway.
  const archive = (stored as { archive?: unknown }).archive ?? { keepWarc: false };
  // Nor rendering: a crawl stored before it existed read HTML only.
  const render = (stored as { render?: unknown }).render ?? "off";
  return { ...stored, archive, render, params: { ...PARAMS_ADDED_LATER, ...params } };
}
