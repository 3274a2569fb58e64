import { z } from "zod";
import { DEFAULT_MAX_POINTS } from "../store/queries/get-crawl-metrics";
import { GROUP_SORTS } from "../store/queries/get-tag-path-groups";
import { REQUEST_OUTCOMES } from "../store/queries/get-requests-page";
import { intParam, limitParam, MAX_ROW_ID, pagingParams } from "./query";

/**
 * The query string of each endpoint (docs/API.md). Strict: an unknown parameter is a 400,
 * so `?limt=5` fails loudly instead of returning 100 rows.
 */
export const listCrawlsQuery = z.strictObject({
  limit: limitParam(100, 1000),
  offset: intParam(0, 1_000_000_000).default(0),
});

export const metricsQuery = z.strictObject({
  after: intParam(-1, MAX_ROW_ID).optional(),
  maxPoints: intParam(2, 100_000).default(DEFAULT_MAX_POINTS),
});

export const groupsQuery = z.strictObject({
  limit: limitParam(50, 10_000),
  sort: z.enum(GROUP_SORTS, `must be one of ${GROUP_SORTS.join(", ")}`).default("meanReward"),
});

export const targetsQuery = z.strictObject({
  ...pagingParams(100),
  mime: z.string().trim().toLowerCase().min(1, "must not be empty").max(255).optional(),
  /** `true`: only files whose bytes showed another type than the one they were counted as. */
  mismatched: z.enum(["true", "false"], "must be true or false").transform((value) => value === "true").optional(),
});

export const requestsQuery = z.strictObject({
  ...pagingParams(100),
  outcome: z.enum(REQUEST_OUTCOMES, `must be one of ${REQUEST_OUTCOMES.join(", ")}`).optional(),
});

export const eventsQuery = z.strictObject(pagingParams(100));

export const FILE_CHANGES = ["new", "changed", "unchanged", "gone"] as const;

export const changesQuery = z.strictObject({
  limit: limitParam(100, 1000),
  offset: intParam(0, 1_000_000_000).default(0),
  change: z.enum(FILE_CHANGES, `must be one of ${FILE_CHANGES.join(", ")}`).optional(),
});

/** Endpoints without parameters still refuse unknown ones. */
export const noQuery = z.strictObject({});

/** `export.zip?changes=new,changed`: only the files with these changes since the previous run. */
export const exportZipQuery = z.strictObject({
  changes: z
    .string()
    .regex(/^(new|changed|unchanged)(,(new|changed|unchanged))*$/, "must be a comma-separated list of new, changed, unchanged")
    .transform((value) => new Set(value.split(",") as ("new" | "changed" | "unchanged")[]))
    .optional(),
});
