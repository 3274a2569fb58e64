import type { MetricRow } from "../../crawler/engine/types";
import type { Db } from "../prisma-client";
import { requireCrawl } from "./require-crawl";

/** One point of the crawl's curves (docs/API.md `MetricPoint`). */
export type MetricPointView = MetricRow & { at: string };

export interface MetricsOptions {
  /** Only points with `requests > after` (the chart's last point, for live polling). */
  after?: number;
  /** At most this many points; at least 2 (first and last). @default 2000 */
  maxPoints?: number;
}

export const DEFAULT_MAX_POINTS = 2000;

/**
 * The crawl's metric points in request order, downsampled to at most `maxPoints` by stride
 * sampling, always keeping the first and the last point (the chart's ends must not move).
 *
 * Sampling runs in SQL over the `(crawlId, requests)` unique index: a window function numbers
 * the rows and only every `stride`-th row leaves the database, so a 100k-point crawl costs one
 * index range scan, not 100k rows through Prisma. Stride sampling rather than min/max bucketing
 * because the curves are cumulative (monotonic): every kept point lies on the true curve.
 * @throws NotFoundError when the crawl does not exist.
 */
export async function getCrawlMetrics(db: Db, crawlId: number, options: MetricsOptions = {}): Promise<{ points: MetricPointView[] }> {
  await requireCrawl(db, crawlId);
  const maxPoints = Math.max(2, options.maxPoints ?? DEFAULT_MAX_POINTS);
  const after = options.after ?? -1;
  const where = { crawlId, requests: { gt: after } };
  const count = await db.metricPoint.count({ where });
  if (count <= maxPoints) {
    const rows = await db.metricPoint.findMany({ where, orderBy: { requests: "asc" } });
    return { points: rows.map(toView) };
  }
  // Keeping rows 1, 1 + stride, 1 + 2·stride… and the last one gives at most maxPoints rows:
  // with stride = ceil((count - 1) / (maxPoints - 1)) the multiples number at most maxPoints,
  // and when the last row is not one of them the multiples number at most maxPoints - 1.
  const stride = Math.ceil((count - 1) / (maxPoints - 1));
  // The rows come back from the raw query itself: fetching them by id afterwards would need
  // an IN list of up to maxPoints ids, beyond the driver's bound-parameter limit.
  // The numbering reads only (crawlId, requests, id): the unique index covers it (id is the
  // rowid), so the table itself is read for the kept rows only: fast on crawls of many points.
  const rows = await db.$queryRaw<RawMetricPointRow[]>`
    SELECT m."requests", m."targets", m."targetBytes", m."nonTargetBytes", m."frontierSize", m."slope", m."ema",
           m."patience", m."activeMs", m."at"
    FROM (
      SELECT "id", ROW_NUMBER() OVER (ORDER BY "requests") AS "rn"
      FROM "MetricPoint" WHERE "crawlId" = ${crawlId} AND "requests" > ${after}
    ) AS "numbered"
    JOIN "MetricPoint" AS m ON m."id" = "numbered"."id"
    WHERE ("numbered"."rn" - 1) % ${stride} = 0 OR "numbered"."rn" = ${count}
    ORDER BY m."requests"`;
  return { points: rows.map(fromRaw) };
}

/** Raw rows: the driver types columns by their declared type, but be strict about it anyway. */
type RawMetricPointRow = { [K in keyof MetricPointRow]: MetricPointRow[K] | number | bigint | string | Date | null };

function fromRaw(row: RawMetricPointRow): MetricPointView {
  const num = (value: unknown) => (value === null ? null : Number(value));
  return {
    requests: Number(row.requests),
    targets: Number(row.targets),
    targetBytes: Number(row.targetBytes),
    nonTargetBytes: Number(row.nonTargetBytes),
    frontierSize: Number(row.frontierSize),
    slope: num(row.slope),
    ema: num(row.ema),
    patience: num(row.patience),
    activeMs: Number(row.activeMs),
    at: (row.at instanceof Date ? row.at : new Date(row.at as string | number)).toISOString(),
  };
}

interface MetricPointRow {
  requests: number;
  targets: number;
  targetBytes: bigint;
  nonTargetBytes: bigint;
  frontierSize: number;
  slope: number | null;
  ema: number | null;
  patience: number | null;
  activeMs: number;
  at: Date;
}

function toView(row: MetricPointRow): MetricPointView {
  return {
    requests: row.requests,
    targets: row.targets,
    targetBytes: Number(row.targetBytes),
    nonTargetBytes: Number(row.nonTargetBytes),
    frontierSize: row.frontierSize,
    slope: row.slope,
    ema: row.ema,
    patience: row.patience,
    activeMs: row.activeMs,
    at: row.at.toISOString(),
  };
}
