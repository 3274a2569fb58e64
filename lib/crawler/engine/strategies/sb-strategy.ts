import type { ActionGrouper } from "../../action-grouping";
import type { Prng } from "../../prng";
import type { SleepingBandit } from "../../sleeping-bandit";
import type { LinkTable } from "../link-table";
import type { FrontierLink, GroupRow } from "../types";
import { groupRows } from "./group-rows";
import type { CrawlStrategy, PullResult } from "./strategy";

/**
 * SB-CLASSIFIER's choice of the next page: links are grouped by tag-path similarity
 * (ActionGrouper), an AUER sleeping bandit picks the group, and a uniformly random unvisited
 * link of that group is crawled. Also SB-ORACLE, which differs only in link typing.
 */
export class SbStrategy implements CrawlStrategy {
  private waiting: number;

  /** `waiting`: links already filed in `bandit` (a grouper and bandit restored from a checkpoint). */
  constructor(
    private readonly grouper: ActionGrouper,
    private readonly bandit: SleepingBandit,
    private readonly prng: Prng,
    private readonly links: LinkTable,
    waiting = 0,
  ) {
    this.waiting = waiting;
  }

  add(link: FrontierLink): void {
    link.groupId = this.grouper.assign(link.tagPath).actionId;
    this.bandit.addLink(link.groupId, link.id);
    this.waiting += 1;
  }

  next(requestsSoFar: number): FrontierLink | null {
    const choice = this.bandit.next(requestsSoFar, this.prng);
    if (!choice) return null;
    this.waiting -= 1;
    return this.links.get(choice.linkId) ?? null;
  }

  feedback(link: FrontierLink, result: PullResult): void {
    if (link.groupId === null) return;
    // A pull that reached no HTML page counts as a selection with reward 0 (ALGORITHM.md step 5),
    // unless it reached a target itself.
    if (result.wasHtml || result.reward > 0) this.bandit.recordReward(link.groupId, result.reward);
    else this.bandit.recordFailedPull(link.groupId);
  }

  size(): number {
    return this.waiting;
  }

  groupCount(): number {
    return this.grouper.actionCount;
  }

  groups(): GroupRow[] {
    return groupRows(this.grouper, this.bandit);
  }

  toState(): unknown {
    return { grouper: this.grouper.toState(), bandit: this.bandit.toState(), waiting: this.waiting };
  }
}
