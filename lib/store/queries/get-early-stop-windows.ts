import { algorithmParamsSchema, upgradeStoredCrawlConfig } from "../../crawl-config";
import { NotFoundError } from "../../errors";
import type { Db } from "../prisma-client";

/** The early-stopping panel: the crawl's rule and every window evaluated so far. */
export interface EarlyStopView {
  enabled: boolean;
  windowRequests: number;
  beta: number;
  /** Targets per request below which a window counts towards patience. */
  threshold: number;
  patienceWindows: number;
  windows: { requests: number; slope: number; ema: number | null; patience: number | null }[];
}

/**
 * Early-stopping windows are the metric points the worker wrote with a slope (one per window
 * end); the rule comes from the crawl's stored settings, defaults filling what an older
 * settings document lacks.
 * @throws NotFoundError when the crawl does not exist.
 */
export async function getEarlyStopWindows(db: Db, crawlId: number): Promise<EarlyStopView> {
  const crawl = await db.crawl.findUnique({ where: { id: crawlId }, select: { config: true } });
  if (!crawl) throw new NotFoundError(`Crawl ${crawlId}`);
  const params = readParams(crawl.config);
  const rows = await db.metricPoint.findMany({
    where: { crawlId, slope: { not: null } },
    orderBy: { requests: "asc" },
    select: { requests: true, slope: true, ema: true, patience: true },
  });
  return {
    enabled: params.earlyStop,
    windowRequests: params.earlyStopWindowRequests,
    beta: params.earlyStopBeta,
    threshold: params.earlyStopTargetsPerRequest,
    patienceWindows: params.earlyStopPatienceWindows,
    windows: rows.map((row) => ({ requests: row.requests, slope: row.slope ?? 0, ema: row.ema, patience: row.patience })),
  };
}

/** The stored params under today's names (stored-crawl-config.ts), validated alone: the rest of the settings does not matter here. */
function readParams(configText: string) {
  let params: unknown = {};
  try {
    params = (upgradeStoredCrawlConfig(JSON.parse(configText)) as { params?: unknown }).params ?? {};
  } catch {
    // unreadable settings: show the defaults rather than fail the panel
  }
  const parsed = algorithmParamsSchema.safeParse(params);
  return parsed.success ? parsed.data : algorithmParamsSchema.parse({});
}
