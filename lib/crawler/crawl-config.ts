import { z } from "zod";
import { DEFAULT_BLOCKED_EXTENSIONS, DEFAULT_BLOCKED_MIME_PREFIXES, PAPER_TARGET_MIME_TYPES } from "./defaults";
import { algorithmParamsSchema } from "./params-schema";
import { RETIRED_SETTINGS, SETTING_ROWS } from "./settings-table";
import { urlPatternListProblems } from "./url-pattern-safety";
import { describeFieldErrors, zodFieldErrors, type FieldErrors } from "../field-errors";

export { algorithmParamsSchema };

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

/** `params.<former name>` → what a crawl's settings now call it (settings-table.ts `formerNames`). */
const FORMER_PARAM_NAMES = new Map<string, string>(SETTING_ROWS.flatMap((row) => (row.formerNames ?? []).map((former) => [`params.${former}`, row.key] as const)));

/**
 * Zod issues of crawl settings → field messages (lib/field-errors.ts), unknown keys named as
 * settings; a setting's former name says its new one, a retired setting says why it is gone.
 */
export function settingFieldErrors(error: z.ZodError): FieldErrors {
  const fields = zodFieldErrors(error, "is not a known setting");
  for (const field of Object.keys(fields)) {
    const renamed = FORMER_PARAM_NAMES.get(field);
    if (renamed) fields[field] = `is now called params.${renamed}`;
    const key = field.startsWith("params.") ? field.slice("params.".length) : "";
    if (Object.hasOwn(RETIRED_SETTINGS, key)) fields[field] = RETIRED_SETTINGS[key]!;
  }
  return fields;
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
