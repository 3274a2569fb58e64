import type { ActionGrouper } from "../../action-grouping";
import type { Prng } from "../../prng";
import { SleepingBandit } from "../../sleeping-bandit";
import type { LinkTable } from "../link-table";
import type { FrontierLink, GroupRow } from "../types";
import { FifoStrategy } from "./queue-strategies";
import { groupRows } from "./group-rows";
import type { CrawlStrategy, PullResult } from "./strategy";

/**
 * TP-OFF (ALGORITHM.md "Baselines"): breadth-first for the first `explorationRequests`
 * requests while learning each tag-path group's mean reward, then the values are frozen and
 * the group with the best frozen value is always crawled first (a greedy bandit with α = 0
 * that stops learning). Shows what online learning adds over a one-off offline estimate.
 */
export class TpOffStrategy implements CrawlStrategy {
  private readonly fifo = new FifoStrategy();
  /** Learns during exploration; after the freeze only holds the links (α = 0: score = frozen mean). */
  private readonly values: SleepingBandit;
  private frozen = false;
  private waiting = 0;

  /** `restored`: the state of a checkpoint (restore-strategy.ts), links already grouped. */
  constructor(
    private readonly grouper: ActionGrouper,
    private readonly prng: Prng,
    private readonly links: LinkTable,
    private readonly explorationRequests: number,
    restored?: { values: SleepingBandit; frozen: boolean; fifo: FrontierLink[]; waiting: number },
  ) {
    this.values = restored?.values ?? new SleepingBandit({ alpha: 0 });
    if (restored) {
      this.frozen = restored.frozen;
      this.waiting = restored.waiting;
      for (const link of restored.fifo) this.fifo.add(link);
    }
  }

  add(link: FrontierLink): void {
    link.groupId = this.grouper.assign(link.tagPath).actionId;
    if (this.frozen) this.values.addLink(link.groupId, link.id);
    else this.fifo.add(link);
    this.waiting += 1;
  }

  next(requestsSoFar: number): FrontierLink | null {
    if (!this.frozen && requestsSoFar >= this.explorationRequests) this.freeze();
    let link: FrontierLink | null;
    if (this.frozen) {
      const choice = this.values.next(requestsSoFar, this.prng);
      link = choice ? (this.links.get(choice.linkId) ?? null) : null;
    } else {
      link = this.fifo.next();
    }
    if (link) this.waiting -= 1;
    return link;
  }

  feedback(link: FrontierLink, result: PullResult): void {
    if (this.frozen || link.groupId === null) return;
    this.values.recordReward(link.groupId, result.reward);
  }

  /** Moves the remaining FIFO into per-group pools ranked by the learned values. */
  private freeze(): void {
    this.frozen = true;
    for (let link = this.fifo.next(); link; link = this.fifo.next()) this.values.addLink(link.groupId!, link.id);
  }

  size(): number {
    return this.waiting;
  }

  groupCount(): number {
    return this.grouper.actionCount;
  }

  groups(): GroupRow[] {
    return groupRows(this.grouper, this.values, (stats) => (this.frozen ? stats.available : 0));
  }

  toState(): unknown {
    return { grouper: this.grouper.toState(), values: this.values.toState(), frozen: this.frozen, fifo: this.fifo.toState(), waiting: this.waiting };
  }
}
