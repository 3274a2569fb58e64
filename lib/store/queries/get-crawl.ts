import { upgradeStoredCrawlConfig } from "../../crawl-config";
import { NotFoundError } from "../../errors";
import type { CrawlCounters } from "../../crawler/engine/types";
import type { Db } from "../prisma-client";
import type { ChangeCounts } from "../recrawl-store";
import { crawlSummarySelect, toCrawlSummary, type CrawlSummary } from "./crawl-summary";
import { getChangeCounts } from "./get-crawl-changes";
import { getCrawlApplications, type CrawlApplications } from "./get-crawl-applications";

/** Everything the crawl page shows about one crawl (docs/API.md `CrawlDetail`). */
export interface CrawlDetail extends CrawlSummary {
  /** The full stored settings (lib/crawler/crawl-config.ts `CrawlConfig`, with its seed). */
  config: unknown;
  seed: number;
  counters: Omit<CrawlCounters, "activeMs">;
  /** targets / requests; null before the first request. */
  harvestRate: number | null;
  /** A control the worker has not applied yet: pause | resume | stop | cancel. */
  pendingControl: string | null;
  /** Host a running crawl is held back by (rate limited), from the worker's latest "waiting" event. */
  waitingFor: string | null;
  workerId: string | null;
  updatedAt: string;
  /** The finished crawl's files as new / changed / unchanged / gone since `config.after` (all new for a first crawl); null until it finished. */
  changes: ChangeCounts | null;
  /** The application recognised behind the site (recipes), and how its listings went. */
  applications: CrawlApplications;
}

/**
 * The event kind the worker writes when a host makes the crawl wait (Retry-After, 429/503),
 * with `data = { host, untilMs }`. Any later event ends the wait.
 */
export const WAITING_EVENT_KIND = "waiting";

/** @throws NotFoundError when the crawl does not exist. */
export async function getCrawl(db: Db, crawlId: number): Promise<CrawlDetail> {
  const row = await db.crawl.findUnique({
    where: { id: crawlId },
    select: {
      ...crawlSummarySelect,
      config: true,
      seed: true,
      getCount: true,
      headCount: true,
      nonTargetBytes: true,
      errorsCount: true,
      robotsSkips: true,
      frontierSize: true,
      groupsCount: true,
      renderedPages: true,
      pendingControl: true,
      workerId: true,
      updatedAt: true,
    },
  });
  if (!row) throw new NotFoundError(`Crawl ${crawlId}`);
  const summary = toCrawlSummary(row);
  const waitingFor = row.status === "running" ? await findWaitingHost(db, crawlId) : null;
  return {
    ...summary,
    statusLabel: waitingFor ? `Running — waiting for ${waitingFor} (rate limited)` : summary.statusLabel,
    config: parseConfig(row.config),
    seed: row.seed,
    counters: {
      requests: row.requestsCount,
      getRequests: row.getCount,
      headRequests: row.headCount,
      targets: row.targetsCount,
      targetBytes: Number(row.targetBytes),
      nonTargetBytes: Number(row.nonTargetBytes),
      errors: row.errorsCount,
      robotsSkips: row.robotsSkips,
      frontierSize: row.frontierSize,
      groups: row.groupsCount,
      renderedPages: row.renderedPages,
    },
    harvestRate: row.requestsCount > 0 ? row.targetsCount / row.requestsCount : null,
    pendingControl: row.pendingControl,
    waitingFor,
    workerId: row.workerId,
    updatedAt: row.updatedAt.toISOString(),
    changes: row.status === "finished" ? await getChangeCounts(db, crawlId) : null,
    applications: await getCrawlApplications(db, crawlId),
  };
}

/**
 * The stored settings under today's names, with the values an older crawl ran with for settings
 * added since (stored-crawl-config.ts); not validated again here (this answers every poll of the
 * cockpit, and the cockpit fills what a hand-edited document lacks). Not JSON: null, so a
 * hand-edited row does not make the crawl page unreadable.
 */
function parseConfig(text: string): unknown {
  try {
    return upgradeStoredCrawlConfig(JSON.parse(text));
  } catch {
    return null;
  }
}

/** The latest event is a "waiting" one whose deadline has not passed: the host it names. */
async function findWaitingHost(db: Db, crawlId: number): Promise<string | null> {
  const latest = await db.crawlEvent.findFirst({
    where: { crawlId },
    orderBy: { id: "desc" },
    select: { kind: true, data: true },
  });
  if (latest?.kind !== WAITING_EVENT_KIND || !latest.data) return null;
  try {
    const data = JSON.parse(latest.data) as { host?: unknown; untilMs?: unknown };
    if (typeof data.host !== "string") return null;
    if (typeof data.untilMs === "number" && data.untilMs < Date.now()) return null;
    return data.host;
  } catch {
    return null;
  }
}
