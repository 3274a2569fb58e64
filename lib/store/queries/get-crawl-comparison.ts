import { InvalidRequestError, InvalidStateError, NotFoundError } from "../../errors";
import { siteKey, type SiteKey } from "../../crawler/url-rules";
import type { Db } from "../prisma-client";
import { getCrawlMetrics } from "./get-crawl-metrics";

/** Crawls one comparison may hold: six curves stay readable, a few more still fit the legend. */
export const MAX_COMPARED_CRAWLS = 10;
/** Points per curve by default: with several curves on one chart, 500 each keeps it light. */
export const DEFAULT_COMPARE_POINTS = 500;
/** Shares of the best run's targets the table counts requests to. */
export const COMPARE_FRACTIONS = [0.5, 0.9] as const;

/** One point of a compared curve: the cumulative counts after `requests` requests. */
export interface CurvePoint {
  requests: number;
  targets: number;
  targetBytes: number;
  nonTargetBytes: number;
}

export interface ComparedCrawl {
  id: number;
  name: string | null;
  rootUrl: string;
  strategy: string;
  seed: number;
  status: string;
  stopReason: string | null;
  replayOfCrawlId: number | null;
  requests: number;
  targets: number;
  targetBytes: number;
  nonTargetBytes: number;
  /** targets / requests; null before the first request. */
  harvestRate: number | null;
  /** Requests after which this crawl held 50 % of the best run's targets; null when it never did. */
  requestsTo50: number | null;
  /** The same for 90 %. */
  requestsTo90: number | null;
  /** requestsTo90 / the breadth-first run's; null without a BFS run or when either never got there. */
  ratioToBfs: number | null;
  /** Downsampled curve (stride sampling, first and last point kept), ending at the crawl's counters. */
  points: CurvePoint[];
}

export interface CrawlComparison {
  /** The root URL of the first crawl: all crawls share its site. */
  rootUrl: string;
  /** The run that found the most targets, and what 50 % and 90 % of them are. */
  best: { crawlId: number; targets: number; targets50: number; targets90: number };
  /** The breadth-first run the ratios refer to (the oldest BFS among the compared), or null. */
  bfsCrawlId: number | null;
  /**
   * The omniscient crawler (one request per target, in collection order), known when all crawls
   * are one stored crawl and its replays: a replay can only find the targets its source stored.
   */
  omniscient: { sourceCrawlId: number; targets: number } | null;
  crawls: ComparedCrawl[];
}

export interface ComparisonOptions {
  /** Points per curve. @default 500 */
  maxPoints?: number;
}

const crawlSelect = {
  id: true,
  name: true,
  rootUrl: true,
  strategy: true,
  seed: true,
  status: true,
  stopReason: true,
  replayOfCrawlId: true,
  requestsCount: true,
  targetsCount: true,
  targetBytes: true,
  nonTargetBytes: true,
} as const;

/**
 * Curves and efficiency table of several crawls of one site (the Compare view): each crawl's
 * targets and volumes against requests, requests to reach 50 % / 90 % of the targets the best
 * run found, the ratio to breadth-first and, for a stored crawl and its replays, the omniscient
 * line. Crawls not over yet are included with their status (queued: no curve yet; running:
 * numbers so far), so replays just asked for can be watched on the chart; cancelled ones
 * discarded their data.
 * @throws NotFoundError for an unknown crawl, InvalidRequestError when the crawls are of
 * different sites, InvalidStateError for a cancelled crawl.
 */
