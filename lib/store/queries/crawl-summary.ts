import { describeStatus } from "../../crawl-status";

/** One crawl in the list (docs/API.md `CrawlSummary`), in plain JSON-safe types. */
export interface CrawlSummary {
  id: number;
  name: string | null;
  rootUrl: string;
  strategy: string;
  status: string;
  /** Human text of the state, e.g. "Finished: budget spent (requests)". */
  statusLabel: string;
  stopReason: string | null;
  stopDetail: string | null;
  requests: number;
  targets: number;
  targetBytes: number;
  createdAt: string;
  /** Email of the user who created it; null for the command line or a deleted user. */
  createdBy: string | null;
  /** The crawl this one replays offline; null for a crawl of the live site. */
  replayOfCrawlId: number | null;
  /** The harvest this crawl is a run of (lib/harvest); null for a crawl on its own. */
  harvestId: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  activeMs: number;
}

/** The columns `toCrawlSummary` reads. */
export const crawlSummarySelect = {
  id: true,
  name: true,
  rootUrl: true,
  strategy: true,
  status: true,
  stopReason: true,
  stopDetail: true,
  requestsCount: true,
  targetsCount: true,
  targetBytes: true,
  createdAt: true,
  createdBy: { select: { email: true } },
  replayOfCrawlId: true,
  harvestId: true,
  startedAt: true,
  finishedAt: true,
  activeMs: true,
} as const;

export interface CrawlSummaryRow {
  id: number;
  name: string | null;
  rootUrl: string;
  strategy: string;
  status: string;
  stopReason: string | null;
  stopDetail: string | null;
  requestsCount: number;
  targetsCount: number;
  targetBytes: bigint;
  createdAt: Date;
  createdBy: { email: string } | null;
  replayOfCrawlId: number | null;
  harvestId: number | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  activeMs: number;
}

export function toCrawlSummary(row: CrawlSummaryRow): CrawlSummary {
  return {
    id: row.id,
    name: row.name,
    rootUrl: row.rootUrl,
    strategy: row.strategy,
    status: row.status,
    statusLabel: describeStatus(row.status, row.stopReason, row.stopDetail),
    stopReason: row.stopReason,
    stopDetail: row.stopDetail,
    requests: row.requestsCount,
    targets: row.targetsCount,
    // Byte counts are BIGINT columns; JSON numbers stay exact up to 2^53 (8 PiB).
    targetBytes: Number(row.targetBytes),
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy?.email ?? null,
    replayOfCrawlId: row.replayOfCrawlId,
    harvestId: row.harvestId,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    activeMs: row.activeMs,
  };
}
