/**
 * Sleeping bandit over actions, AUER score (docs/ALGORITHM.md, "Choosing the next link",
 * "Reward"): an action with no unvisited link sleeps, the others score
 * `mean + α·sqrt(ln t / (n + 1e-6))`, the highest score wins (ties: oldest action), and a
 * uniformly random unvisited link of that action is crawled.
 *
 * The bandit owns the unvisited link ids of every action, because "take a uniformly
 * random unvisited link" is part of the choice: each action keeps an array and removes
 * by swapping the drawn element with the last one, O(1). A Set would need O(n) to draw
 * uniformly; a shuffled queue would fix the order at insertion time and break when links
 * keep arriving. Link ids are the engine's (an index into its link table).
 *
 * Choosing scans the awake actions only, O(awake) per choice (~20 µs for 5,000 awake
 * actions). A heap was rejected: every score moves with t at every request.
 */
import type { Prng } from "./prng";

/** Settings; defaults from docs/ALGORITHM.md. */
export interface SleepingBanditOptions {
  /** α, the exploration weight. @default 2√2 */
  readonly alpha?: number;
}

/** What the cockpit shows per action. */
export interface BanditActionStats {
  /** Pulls so far (failed pulls included). */
  readonly selections: number;
  readonly meanReward: number;
  readonly totalReward: number;
  /** Unvisited links; 0 means the action sleeps. */
  readonly available: number;
}

/** Plain JSON state; `fromState(toState())` makes the same later choices with the same Prng state. */
export interface SleepingBanditState {
  readonly alpha: number;
  readonly actions: { selections: number; meanReward: number; totalReward: number; links: number[] }[];
}

interface Arm {
  selections: number;
  meanReward: number;
  totalReward: number;
  /** 1/sqrt(n + 1e-6), refreshed on each pull so that a choice costs one multiply-add per action. */
  exploreWeight: number;
  readonly links: number[];
}

/** Added to the pull count so that an unpulled action gets a huge but finite bonus (kit's 1e-6). */
const EPSILON = 1e-6;

export class SleepingBandit {
  readonly alpha: number;
  private readonly arms: Arm[] = [];
  /** Ids of the actions with at least one unvisited link, in no particular order. */
  private readonly awake: number[] = [];
  /** Position of each action in `awake`, -1 when asleep. */
  private readonly awakeAt: number[] = [];

  constructor(options: SleepingBanditOptions = {}) {
    this.alpha = options.alpha ?? 2 * Math.SQRT2;
  }

  static fromState(state: SleepingBanditState): SleepingBandit {
    const bandit = new SleepingBandit({ alpha: state.alpha });
    for (const [id, a] of state.actions.entries()) {
      if (!(a.selections >= 0) || !Array.isArray(a.links)) throw new TypeError(`Invalid bandit state: action ${id}`);
      const arm = bandit.arm(id);
      arm.selections = a.selections;
      arm.meanReward = a.meanReward;
      arm.totalReward = a.totalReward;
      arm.exploreWeight = 1 / Math.sqrt(a.selections + EPSILON);
      for (const link of a.links) bandit.addLink(id, link);
    }
    return bandit;
  }

  toState(): SleepingBanditState {
    return {
      alpha: this.alpha,
      actions: this.arms.map((a) => ({
        selections: a.selections,
        meanReward: a.meanReward,
        totalReward: a.totalReward,
        links: a.links.slice(),
      })),
    };
  }

  /** Actions known so far (ids 0..actionCount−1; an id is created by its first link). */
  get actionCount(): number {
    return this.arms.length;
  }

  /** Files an unvisited link under an action (the grouper's action id). */
  addLink(actionId: number, linkId: number): void {
    const arm = this.arm(actionId);
    arm.links.push(linkId);
    if (this.awakeAt[actionId] === -1) {
      this.awakeAt[actionId] = this.awake.length;
      this.awake.push(actionId);
    }
  }

