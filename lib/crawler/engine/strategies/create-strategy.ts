import type { CrawlConfig } from "../../crawl-config";
import { ActionGrouper, type ActionGroupingOptions } from "../../action-grouping";
import type { Prng } from "../../prng";
import { SleepingBandit } from "../../sleeping-bandit";
import type { LinkTable } from "../link-table";
import { FocusedStrategy } from "./focused-strategy";
import { FifoStrategy, LifoStrategy, RandomStrategy } from "./queue-strategies";
import { SbStrategy, type SbOptions } from "./sb-strategy";
import type { CrawlStrategy } from "./strategy";
import { TpOffStrategy } from "./tp-off-strategy";
import { TresStrategy } from "./tres-strategy";

export function createGrouper(config: CrawlConfig): ActionGrouper {
  return new ActionGrouper(grouperOptions(config));
}

/** The grouper settings of a crawl (also used to restore a grouper from a checkpoint). */
export function grouperOptions(config: CrawlConfig): ActionGroupingOptions {
  const { params } = config;
  return {
    similarityThreshold: params.similarityThreshold,
    index: params.groupIndex,
    hnswM: params.hnswM,
    hnswEfConstruction: params.hnswEfConstruction,
    hnswEf: params.hnswEf,
  };
}

/** The SB bandit of a crawl's settings (as the engine runs them: `effectiveConfig`). */
export function createBandit(config: CrawlConfig): SleepingBandit {
  const { banditAlpha, rewardScaledExploration, barrenDamping, policy } = config.params;
  return new SleepingBandit({ alpha: banditAlpha, rewardScaledBonus: rewardScaledExploration, barrenDamping, policy });
}

/** The SB strategy settings of a crawl (also used to restore one from a checkpoint). */
export function sbOptions(config: CrawlConfig): SbOptions {
  const { linkRankSamples, urlOutlookWeight, regroupRediscoveredLinks, splitActionsByUrlShape, longTermCreditDiscount } = config.params;
  return { linkRankSamples, urlOutlookWeight, regroupRediscoveredLinks, splitActionsByUrlShape, longTermCreditDiscount };
}

/** The strategy a crawl's settings name, sharing the crawl's PRNG and link table. */
export function createStrategy(config: CrawlConfig, prng: Prng, links: LinkTable): CrawlStrategy {
  switch (config.strategy) {
    case "sb":
    case "sb-paper":
    case "sb-oracle":
      return new SbStrategy(createGrouper(config), createBandit(config), prng, links, sbOptions(config));
    case "bfs":
      return new FifoStrategy();
    case "dfs":
      return new LifoStrategy();
    case "random":
      return new RandomStrategy(prng);
    case "focused":
      return new FocusedStrategy(config.params.focusedWarmupRequests);
    case "tp-off":
      return new TpOffStrategy(createGrouper(config), prng, links, config.params.tpOffExplorationRequests);
    case "tres":
      return new TresStrategy(prng);
  }
}
