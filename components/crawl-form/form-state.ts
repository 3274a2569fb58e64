import {
  algorithmParamsSchema,
  archiveSchema,
  blocklistSchema,
  budgetSchema,
  politenessSchema,
  rootUrlSchema,
  DEFAULT_RENDER_MODE,
  type CrawlConfig,
  type CrawlConfigInput,
  type RenderMode,
  type FieldErrors,
  type Strategy,
} from "@/lib/crawl-config";
import { DATA_FILES_MIME_TYPES } from "@/lib/crawler/defaults";
import { formatParam } from "@/components/ui/format";
import { PARAM_KEYS, type BanditPolicy, type GroupIndex, type NumberParamKey } from "./param-fields";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/** What the inputs hold: text as typed, so a half-typed number is never lost or "corrected". */
export interface CrawlFormValues {
  rootUrl: string;
  name: string;
  targetMimeTypes: string[];
  budgetRequests: string;
  byteLimit: string;
  byteUnit: "MB" | "GB";
  timeLimit: string;
  timeUnit: "minutes" | "hours";
  urlPatterns: string;
  extensions: string;
  blockedMimeTypes: string;
  delayMs: string;
  obeyRobots: boolean;
  /** "Keep a web archive (WARC)" (`archive.keepWarc`). */
  keepWarc: boolean;
  strategy: Strategy;
  /** The algorithm settings that are not numbers (names as in `params`). */
  earlyStop: boolean;
  skipDeadUrlShapes: boolean;
  skipRedundantQueryVariants: boolean;
  rewardScaledExploration: boolean;
  barrenDamping: boolean;
  regroupRediscoveredLinks: boolean;
  splitActionsByUrlShape: boolean;
  useSitemaps: boolean;
  revisitsCompete: boolean;
  rewardPulledTargets: boolean;
  labelRedirectedLinks: boolean;
  followRedirectsOffSite: boolean;
  stableTagPathClasses: boolean;
  groupIndex: GroupIndex;
  policy: BanditPolicy;
  params: Record<NumberParamKey, string>;
  /** The exact numbers the params were shown from (2√2 is shown as 2.82843 and sent back exact). */
  paramBase: Record<NumberParamKey, number>;
  seed: string;
  /** "Use the site's own catalog or API when recognised" (`applications.use`). */
  useApplications: boolean;
  /** "auto" or a recipe id (`applications.recipe`). */
  recipe: string;
  /** "Render pages with a browser" (`render`). */
  render: RenderMode;
}

/** Settings the form does not show but a cloned crawl must keep (user agent, per-host concurrency…). */
/** Settings the form does not show but sends: a clone's politeness details and archive size, a re-crawl's `after`. */
export type HiddenSettings = Pick<CrawlConfig, "politeness"> & Partial<Pick<CrawlConfig, "archive" | "after" | "checkKnownFiles">>;

/** "a\n b \n\n" → ["a", "b"]; extensions and MIME types may also be separated by spaces or commas. */
export function splitLines(text: string): string[] {
  return text.split("\n").map((line) => line.trim()).filter(Boolean);
}
export function splitWords(text: string): string[] {
  return text.split(/[\s,]+/).map((word) => word.trim()).filter(Boolean);
}

export function defaultFormValues(): CrawlFormValues {
  const blocklist = blocklistSchema.parse({});
  const politeness = politenessSchema.parse({});
  const params = algorithmParamsSchema.parse({});
  return {
    rootUrl: "",
    name: "",
    targetMimeTypes: [...DATA_FILES_MIME_TYPES],
    budgetRequests: String(budgetSchema.parse({}).requests),
    byteLimit: "",
    byteUnit: "MB",
    timeLimit: "",
    timeUnit: "minutes",
    urlPatterns: blocklist.urlPatterns.join("\n"),
    extensions: blocklist.extensions.join(" "),
    blockedMimeTypes: blocklist.mimeTypes.join(" "),
    delayMs: String(politeness.delayMs),
    obeyRobots: politeness.obeyRobots,
    keepWarc: archiveSchema.parse({}).keepWarc,
    strategy: "sb",
    earlyStop: params.earlyStop,
    skipDeadUrlShapes: params.skipDeadUrlShapes,
    skipRedundantQueryVariants: params.skipRedundantQueryVariants,
    rewardScaledExploration: params.rewardScaledExploration,
    barrenDamping: params.barrenDamping,
    regroupRediscoveredLinks: params.regroupRediscoveredLinks,
    splitActionsByUrlShape: params.splitActionsByUrlShape,
    useSitemaps: params.useSitemaps,
    revisitsCompete: params.revisitsCompete,
    rewardPulledTargets: params.rewardPulledTargets,
    labelRedirectedLinks: params.labelRedirectedLinks,
    followRedirectsOffSite: params.followRedirectsOffSite,
    stableTagPathClasses: params.stableTagPathClasses,
    groupIndex: params.groupIndex,
    policy: params.policy,
    params: paramStrings(params),
    paramBase: paramNumbers(params),
    seed: "",
    useApplications: true,
    recipe: "auto",
    render: DEFAULT_RENDER_MODE,
  };
}

