import type { CrawlConfig } from "../crawl-config";
import type { Db } from "./prisma-client";

export interface InsertCrawlOptions {
  replayOfCrawlId?: number | null;
  /**
   * A process that runs the crawl itself (`forage crawl`, `forage replay`) stores it already
   * running under its own lease, in the same statement: a worker polling the database only
   * claims `queued` crawls, and one that claimed a replay would crawl the live site.
   */
  heldBy?: { holderId: string; leaseMs: number };
  /** The user who asked for it (null: the command line on the server). */
  createdById?: number | null;
  /** The harvest this crawl is a run of (lib/harvest/start-harvest-run.ts). */
  harvestId?: number | null;
}

/** Stores a validated crawl (queued, or running under a lease) with its "created" event; returns its id. */
export async function insertCrawl(db: Db, config: CrawlConfig, { replayOfCrawlId = null, heldBy, createdById = null, harvestId = null }: InsertCrawlOptions = {}): Promise<number> {
  const crawl = await db.crawl.create({
    data: {
      name: config.name,
      rootUrl: config.rootUrl,
      config: JSON.stringify(config),
      strategy: config.strategy,
      seed: config.seed,
      status: heldBy ? "running" : "queued",
      ...(heldBy ? { workerId: heldBy.holderId, leaseExpiresAt: new Date(Date.now() + heldBy.leaseMs), startedAt: new Date() } : {}),
      replayOfCrawlId,
      createdById,
      harvestId,
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
