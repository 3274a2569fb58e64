import type { CrawlConfig } from "@/lib/crawl-config";

/**
 * The JSON the API answers (docs/API.md), as the browser sees it: dates are ISO strings,
 * byte counts plain numbers. Kept next to the hooks so components never guess a shape.
 */

// The shapes are the lib queries' own (type-only imports: nothing of lib/store reaches the
// browser bundle), so the API and the components cannot drift apart.
import type { CrawlDetail as StoredCrawlDetail } from "@/lib/store/queries/get-crawl";
import type { EarlyStopView } from "@/lib/store/queries/get-early-stop-windows";
import type { MetricPointView } from "@/lib/store/queries/get-crawl-metrics";
import type { RequestRowView } from "@/lib/store/queries/get-requests-page";
import type { TagPathGroupView } from "@/lib/store/queries/get-tag-path-groups";
import type { TargetView } from "@/lib/store/queries/get-targets-page";

export type { CrawlSummary } from "@/lib/store/queries/crawl-summary";
export type { GroupSort } from "@/lib/store/queries/get-tag-path-groups";

export type CrawlCounters = StoredCrawlDetail["counters"];
/** The stored settings are validated JSON: the browser reads them as the settings type. */
export type CrawlDetail = Omit<StoredCrawlDetail, "config"> & { config: CrawlConfig };
export type MetricPoint = MetricPointView;
export type TagPathGroup = TagPathGroupView;
export type EarlyStopState = EarlyStopView;
export type EarlyStopWindow = EarlyStopView["windows"][number];
export type TargetFile = TargetView;
export type RequestRow = RequestRowView;

export const GROUP_SORTS = ["meanReward", "totalReward", "selections", "members"] as const;

export interface MimeCount {
  mime: string;
  count: number;
  bytes: number;
}

/** Request outcomes recorded by the worker (prisma/schema.prisma `CrawlRequest.outcome`). */
export const REQUEST_OUTCOMES = {
  ok: "OK",
  error: "Error",
  "robots-disallowed": "Robots skip",
  "blocked-mime": "Blocked MIME type",
  "too-large": "Too large",
  redirect: "Redirect",
} as const;
export type RequestOutcome = keyof typeof REQUEST_OUTCOMES;

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export type CrawlControl = "pause" | "resume" | "stop" | "cancel";

export interface LiveSettingsPatch {
  blocklist?: { urlPatterns: string[] };
  politeness?: { delayMs: number };
}