/** Pre-fills the form from a stored crawl ("Clone settings"); the seed is kept so the run can be repeated. */
export function formValuesFromConfig(config: CrawlConfig): CrawlFormValues {
  const bytes = config.budget.bytes;
  const seconds = config.budget.seconds;
  const inGb = bytes !== null && bytes % GIB === 0;
  const inHours = seconds !== null && seconds % 3600 === 0;
  return {
    rootUrl: config.rootUrl,
    name: config.name ?? "",
    targetMimeTypes: [...config.targetMimeTypes],
    budgetRequests: String(config.budget.requests),
    byteLimit: bytes === null ? "" : String(inGb ? bytes / GIB : round(bytes / MIB)),
    byteUnit: inGb ? "GB" : "MB",
    timeLimit: seconds === null ? "" : String(inHours ? seconds / 3600 : round(seconds / 60)),
    timeUnit: inHours ? "hours" : "minutes",
    urlPatterns: config.blocklist.urlPatterns.join("\n"),
    extensions: config.blocklist.extensions.join(" "),
    blockedMimeTypes: config.blocklist.mimeTypes.join(" "),
    delayMs: String(config.politeness.delayMs),
    obeyRobots: config.politeness.obeyRobots,
    keepWarc: config.archive.keepWarc,
    strategy: config.strategy === "sb-oracle" ? "sb" : config.strategy,
    earlyStop: config.params.earlyStop,
    skipDeadUrlShapes: config.params.skipDeadUrlShapes,
    skipRedundantQueryVariants: config.params.skipRedundantQueryVariants,
    rewardScaledExploration: config.params.rewardScaledExploration,
    barrenDamping: config.params.barrenDamping,
    regroupRediscoveredLinks: config.params.regroupRediscoveredLinks,
    splitActionsByUrlShape: config.params.splitActionsByUrlShape,
    useSitemaps: config.params.useSitemaps,
    revisitsCompete: config.params.revisitsCompete,
    rewardPulledTargets: config.params.rewardPulledTargets,
    labelRedirectedLinks: config.params.labelRedirectedLinks,
    followRedirectsOffSite: config.params.followRedirectsOffSite,
    stableTagPathClasses: config.params.stableTagPathClasses,
    groupIndex: config.params.groupIndex,
    policy: config.params.policy,
    params: paramStrings(config.params),
    paramBase: paramNumbers(config.params),
    seed: String(config.seed),
    useApplications: config.applications.use,
    recipe: config.applications.recipe,
    render: config.render,
  };
}

function paramStrings(params: Record<NumberParamKey, number>): Record<NumberParamKey, string> {
  return Object.fromEntries(PARAM_KEYS.map((key) => [key, formatParam(params[key])])) as Record<NumberParamKey, string>;
}

