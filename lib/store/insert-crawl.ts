import type { CrawlConfig } from "../crawl-config";
import type { Db } from "./prisma-client";

/** Stores a validated crawl as `queued` with its "created" event; returns its id. */
export async function insertCrawl(db: Db, config: CrawlConfig, { replayOfCrawlId = null }: { replayOfCrawlId?: number | null } = {}): Promise<number> {
  const crawl = await db.crawl.create({
    data: {
      name: config.name,
      rootUrl: config.rootUrl,
      config: JSON.stringify(config),
      strategy: config.strategy,
      seed: config.seed,
      status: "queued",
      replayOfCrawlId,
      events: {
        create: {
          level: "info",
          kind: "created",
          message: replayOfCrawlId === null ? "Crawl created" : `Replay of crawl ${replayOfCrawlId} created`,
        },
      },
    },
    select: { id: true },
  });
  return crawl.id;
}
