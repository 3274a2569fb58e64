import { CrawlConfigError, parseCrawlConfig, type CrawlConfig, type Strategy } from "../crawl-config";

/** The source crawl cannot be replayed (missing, unfinished, nothing kept); the message says why. */
export class ReplayError extends Error {
  override name = "ReplayError";
}

/** What a replay changes of its source's settings. */
export interface ReplaySettings {
  strategy: Strategy;
  /** @default the source crawl's seed (same strategy + same seed = the same crawl again) */
  seed?: number;
  /** Budget in requests. @default the source crawl's */
  budgetRequests?: number;
}

/** The source's settings with the replay's strategy, seed and budget, and no politeness delay. */
export function replayConfig(source: CrawlConfig, sourceCrawlId: number, options: ReplaySettings): CrawlConfig {
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
