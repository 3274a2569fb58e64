import type { ForageConfig } from "../config";
import type { CrawlConfig } from "../crawl-config";
import type { CrawlCounters, CrawlEnd } from "../crawler/engine/types";
import { HostPoliteness } from "../crawler/fetch/host-politeness";
import { replayConfig, type ReplaySettings } from "../crawler/replay/replay-config";
import { ReplayFetcher, type ReplayFetcherStats } from "../crawler/replay/replay-fetcher";
import { ReplayIndex } from "../crawler/replay/replay-index";
import { createReplayOracle } from "../crawler/replay/replay-oracle";
import { insertCrawl } from "../store/insert-crawl";
import { copyPrefixToFolder } from "../storage/copy-to-folder";
import { storageFor } from "../storage/storage-for";
import type { Db } from "../store/prisma-client";
import { checkReplayable, DatabaseReplaySource } from "../store/replay-source";
import { CLI_LEASE_MS, cliHolderId, holdLease } from "./leases";
import { runStoredCrawl } from "./run-stored-crawl";

export interface ReplayOptions extends ReplaySettings {
  db: Db;
  forage: ForageConfig;
  /** The stored, finished crawl to replay. */
  sourceCrawlId: number;
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
  // The source may have run on another machine: its pages and files come from the shared bucket.
  await copyPrefixToFolder(storageFor(forage.dataDir, forage.storage), `crawls/${sourceCrawlId}`, forage.dataDir);
  const source = new DatabaseReplaySource(db, forage.dataDir, sourceCrawlId);
  const index = await ReplayIndex.build(source, { targetMimeTypes: sourceConfig.targetMimeTypes });
  const fetcher = new ReplayFetcher({ source, index });
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
    source.close();
  }
}
