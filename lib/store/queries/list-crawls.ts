import type { Db } from "../prisma-client";

/** One row of the crawl list, in plain JSON-safe types. */
export interface CrawlListItem {
  id: number;
  name: string | null;
  rootUrl: string;
  strategy: string;
  status: string;
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

/** Crawls, newest first. */
export async function listCrawls(db: Db, { limit = 100, offset = 0 }: { limit?: number; offset?: number } = {}): Promise<CrawlListItem[]> {
  const rows = await db.crawl.findMany({
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit,
    skip: offset,
    select: {
      id: true, name: true, rootUrl: true, strategy: true, status: true, stopReason: true, stopDetail: true,
      requestsCount: true, targetsCount: true, targetBytes: true, createdAt: true, startedAt: true, finishedAt: true,
      activeMs: true,
    },
  });
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    rootUrl: row.rootUrl,
    strategy: row.strategy,
    status: row.status,
    stopReason: row.stopReason,
    stopDetail: row.stopDetail,
    requests: row.requestsCount,
    targets: row.targetsCount,
    targetBytes: Number(row.targetBytes),
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    activeMs: row.activeMs,
  }));
}
