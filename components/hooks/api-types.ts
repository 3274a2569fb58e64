import type { CrawlConfig } from "@/lib/crawl-config";

/**
 * The JSON the API answers (docs/API.md), as the browser sees it: dates are ISO strings,
 * byte counts plain numbers. Kept next to the hooks so components never guess a shape.
 */

export interface CrawlSummary {
  id: number;
  name: string | null;
  rootUrl: string;
  strategy: string;
  status: string;
  statusLabel: string;
  stopReason: string | null;
  stopDetail: string | null;
  requests: number;
  targets: number;
  targetBytes: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  activeMs: number;
}

export interface CrawlCounters {
  requests: number;
  getRequests: number;
  headRequests: number;
  targets: number;
  targetBytes: number;
  nonTargetBytes: number;
  errors: number;
  robotsSkips: number;
  frontierSize: number;
  groups: number;
}

export interface CrawlDetail extends CrawlSummary {
  config: CrawlConfig;
  seed: number;
  counters: CrawlCounters;
  /** targets / requests; null before the first request. */
  harvestRate: number | null;
  pendingControl: string | null;
  waitingFor: string | null;
  workerId: string | null;
  updatedAt: string;
}

export interface MetricPoint {
  requests: number;
  targets: number;
  targetBytes: number;
  nonTargetBytes: number;
  frontierSize: number;
  slope: number | null;
  ema: number | null;
  patience: number | null;
  activeMs: number;
  at: string;
}

export interface TagPathGroup {
  groupId: number;
  sampleTagPath: string;
  members: number;
  available: number;
  sleeping: boolean;
  selections: number;
  meanReward: number;
  totalReward: number;
}

export const GROUP_SORTS = ["meanReward", "totalReward", "selections", "members"] as const;
export type GroupSort = (typeof GROUP_SORTS)[number];

export interface EarlyStopWindow {
  requests: number;
  slope: number;
  ema: number | null;
  patience: number | null;
}

export interface EarlyStopState {
  enabled: boolean;
  windowRequests: number;
  beta: number;
  threshold: number;
  patienceWindows: number;
  windows: EarlyStopWindow[];
}

export interface TargetFile {
  id: number;
  url: string;
  mime: string;
  bytes: number;
  sha256: string;
  sourceUrl: string | null;
  tagPath: string | null;
  groupId: number | null;
  requestSeq: number;
  fetchedAt: string;
  fileUrl: string;
}

export interface MimeCount {
  mime: string;
  count: number;
  bytes: number;
}

export interface RequestRow {
  id: number;
  seq: number;
  kind: string;
  method: string;
  url: string;
  status: number | null;
  mime: string | null;
  bytes: number;
  durationMs: number;
  tagPath: string | null;
  groupId: number | null;
  depth: number;
  referrer: string | null;
  isTarget: boolean;
  outcome: string;
  error: string | null;
  redirectTo: string | null;
  startedAt: string;
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
