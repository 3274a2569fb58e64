import type { Writable } from "node:stream";
import type { StopReason } from "../../crawl-status";
import type { ArchivedPayload } from "../fetch/exchange-recorder";

/** An HTML-typed link waiting in the frontier. Small on purpose: a frontier holds millions. */
export interface FrontierLink {
  /** Position in the engine's link table; strategies keep ids, not objects. */
  readonly id: number;
  readonly url: string;
  /** Interned: equal tag paths share one string. */
  readonly tagPath: string;
  readonly anchorText: string;
  readonly depth: number;
  readonly referrer: string | null;
  /** The tag-path group (bandit action) the link was filed under; null for the root. */
  groupId: number | null;
  /**
   * The actions that pulled the page this link was found on, then that page's own parent, …
   * nearest first, at most `longTermCreditDepth` of them (sb-strategy.ts gives them a discounted
   * share of this link's reward). Absent when the crawl gives no long-term credit, and for links
   * of the root page. Links of one page share one array.
   */
  readonly lineage?: readonly number[];
}

/** Why a request was made. */
export type RequestKind = "page" | "target" | "bootstrap-head" | "robots" | "sitemap" | "api" | "render";

export type RequestOutcome = "ok" | "blocked-mime" | "too-large" | "error" | "robots-disallowed" | "redirect";

/** One row of the request log. `seq` 0 = not counted (robots.txt, robots skips). */
export interface RequestRow {
  seq: number;
  kind: RequestKind;
  method: "GET" | "HEAD";
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
  outcome: RequestOutcome;
  error: string | null;
  redirectTo: string | null;
  headers: string | null;
  bodySha256: string | null;
  startedAt: Date;
}

export interface TargetRow {
  url: string;
  mime: string;
  bytes: number;
  sha256: string;
  storagePath: string;
  sourceUrl: string | null;
  tagPath: string | null;
  groupId: number | null;
  requestSeq: number;
  fetchedAt: Date;
  /** The record (dataset, item) an application's listing says the file belongs to. */
  record?: { title?: string; page?: string } | null;
  /** The type the file's first bytes show (content-sniffing.ts); null when they say nothing. */
  detectedMime?: string | null;
  /** Whether `detectedMime` agrees with `mime`; null when nothing was detected. */
  typeMatch?: boolean | null;
}

export interface MetricRow {
  requests: number;
  targets: number;
  targetBytes: number;
  nonTargetBytes: number;
  frontierSize: number;
  slope: number | null;
  ema: number | null;
  patience: number | null;
  activeMs: number;
}

export interface GroupRow {
  groupId: number;
  sampleTagPath: string;
  members: number;
  available: number;
  selections: number;
  meanReward: number;
  totalReward: number;
}

export interface EventRow {
  level: "info" | "warn" | "error";
  kind: string;
  message: string;
  data?: unknown;
}

/** Running totals of a crawl, persisted with it. */
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
  activeMs: number;
  /** Pages rendered in a browser (page-rendering.ts). */
  renderedPages: number;
}

/** A target body being written; `commit` makes it part of the crawl, `discard` removes it. */
export interface TargetBodyWriter {
  readonly writable: Writable;
  /** Resolves once the file is in place (content-addressed: an identical file is stored once). */
  commit(): Promise<{ sha256: string; bytes: number; storagePath: string }>;
  discard(): Promise<void>;
}

/**
 * Where a crawl's results go. Calls are buffered and ordered; `flush` makes them durable.
 * The Prisma implementation batches rows in transactions; the memory one serves tests and
 * the benchmark's baseline.
 */
export interface CrawlSink {
  request(row: RequestRow): void;
  openTargetBody(): TargetBodyWriter;
  target(row: TargetRow): void;
  /**
   * Keeps an HTML body for offline replay; returns its SHA-256. `archived`, when the crawl keeps
   * a web archive, says where the exchange's payload lies in it: the body is then read back from there.
   */
  pageBody(body: Buffer, archived?: Promise<ArchivedPayload | null>): string;
  metrics(row: MetricRow): void;
  groups(rows: GroupRow[]): void;
  event(row: EventRow): void;
  counters(counters: CrawlCounters): void;
  flush(): Promise<void>;
}

/** The end of a crawl run: a stop reason, or a pause that leaves the crawl resumable. */
export type CrawlEnd = { kind: "stopped"; reason: StopReason; detail?: string } | { kind: "paused" };