export async function getCrawlComparison(db: Db, ids: readonly number[], options: ComparisonOptions = {}): Promise<CrawlComparison> {
  const rows = await db.crawl.findMany({ where: { id: { in: [...ids] } }, select: crawlSelect });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing !== undefined) throw new NotFoundError(`Crawl ${missing}`);
  const ordered = ids.map((id) => byId.get(id)!);
  checkOneSite(ordered);
  const cancelled = ordered.find((row) => row.status === "cancelled");
  if (cancelled) throw new InvalidStateError(`Crawl ${cancelled.id} was cancelled (its data was discarded): it cannot be compared`);

  const bestRow = ordered.reduce((best, row) => (row.targetsCount > best.targetsCount ? row : best), ordered[0]!);
  const best = { crawlId: bestRow.id, targets: bestRow.targetsCount, targets50: need(bestRow.targetsCount, 0.5), targets90: need(bestRow.targetsCount, 0.9) };
  const maxPoints = options.maxPoints ?? DEFAULT_COMPARE_POINTS;
  const crawls: ComparedCrawl[] = [];
  for (const row of ordered) {
    const { points } = await getCrawlMetrics(db, row.id, { maxPoints });
    const curve: CurvePoint[] = points.map(({ requests, targets, targetBytes, nonTargetBytes }) => ({ requests, targets, targetBytes, nonTargetBytes }));
    const final: CurvePoint = { requests: row.requestsCount, targets: row.targetsCount, targetBytes: Number(row.targetBytes), nonTargetBytes: Number(row.nonTargetBytes) };
    // Metric points are written at a cadence; the curve ends where the counters are.
    if ((curve.at(-1)?.requests ?? 0) < final.requests) curve.push(final);
    crawls.push({
      id: row.id,
      name: row.name,
      rootUrl: row.rootUrl,
      strategy: row.strategy,
      seed: row.seed,
      status: row.status,
      stopReason: row.stopReason,
      replayOfCrawlId: row.replayOfCrawlId,
      requests: row.requestsCount,
      targets: row.targetsCount,
      targetBytes: final.targetBytes,
      nonTargetBytes: final.nonTargetBytes,
      harvestRate: row.requestsCount > 0 ? row.targetsCount / row.requestsCount : null,
      requestsTo50: await requestsToReach(db, row.id, best.targets50),
      requestsTo90: await requestsToReach(db, row.id, best.targets90),
      ratioToBfs: null,
      points: curve,
    });
  }
  const bfs = crawls.filter((crawl) => crawl.strategy === "bfs").sort((a, b) => a.id - b.id)[0] ?? null;
  if (bfs?.requestsTo90) {
    for (const crawl of crawls) crawl.ratioToBfs = crawl.requestsTo90 === null ? null : crawl.requestsTo90 / bfs.requestsTo90;
  }
  return { rootUrl: ordered[0]!.rootUrl, best, bfsCrawlId: bfs?.id ?? null, omniscient: await omniscientLine(db, ordered), crawls };
}

/** ceil(total × fraction) targets, at least one (the 50 % of 1 target is that target). */
export function need(total: number, fraction: number): number {
  return total <= 0 ? 0 : Math.max(1, Math.ceil(total * fraction - 1e-9));
}

/**
 * The request count at which the crawl had fetched `targets` targets: the request number of its
 * `targets`-th target in request order; null when it never had that many (or `targets` is 0).
 */
export async function requestsToReach(db: Db, crawlId: number, targets: number): Promise<number | null> {
  if (targets <= 0) return null;
  const row = await db.target.findFirst({ where: { crawlId }, orderBy: [{ requestSeq: "asc" }, { id: "asc" }], skip: targets - 1, select: { requestSeq: true } });
  return row?.requestSeq ?? null;
}

/** Two root URLs are one site when their site keys (host without `www.`, port for local hosts) are equal. */
function sameSite(a: SiteKey, b: SiteKey): boolean {
  return a.host === b.host && a.port === b.port;
}

function describeSite(key: SiteKey): string {
  return key.port === null ? key.host : `${key.host}:${key.port}`;
}

function checkOneSite(rows: readonly { id: number; rootUrl: string }[]): void {
  const first = rows[0]!;
  const key = siteKey(first.rootUrl);
  const other = rows.find((row) => !sameSite(siteKey(row.rootUrl), key));
  if (other) {
    throw new InvalidRequestError(
      { ids: `must name crawls of one site: crawl ${first.id} crawled ${describeSite(key)}, crawl ${other.id} crawled ${describeSite(siteKey(other.rootUrl))}` },
      "Crawls of different sites cannot be compared",
    );
  }
}

/** The omniscient line's height when every crawl is one stored crawl or a replay of it. */
async function omniscientLine(db: Db, rows: readonly { id: number; replayOfCrawlId: number | null }[]): Promise<CrawlComparison["omniscient"]> {
  const sources = new Set(rows.map((row) => row.replayOfCrawlId ?? row.id));
  if (sources.size !== 1) return null;
  const sourceCrawlId = [...sources][0]!;
  const source = await db.crawl.findUnique({ where: { id: sourceCrawlId }, select: { status: true } });
  if (!source || source.status === "cancelled") return null;
  return { sourceCrawlId, targets: await db.target.count({ where: { crawlId: sourceCrawlId } }) };
}
