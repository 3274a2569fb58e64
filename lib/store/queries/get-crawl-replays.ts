import { NotFoundError } from "../../errors";
import type { Db } from "../prisma-client";

/** One crawl of a replay family, as the cockpit lists it. */
export interface ReplayFamilyMember {
  id: number;
  strategy: string;
  seed: number;
  status: string;
  stopReason: string | null;
  requests: number;
  targets: number;
}

export interface CrawlReplays {
  /** The stored crawl the family replays: this crawl itself, or the one it is a replay of. */
  sourceCrawlId: number;
  /** This crawl's source when it is a replay (null when it is not, or the source was deleted). */
  source: ReplayFamilyMember | null;
  /** Every replay of the source, oldest first (this crawl included when it is one). */
  replays: ReplayFamilyMember[];
}

const memberSelect = { id: true, strategy: true, seed: true, status: true, stopReason: true, requestsCount: true, targetsCount: true } as const;
type MemberRow = { id: number; strategy: string; seed: number; status: string; stopReason: string | null; requestsCount: number; targetsCount: number };

const toMember = (row: MemberRow): ReplayFamilyMember => ({
  id: row.id,
  strategy: row.strategy,
  seed: row.seed,
  status: row.status,
  stopReason: row.stopReason,
  requests: row.requestsCount,
  targets: row.targetsCount,
});

/**
 * A crawl's replay family: its source (when it is a replay) and all replays of that source.
 * @throws NotFoundError when the crawl does not exist.
 */
export async function getCrawlReplays(db: Db, crawlId: number): Promise<CrawlReplays> {
  const crawl = await db.crawl.findUnique({ where: { id: crawlId }, select: { replayOfCrawlId: true } });
  if (!crawl) throw new NotFoundError(`Crawl ${crawlId}`);
  const sourceCrawlId = crawl.replayOfCrawlId ?? crawlId;
  const source = crawl.replayOfCrawlId === null ? null : await db.crawl.findUnique({ where: { id: sourceCrawlId }, select: memberSelect });
  const replays = await db.crawl.findMany({ where: { replayOfCrawlId: sourceCrawlId }, orderBy: { id: "asc" }, select: memberSelect });
  return { sourceCrawlId, source: source ? toMember(source) : null, replays: replays.map(toMember) };
}