  stats(actionId: number): BanditActionStats {
    const arm = this.arms[actionId];
    if (!arm) return { selections: 0, meanReward: 0, totalReward: 0, available: 0 };
    return { selections: arm.selections, meanReward: arm.meanReward, totalReward: arm.totalReward, available: arm.links.length };
  }

  /**
   * AUER score at t counted requests: 0 for a sleeping action, else
   * mean + α·sqrt(ln t / (n + 1e-6)). For t ≤ 1, ln t ≤ 0 and the bonus is 0 (the kit
   * scores everything 0 at t = 0).
   */
  score(actionId: number, t: number): number {
    const arm = this.arms[actionId];
    if (!arm || arm.links.length === 0) return 0;
    return arm.meanReward + this.bonusScale(t) * arm.exploreWeight;
  }

  /** The awake action with the highest score (ties: lowest id), or null when all sleep. */
  choose(t: number): number | null {
    const scale = this.bonusScale(t);
    let best = -1;
    let bestScore = -Infinity;
    for (const id of this.awake) {
      const arm = this.arms[id]!;
      const score = arm.meanReward + scale * arm.exploreWeight;
      if (score > bestScore || (score === bestScore && id < best)) {
        best = id;
        bestScore = score;
      }
    }
    return best < 0 ? null : best;
  }

  /** Removes and returns a uniformly random unvisited link of the action (null if it sleeps). */
  takeLink(actionId: number, prng: Prng): number | null {
    const links = this.arms[actionId]?.links;
    if (!links || links.length === 0) return null;
    const i = prng.nextInt(links.length);
    const link = links[i]!;
    links[i] = links[links.length - 1]!;
    links.pop();
    if (links.length === 0) this.sleep(actionId);
    return link;
  }

  /** {@link choose} then {@link takeLink}: the next link to crawl, or null when every action sleeps. */
  next(t: number, prng: Prng): { actionId: number; linkId: number } | null {
    const actionId = this.choose(t);
    if (actionId === null) return null;
    return { actionId, linkId: this.takeLink(actionId, prng)! };
  }

  /** One pull: n ← n + 1, mean ← mean + (reward − mean)/n. */
  recordReward(actionId: number, reward: number): void {
    const arm = this.arm(actionId);
    arm.selections++;
    arm.meanReward += (reward - arm.meanReward) / arm.selections;
    arm.totalReward += reward;
    arm.exploreWeight = 1 / Math.sqrt(arm.selections + EPSILON);
  }

  /**
   * A pull whose link was not HTML after all (error, redirect elsewhere, other MIME):
   * counted as a selection with reward 0. The kit did not count it, so a group of dead
   * or extension-less image links kept its exploration bonus and drained the budget.
   */
  recordFailedPull(actionId: number): void {
    this.recordReward(actionId, 0);
  }

  /** True when every action sleeps: the frontier is empty and the crawl is complete. */
  isExhausted(): boolean {
    return this.awake.length === 0;
  }

  /** α·sqrt(ln t): the bonus is this times 1/sqrt(n + 1e-6). */
  private bonusScale(t: number): number {
    return t > 1 ? this.alpha * Math.sqrt(Math.log(t)) : 0;
  }

  private arm(actionId: number): Arm {
    if (!Number.isInteger(actionId) || actionId < 0) throw new RangeError(`Invalid action id ${actionId}`);
    while (this.arms.length <= actionId) {
      this.arms.push({ selections: 0, meanReward: 0, totalReward: 0, exploreWeight: 1 / Math.sqrt(EPSILON), links: [] });
      this.awakeAt.push(-1);
    }
    return this.arms[actionId]!;
  }

  private sleep(actionId: number): void {
    const at = this.awakeAt[actionId]!;
    const last = this.awake.pop()!;
    if (last !== actionId) {
      this.awake[at] = last;
      this.awakeAt[last] = at;
    }
    this.awakeAt[actionId] = -1;
  }
}