function paramNumbers(params: Record<NumberParamKey, number>): Record<NumberParamKey, number> {
  return Object.fromEntries(PARAM_KEYS.map((key) => [key, params[key]])) as Record<NumberParamKey, number>;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** "" → null; "12" → 12; "abc" → NaN (reported as "must be a number"). */
function parseOptionalNumber(text: string): number | null {
  const trimmed = text.trim();
  return trimmed === "" ? null : Number(trimmed);
}

/**
 * Builds the POST body from the form, and checks the obvious mistakes at once (root URL, at
 * least one target type, budget and delay numbers). Everything else — algorithm ranges, blocklist
 * syntax — is the API's to judge: its 400 answer is mapped back onto the fields.
 */
export function buildCrawlSettings(values: CrawlFormValues, hidden?: HiddenSettings): { settings: CrawlConfigInput; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const numberOrError = (field: string, text: string, { required }: { required: boolean }): number | null => {
    const value = parseOptionalNumber(text);
    if (value === null) {
      if (required) errors[field] = "is required";
      return null;
    }
    if (!Number.isFinite(value)) errors[field] = "must be a number";
    return value;
  };

  const rootUrl = rootUrlSchema.safeParse(values.rootUrl);
  if (!rootUrl.success) errors.rootUrl = rootUrl.error.issues[0]?.message ?? "is not a valid URL";
  if (values.targetMimeTypes.length === 0) errors.targetMimeTypes = "needs at least one MIME type";

  const requests = numberOrError("budget.requests", values.budgetRequests, { required: true });
  const byteLimit = numberOrError("budget.bytes", values.byteLimit, { required: false });
  const timeLimit = numberOrError("budget.seconds", values.timeLimit, { required: false });
  const bytes = byteLimit === null ? null : Math.round(byteLimit * (values.byteUnit === "GB" ? GIB : MIB));
  const seconds = timeLimit === null ? null : Math.round(timeLimit * (values.timeUnit === "hours" ? 3600 : 60));
  const budget = { requests: requests ?? 0, bytes, seconds };
  const budgetCheck = budgetSchema.safeParse(budget);
  if (!budgetCheck.success) {
    for (const issue of budgetCheck.error.issues) {
      const field = `budget.${issue.path.join(".")}`;
      errors[field] ??= issue.message;
    }
  }

  const delayMs = numberOrError("politeness.delayMs", values.delayMs, { required: true });
  const delayCheck = politenessSchema.shape.delayMs.safeParse(delayMs ?? 0);
  if (!delayCheck.success) errors["politeness.delayMs"] ??= delayCheck.error.issues[0]?.message ?? "is not valid";

  const params: Record<string, number | boolean | string> = {
    earlyStop: values.earlyStop,
    skipDeadUrlShapes: values.skipDeadUrlShapes,
    skipRedundantQueryVariants: values.skipRedundantQueryVariants,
    rewardScaledExploration: values.rewardScaledExploration,
    barrenDamping: values.barrenDamping,
    regroupRediscoveredLinks: values.regroupRediscoveredLinks,
    splitActionsByUrlShape: values.splitActionsByUrlShape,
    useSitemaps: values.useSitemaps,
    revisitsCompete: values.revisitsCompete,
    rewardPulledTargets: values.rewardPulledTargets,
    labelRedirectedLinks: values.labelRedirectedLinks,
    followRedirectsOffSite: values.followRedirectsOffSite,
    stableTagPathClasses: values.stableTagPathClasses,
    groupIndex: values.groupIndex,
    policy: values.policy,
  };
  for (const key of PARAM_KEYS) {
    const base = values.paramBase[key];
    if (values.params[key].trim() === formatParam(base)) {
      params[key] = base;
      continue;
    }
    const value = numberOrError(`params.${key}`, values.params[key], { required: true });
    if (value !== null) params[key] = value;
  }
  const seed = numberOrError("seed", values.seed, { required: false });

  const settings: CrawlConfigInput = {
    rootUrl: values.rootUrl.trim(),
    name: values.name.trim() || null,
    targetMimeTypes: values.targetMimeTypes,
    budget,
    blocklist: {
      urlPatterns: splitLines(values.urlPatterns),
      extensions: splitWords(values.extensions),
      mimeTypes: splitWords(values.blockedMimeTypes),
    },
    politeness: {
      ...hidden?.politeness,
      delayMs: delayMs ?? 0,
      obeyRobots: values.obeyRobots,
    },
    archive: { ...hidden?.archive, keepWarc: values.keepWarc },
    strategy: values.strategy,
    params: params as CrawlConfigInput["params"],
    applications: { use: values.useApplications, recipe: values.recipe },
    render: values.render,
    ...(seed === null ? {} : { seed }),
    ...(hidden?.after ? { after: hidden.after, checkKnownFiles: hidden.checkKnownFiles ?? false } : {}),
  };
  return { settings, errors };
}
