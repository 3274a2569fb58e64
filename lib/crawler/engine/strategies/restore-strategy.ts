import type { CrawlConfig } from "../../crawl-config";
import { ActionGrouper, type ActionGrouperState } from "../../action-grouping";
import type { Prng } from "../../prng";
import { SleepingBandit, type SleepingBanditState } from "../../sleeping-bandit";
import type { LinkTable } from "../link-table";
import type { FrontierLink } from "../types";
import { grouperOptions, sbOptions } from "./create-strategy";
import { LinkScorer, type LinkScorerState } from "../../link-scorer";
import { PathSegmentStats, type PathSegmentStatsState } from "../../path-segment-stats";
import { FocusedStrategy } from "./focused-strategy";
import { FifoStrategy, LifoStrategy, RandomStrategy } from "./queue-strategies";
import { SbStrategy } from "./sb-strategy";
import { OutlookCache, type OutlookCacheState } from "../../outlook-cache";
import { ActionSplitter, type ActionSplitterState } from "../../action-splitter";
import type { CrawlStrategy } from "./strategy";
import { TpOffStrategy } from "./tp-off-strategy";
import { TresStrategy, type TresState } from "./tres-strategy";

/** What each strategy's `toState()` writes (links by id in the engine's link table). */
interface QueueState {
  links: number[];
}
interface SbState {
  grouper: ActionGrouperState;
  bandit: SleepingBanditState;
  /** Absent in checkpoints written before SB ranked links within a group. */
  scorer?: LinkScorerState;
  segments?: PathSegmentStatsState;
  waiting: number;
  /** Absent in checkpoints written before actions could split. */
  splitter?: ActionSplitterState;
  /** Absent in checkpoints written before outlooks were kept for a few requests: every action is then drawn afresh. */
  outlooks?: OutlookCacheState;
}
interface TpOffState {
  grouper: ActionGrouperState;
  values: SleepingBanditState;
  frozen: boolean;
  fifo: QueueState;
  waiting: number;
}
interface FocusedState {
  links: [id: number, score: number][];
  warm: boolean;
  scorer: LinkScorerState;
}

export class StrategyStateError extends TypeError {
  override name = "StrategyStateError";
}

/**
 * Rebuilds the strategy a crawl's settings name from its `toState()`, sharing the restored
 * PRNG and link table: the restored strategy makes the same later choices as the saved one
 * (the sb grouper rebuilds its index from the stored centroids, `ActionGrouper.fromState`).
 */
export function restoreStrategy(config: CrawlConfig, prng: Prng, links: LinkTable, state: unknown): CrawlStrategy {
  if (!state || typeof state !== "object") throw new StrategyStateError(`Invalid ${config.strategy} state: not an object`);
  const link = (id: number): FrontierLink => {
    const found = links.get(id);
    if (!found) throw new StrategyStateError(`Invalid ${config.strategy} state: link ${id} is not in the link table`);
    return found;
  };
  switch (config.strategy) {
    case "sb":
    case "sb-paper":
    case "sb-oracle": {
      const s = state as SbState;
      const bandit = SleepingBandit.fromState(s.bandit);
      const scorer = s.scorer ? LinkScorer.fromState(s.scorer) : new LinkScorer();
      const segments = s.segments ? PathSegmentStats.fromState(s.segments) : new PathSegmentStats();
      const splitter = s.splitter ? ActionSplitter.fromState(s.splitter) : new ActionSplitter();
      const outlooks = OutlookCache.fromState(s.outlooks);
      return new SbStrategy(ActionGrouper.fromState(s.grouper, grouperOptions(config)), bandit, prng, links, sbOptions(config), scorer, segments, s.waiting, splitter, outlooks);
    }
    case "bfs":
      return refill(new FifoStrategy(), (state as QueueState).links, link);
    case "dfs":
      return refill(new LifoStrategy(), (state as QueueState).links, link);
    case "random":
      return refill(new RandomStrategy(prng), (state as QueueState).links, link);
    case "focused": {
      const s = state as FocusedState;
      return new FocusedStrategy(config.params.focusedWarmupRequests, {
        heap: s.links.map(([id, score]) => ({ link: link(id), score })),
        warm: s.warm,
        scorer: LinkScorer.fromState(s.scorer),
      });
    }
    case "tp-off": {
      const s = state as TpOffState;
      return new TpOffStrategy(ActionGrouper.fromState(s.grouper, grouperOptions(config)), prng, links, config.params.tpOffExplorationRequests, {
        values: SleepingBandit.fromState(s.values),
        frozen: s.frozen,
        fifo: s.fifo.links.map(link),
        waiting: s.waiting,
      });
    }
    case "tres":
      try {
        return new TresStrategy(prng, { state: state as TresState, link });
      } catch (error) {
        if (error instanceof StrategyStateError) throw error;
        throw new StrategyStateError(`Invalid tres state: ${error instanceof Error ? error.message : String(error)}`);
      }
  }
}

/** FIFO, LIFO and RANDOM keep their links in one array: adding them in saved order restores it. */
function refill<T extends CrawlStrategy>(strategy: T, ids: number[], link: (id: number) => FrontierLink): T {
  if (!Array.isArray(ids)) throw new StrategyStateError("Invalid queue state: links is not an array");
  for (const id of ids) strategy.add(link(id));
  return strategy;
}
