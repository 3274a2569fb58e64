import type { ForageConfig } from "../config";
import type { LinkOracle } from "../crawler/engine/link-typer";
import { HostPoliteness } from "../crawler/fetch/host-politeness";
import { ReplayFetcher } from "../crawler/replay/replay-fetcher";
import { ReplayIndex } from "../crawler/replay/replay-index";
import { createReplayOracle } from "../crawler/replay/replay-oracle";
import { copyPrefixToFolder } from "../storage/copy-to-folder";
import { storageFor } from "../storage/storage-for";
import type { Db } from "../store/prisma-client";
import { checkReplayable, DatabaseReplaySource } from "../store/replay-source";

/** What `runStoredCrawl` needs to run a replay crawl offline instead of on the network. */
export interface StoredReplayParts {
  fetcher: ReplayFetcher;
  /** SB-ORACLE's link typer; undefined for every other strategy. */
  oracle: LinkOracle | undefined;
  /**
   * A politeness clock of its own without delay: the replay never reaches the site, so it must
   * neither wait behind nor hold back the live crawls of the same host in the worker's clock.
   */
  politeness: HostPoliteness;
  close(): void;
}

/**
 * The replay fetcher (and oracle) of a crawl stored with `replayOfCrawlId`, built exactly as
 * `forage replay` builds them (run-replay.ts), so a replay run by the worker makes the same
 * requests as the command line with the same strategy and seed.
 * @throws ReplayError when the source is gone or no longer replayable.
 */
export async function prepareStoredReplay(db: Db, forage: ForageConfig, sourceCrawlId: number, strategy: string): Promise<StoredReplayParts> {
  const sourceConfig = await checkReplayable(db, sourceCrawlId);
  // The source may have run on another machine: its pages and files come from the shared bucket.
  await copyPrefixToFolder(storageFor(forage.dataDir, forage.storage), `crawls/${sourceCrawlId}`, forage.dataDir);
  const source = new DatabaseReplaySource(db, forage.dataDir, sourceCrawlId);
  const index = await ReplayIndex.build(source, { targetMimeTypes: sourceConfig.targetMimeTypes });
  return {
    fetcher: new ReplayFetcher({ source, index }),
    oracle: strategy === "sb-oracle" ? createReplayOracle(index) : undefined,
    politeness: new HostPoliteness({ defaultDelayMs: 0 }),
    close: () => source.close(),
  };
}
