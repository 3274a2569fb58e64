import { NotFoundError } from "../../errors";
import { siteKey } from "../../crawler/url-rules";
import type { Db } from "../prisma-client";
import { need, requestsToReach } from "./get-crawl-comparison";

/** Breadth-first crawls of the site looked at when none is in the crawl's replay family. */
const BFS_CANDIDATES = 200;

export interface SavedVsBfs {
  /** The breadth-first run compared with: the oldest of the crawl's replay family if there is one, else the newest finished BFS crawl of the site. */
  bfsCrawlId: number;
  /** 90 % of the targets found by the better of the two runs. */
  targets90: number;
  /** Requests this crawl needed to reach them; null when it never did. */
  requestsTo90: number | null;
  bfsRequestsTo90: number | null;
  /** bfsRequestsTo90 - requestsTo90 (negative: this crawl needed more); null when either never got there. */
  savedRequests: number | null;
}

/**
 * "Saved vs breadth-first": how many requests a crawl saved, compared with a finished BFS run of
 * the same site, to reach 90 % of the targets. Null for a BFS crawl itself, when the site has no
 * finished BFS run, or when neither run found a target.
 * @throws NotFoundError when the crawl does not exist.
 */
export async function getSavedVsBfs(db: Db, crawlId: number): Promise<SavedVsBfs | null> {
  const crawl = await db.crawl.findUnique({ where: { id: crawlId }, select: { rootUrl: true, strategy: true, replayOfCrawlId: true, targetsCount: true } });
  if (!crawl) throw new NotFoundError(`Crawl ${crawlId}`);
  if (crawl.strategy === "bfs") return null;
  const family = crawl.replayOfCrawlId ?? crawlId;
  const key = siteKey(crawl.rootUrl);
  const candidates = await db.crawl.findMany({
    where: { strategy: "bfs", status: "finished", id: { not: crawlId } },
    orderBy: { id: "desc" },
    take: BFS_CANDIDATES,
    select: { id: true, rootUrl: true, replayOfCrawlId: true, targetsCount: true },
  });
  const ofSite = candidates.filter((row) => {
    const other = siteKey(row.rootUrl);
    return other.host === key.host && other.port === key.port;
  });
  // In the family the oldest (the first asked for, as in the Compare table); else the newest of the site.
  const bfs = ofSite.findLast((row) => (row.replayOfCrawlId ?? row.id) === family) ?? ofSite[0];
  if (!bfs) return null;
  const targets90 = need(Math.max(crawl.targetsCount, bfs.targetsCount), 0.9);
  if (targets90 === 0) return null;
  const requestsTo90 = await requestsToReach(db, crawlId, targets90);
  const bfsRequestsTo90 = await requestsToReach(db, bfs.id, targets90);
  const savedRequests = requestsTo90 === null || bfsRequestsTo90 === null ? null : bfsRequestsTo90 - requestsTo90;
  return { bfsCrawlId: bfs.id, targets90, requestsTo90, bfsRequestsTo90, savedRequests };
}
