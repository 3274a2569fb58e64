import type { ForageConfig } from "../../config";
import { CrawlConfigError, parseCrawlConfig, type CrawlConfig, type Strategy } from "../../crawl-config";
import { insertCrawl } from "../../store/insert-crawl";
import { CLI_LEASE_MS, cliHolderId, holdLease } from "../../worker/leases";
import type { Db } from "../../store/prisma-client";
import type { CrawlCounters, CrawlEnd } from "../engine/types";
import { HostPoliteness } from "../fetch/host-politeness";
import { loadCrawlConfig, runStoredCrawl } from "../run-stored-crawl";
import { ReplayFetcher, type ReplayFetcherStats } from "./replay-fetcher";
import { ReplayIndex } from "./replay-index";
import { createReplayOracle } from "./replay-oracle";
import { copyPrefixToFolder } from "../../storage/copy-to-folder";
import { storageFor } from "../../storage/storage-for";

/** The source crawl cannot be replayed (missing, unfinished, nothing kept); the message says why. */
export class ReplayError extends Error {
  override name = "ReplayError";
}

export interface ReplayOptions {
  db: Db;
  forage: ForageConfig;
  /** The stored, finished crawl to replay. */
  sourceCrawlId: number;
  strategy: Strategy;
  /** @default the source crawl's seed (same strategy + same seed = the same crawl again) */
  seed?: number;
  /** Budget in requests. @default the source crawl's */
  budgetRequests?: number;
  /** Aborting pauses the run (`end.kind === "paused"`), as for `runStoredCrawl`. */
  signal?: AbortSignal;
  onProgress?: (counters: CrawlCounters) => void;
  /** Called once the replay crawl exists, before it runs. */
  onCreated?: (crawlId: number, config: CrawlConfig, index: ReplayIndex) => void;
}

export interface ReplayRun {
  /** The new crawl holding the replay's results. */
  crawlId: number;
  config: CrawlConfig;
  end: CrawlEnd;
  /** Answers from the stored crawl vs. requests it could not answer (`not-archived`). */
  stats: ReplayFetcherStats;
}

/**
 * Re-runs a stored, finished crawl offline with another strategy (the paper's local mode) and
 * stores the result as a new crawl (`replayOfCrawlId`): the source's settings with the new
 * strategy, seed and budget, no politeness delay. Every request is answered by a ReplayFetcher
 * from the source's stored responses, so the replay makes no network request at all; URLs the
 * source never fetched cost a request and answer `not-archived`: a replay can only be as complete
 * as its source. `sb-oracle` types links with the stored truth (SB-ORACLE).
 */
export async function runReplay(options: ReplayOptions): Promise<ReplayRun> {
  const { db, forage, sourceCrawlId } = options;
  const sourceConfig = await checkReplayable(db, sourceCrawlId);
  const config = replayConfig(sourceConfig, sourceCrawlId, options);
  const index = await ReplayIndex.build(db, sourceCrawlId, { targetMimeTypes: sourceConfig.targetMimeTypes });
  // The source may have run on another machine: its pages and files come from the shared bucket.
  await copyPrefixToFolder(storageFor(forage.dataDir, forage.storage), `crawls/${sourceCrawlId}`, forage.dataDir);
  const fetcher = new ReplayFetcher({ db, dataDir: forage.dataDir, index });
  const holderId = cliHolderId();
  const crawlId = await insertCrawl(db, config, { replayOfCrawlId: sourceCrawlId, heldBy: { holderId, leaseMs: CLI_LEASE_MS } });
  const lease = holdLease(db, crawlId, holderId, CLI_LEASE_MS);
  options.onCreated?.(crawlId, config, index);
  try {
    const end = await runStoredCrawl({
      db,
      forage,
      crawlId,
      politeness: new HostPoliteness({ defaultDelayMs: 0 }),
      signal: options.signal ?? new AbortController().signal,
      fetcher,
      oracle: config.strategy === "sb-oracle" ? createReplayOracle(index) : undefined,
      onProgress: options.onProgress,
    });
    return { crawlId, config, end, stats: fetcher.stats };
  } finally {
    lease.stop();
    fetcher.close();
  }
}

/** The source crawl's settings, once it is known to be replayable. @throws ReplayError */
export async function checkReplayable(db: Db, crawlId: number): Promise<CrawlConfig> {
  const crawl = await db.crawl.findUnique({ where: { id: crawlId }, select: { status: true } });
  if (!crawl) throw new ReplayError(`crawl ${crawlId} not found`);
  switch (crawl.status) {
    case "finished":
      break;
    case "queued":
    case "running":
    case "paused":
      throw new ReplayError(`crawl ${crawlId} is still ${crawl.status}: replay needs a finished crawl`);
    case "cancelled":
      throw new ReplayError(`crawl ${crawlId} was cancelled (its files were discarded): replay needs a finished crawl`);
    default:
      throw new ReplayError(`crawl ${crawlId} ${crawl.status === "failed" ? "failed" : `is ${crawl.status}`}: replay needs a finished crawl`);
  }
  const body = await db.storedBody.findFirst({ where: { crawlId }, select: { sha256: true } });
  if (!body) throw new ReplayError(`crawl ${crawlId} kept no page bodies: it cannot be replayed`);
  try {
    return await loadCrawlConfig(db, crawlId);
  } catch (error) {
    throw new ReplayError(`crawl ${crawlId} has unreadable settings: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The source's settings with the replay's strategy, seed and budget, and no politeness delay. */
export function replayConfig(source: CrawlConfig, sourceCrawlId: number, options: Pick<ReplayOptions, "strategy" | "seed" | "budgetRequests">): CrawlConfig {
  try {
    return parseCrawlConfig({
      ...source,
      name: `Replay of crawl ${sourceCrawlId} (${options.strategy})`,
      strategy: options.strategy,
      seed: options.seed ?? source.seed,
      budget: { ...source.budget, requests: options.budgetRequests ?? source.budget.requests },
      politeness: { ...source.politeness, delayMs: 0 },
    });
  } catch (error) {
    if (error instanceof CrawlConfigError) throw new ReplayError(error.message);
    throw error;
  }
}

