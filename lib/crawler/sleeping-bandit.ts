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
 * Forage option (`rewardScaledBonus`, on in SB crawls by default): the bonus is multiplied by
 * the mean reward of all pulls so far, i.e. rewards are measured in units of "what a pull
 * usually brings". AUER's α = 2√2 is tuned for rewards in [0, 1]; crawl rewards are counts of
 * targets, ~0.02 per pull on a sparse documentation archive and ~3 on a publication list. On the
 * sparse site the raw bonus dwarfed every mean, so the bandit went round-robin over its groups
 * (as many requests as BFS); scaled, a group's mean decides once it has been tried.
 *
 * Forage option (`barrenDamping`, on in SB crawls by default): once pulled, while an action has
 * never given a reward, its bonus is multiplied by the share of its pulls that were *fertile*, with
 * one fertile pull in two imaginary ones: (fertile + 1) / (n + 2). The caller says what fertile means; the SB
 * strategy counts a pull fertile when its page filed a new link into an action that has paid
 * (mean reward > 0). AUER tries every zero-reward action ≈ α² ln t times alike; on a
 * documentation archive those are print versions and breadcrumbs of pages already crawled as much
 * as the child lists that lead down to the dossier lists. A barren action's bonus falls as n^-3/2
 * instead of n^-1/2, so it gets ≈ (α² ln t)^(1/3) pulls. Links into
 * unpaid actions do not count, or a calendar trap (every page a new "previous month" link) would
 * stay undamped and take the budget that the damped actions leave. The first reward lifts the
 * damping for good: the mean then speaks for the action.
 *
 * Policy (`policy`): the paper's AUER above (default), or `kl-ucb` / `thompson`, indexes made for
 * count rewards (bandit-policies.ts). The two Forage options above shape AUER's bonus only.
 *
 * Choosing scans the awake actions only, O(awake) per choice (a few µs per thousand
 * awake actions). A heap was rejected: every score moves with t at every request.
 */
import { gammaPosterior, klUcbPoissonIndex, sampleGamma, type BanditPolicy } from "./bandit-policies";
import type { Prng } from "./prng";
import { ALGORITHM_DEFAULTS } from "./settings-table";

/** Settings; defaults from docs/ALGORITHM.md. */
export interface SleepingBanditOptions {
  /** α, the exploration weight. @default 2√2 */
  readonly alpha?: number;
  /** Multiply the bonus by the mean reward per pull so far (floor {@link MIN_REWARD_SCALE}). @default false */
  readonly rewardScaledBonus?: boolean;
  /** Damp the bonus of actions that never gave a reward by their share of fertile pulls. @default false */
  readonly barrenDamping?: boolean;
  /** The index an action is chosen by (bandit-policies.ts). @default "auer" */
  readonly policy?: BanditPolicy;
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
  /** Absent in checkpoints written before the option existed (false then). */
  readonly rewardScaledBonus?: boolean;
  /** Absent in checkpoints written before the option existed (false then). */
  readonly barrenDamping?: boolean;
  /** Absent in checkpoints written before policies existed ("auer" then). */
  readonly policy?: BanditPolicy;
  /**
   * The awake actions in the order choices scan them (absent in older checkpoints: id order). Kept
   * because a Thompson choice draws one sample per awake action in that order.
   */
  readonly awake?: number[];
  /** `fertilePulls` is absent in checkpoints written before `barrenDamping` existed (0 then). */
  readonly actions: { selections: number; meanReward: number; totalReward: number; fertilePulls?: number; links: number[] }[];
}

interface Arm {
  selections: number;
  meanReward: number;
  totalReward: number;
  /** Pulls the caller called fertile, and pulls that gave a reward. */
  fertilePulls: number;
  /** 1/sqrt(n + 1e-6) (× the barren damping), refreshed on each pull so that a choice costs one multiply-add per action. */
  exploreWeight: number;
  readonly links: number[];
}

/** Added to the pull count so that an unpulled action gets a huge but finite bonus (kit's 1e-6). */
const EPSILON = 1e-6;

/**
 * Actions asked for their outlook per choice at most (see {@link SleepingBandit.chooseWithOutlook}):
 * the SB outlook ranks a few URLs per group, so a bound keeps its cost per request small and
 * constant; asking more groups bought no efficiency.
 */
export const OUTLOOK_MAX_ASKED = 16;

/** Lowest bonus multiplier of a reward-scaled bandit: before any reward, exploration still happens. */
export const MIN_REWARD_SCALE = 0.001;

export class SleepingBandit {
  readonly alpha: number;
  readonly rewardScaledBonus: boolean;
  readonly barrenDamping: boolean;
  readonly policy: BanditPolicy;
  private readonly arms: Arm[] = [];
  /** Pulls and reward of every action together (the reward scale); long-term credits make the sum fractional. */
  private pulls = 0;
  private rewardSum = 0;
  /** Ids of the actions with at least one unvisited link, in no particular order. */
  private readonly awake: number[] = [];
  /** Position of each action in `awake`, -1 when asleep. */
  private readonly awakeAt: number[] = [];

  constructor(options: SleepingBanditOptions = {}) {
    this.alpha = options.alpha ?? ALGORITHM_DEFAULTS.banditAlpha;
    this.rewardScaledBonus = options.rewardScaledBonus ?? false;
    this.barrenDamping = options.barrenDamping ?? false;
    this.policy = options.policy ?? "auer";
  }

  static fromState(state: SleepingBanditState): SleepingBandit {
    const bandit = new SleepingBandit({
      alpha: state.alpha,
      rewardScaledBonus: state.rewardScaledBonus ?? false,
      barrenDamping: state.barrenDamping ?? false,
      policy: state.policy ?? "auer",
    });
    for (const [id, a] of state.actions.entries()) {
      if (!(a.selections >= 0) || !Array.isArray(a.links)) throw new TypeError(`Invalid bandit state: action ${id}`);
      const arm = bandit.arm(id);
      arm.selections = a.selections;
      arm.meanReward = a.meanReward;
      arm.totalReward = a.totalReward;
      arm.fertilePulls = a.fertilePulls ?? 0;
      arm.exploreWeight = bandit.exploreWeightOf(arm);
      bandit.pulls += a.selections;
      bandit.rewardSum += a.totalReward;
      for (const link of a.links) bandit.addLink(id, link);
    }
    if (state.awake) bandit.restoreAwakeOrder(state.awake);
    return bandit;
  }

  toState(): SleepingBanditState {
    return {
      alpha: this.alpha,
      rewardScaledBonus: this.rewardScaledBonus,
      barrenDamping: this.barrenDamping,
      policy: this.policy,
      awake: this.awake.slice(),
      actions: this.arms.map((a) => ({
        selections: a.selections,
        meanReward: a.meanReward,
        totalReward: a.totalReward,
        fertilePulls: a.fertilePulls,
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

  /** The action's mean reward per pull (0 before its first pull). */
  meanReward(actionId: number): number {
    return this.arms[actionId]?.meanReward ?? 0;
  }

  /** True once the action has given a reward (rewards are target counts, never negative). */
  hasPaid(actionId: number): boolean {
    return (this.arms[actionId]?.totalReward ?? 0) > 0;
  }

  /**
   * AUER score at t counted requests: 0 for a sleeping action, else
   * mean + α·sqrt(ln t / (n + 1e-6)) (times the reward scale when `rewardScaledBonus`, times
   * (fertile + 1) / (n + 2) when `barrenDamping` and the action never gave a reward). For
   * t ≤ 1, ln t ≤ 0 and the bonus is 0 (the kit scores everything 0 at t = 0).
   * With `kl-ucb`, the Poisson KL-UCB index; with `thompson`, the posterior mean (what is shown:
   * a choice draws from the posterior instead).
   */
  score(actionId: number, t: number): number {
    const arm = this.arms[actionId];
    if (!arm || arm.links.length === 0) return 0;
    if (this.policy === "kl-ucb") return klUcbPoissonIndex(arm.meanReward, arm.selections, t > 1 ? Math.log(t) : 0);
    if (this.policy === "thompson") {
      const { shape, rate } = gammaPosterior(arm.totalReward, arm.selections);
      return shape / rate;
    }
    return arm.meanReward + this.bonusScale(t) * arm.exploreWeight;
  }

  /**
   * The index of each action at t for one choice: AUER's score, the KL-UCB index, or one draw
   * from the Thompson posterior (from `prng`, which `thompson` needs).
   */
  private indexer(t: number, prng: Prng | undefined): (arm: Arm) => number {
    switch (this.policy) {
      case "auer": {
        const scale = this.bonusScale(t);
        return (arm) => arm.meanReward + scale * arm.exploreWeight;
      }
      case "kl-ucb": {
        const logT = t > 1 ? Math.log(t) : 0;
        return (arm) => klUcbPoissonIndex(arm.meanReward, arm.selections, logT);
      }
      case "thompson": {
        if (!prng) throw new TypeError("Thompson sampling needs the crawl's PRNG");
        return (arm) => {
          const { shape, rate } = gammaPosterior(arm.totalReward, arm.selections);
          return sampleGamma(shape, rate, prng);
        };
      }
    }
  }

  /** The awake action with the highest index (ties: lowest id), or null when all sleep. `prng`: for `thompson`. */
  choose(t: number, prng?: Prng): number | null {
    const index = this.indexer(t, prng);
    let best = -1;
    let bestScore = -Infinity;
    for (const id of this.awake) {
      const score = index(this.arms[id]!);
      if (score > bestScore || (score === bestScore && id < best)) {
        best = id;
        bestScore = score;
      }
    }
    return best < 0 ? null : best;
  }

  /**
   * {@link choose} with an outlook: an action scores its AUER score plus `outlook(actionId, links)`
   * (its unvisited link ids; the SB strategy rates a few of them by URL, group-outlook.ts). When
   * more than `maxAsked` actions are awake, only the `maxAsked` best by AUER score are asked, so
   * a choice costs O(awake · log maxAsked) plus `maxAsked` outlooks however many groups a site
   * has. Outlooks are asked in ascending action id, so an outlook that draws from a PRNG makes
   * the same draws after a checkpoint restore (which rebuilds the awake list in id order). Ties:
   * lowest id.
   */
  chooseWithOutlook(t: number, outlook: (actionId: number, links: readonly number[]) => number, maxAsked = OUTLOOK_MAX_ASKED, prng?: Prng): number | null {
    const count = this.bestByScore(t, maxAsked, prng);
    const ids = this.askedIds;
    const scores = this.askedScores;
    sortByIdAscending(ids, scores, count);
    let best = -1;
    let bestScore = -Infinity;
    for (let i = 0; i < count; i++) {
      const id = ids[i]!;
      const score = scores[i]! + outlook(id, this.arms[id]!.links);
      if (score > bestScore) {
        best = id;
        bestScore = score;
      }
    }
    return best < 0 ? null : best;
  }

  /**
   * The (at most) `m` awake actions with the highest indexes, ties to the lowest id, with their
   * indexes (each computed once, in awake order: a Thompson index is a draw), into
   * `askedIds` / `askedScores` in no particular order; returns how many. Scratch arrays and
   * methods rather than closures: this runs at every pull.
   */
  private bestByScore(t: number, m: number, prng: Prng | undefined): number {
    // AUER's index written out (the indexer's, without a call per action); the others through the indexer.
    const index = this.policy === "auer" ? null : this.indexer(t, prng);
    const scale = this.policy === "auer" ? this.bonusScale(t) : 0;
    const ids = this.askedIds;
    const scores = this.askedScores;
    let count = 0;
    if (this.awake.length <= m) {
      for (const id of this.awake) {
        const arm = this.arms[id]!;
        ids[count] = id;
        scores[count++] = index === null ? arm.meanReward + scale * arm.exploreWeight : index(arm);
      }
      return count;
    }
    // Min-heap of the best m so far; its root is the worst of them.
    for (const id of this.awake) {
      const arm = this.arms[id]!;
      const score = index === null ? arm.meanReward + scale * arm.exploreWeight : index(arm);
      if (count < m) {
        ids[count] = id;
        scores[count] = score;
        for (let i = count++; i > 0 && this.heapWorse(i, (i - 1) >> 1); i = (i - 1) >> 1) this.heapSwap(i, (i - 1) >> 1);
      } else if (score > scores[0]! || (score === scores[0] && id < ids[0]!)) {
        ids[0] = id;
        scores[0] = score;
        this.heapSiftDown(count);
      }
    }
    return count;
  }

  /** Scratch of {@link bestByScore}: the asked actions and their indexes (a heap while it runs). */
  private readonly askedIds: number[] = [];
  private readonly askedScores: number[] = [];

  private heapWorse(i: number, j: number): boolean {
    const scores = this.askedScores;
    return scores[i]! < scores[j]! || (scores[i] === scores[j] && this.askedIds[i]! > this.askedIds[j]!);
  }

  private heapSwap(i: number, j: number): void {
    const ids = this.askedIds;
    const scores = this.askedScores;
    const id = ids[i]!;
    ids[i] = ids[j]!;
    ids[j] = id;
    const score = scores[i]!;
    scores[i] = scores[j]!;
    scores[j] = score;
  }

  private heapSiftDown(size: number): void {
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < size && this.heapWorse(l, w)) w = l;
      if (r < size && this.heapWorse(r, w)) w = r;
      if (w === i) return;
      this.heapSwap(i, w);
      i = w;
    }
  }

  /** Moves an unvisited link to another action; false when `from` does not hold it. */
  moveLink(from: number, to: number, linkId: number): boolean {
    const links = this.arms[from]?.links;
    const at = links ? links.indexOf(linkId) : -1;
    if (at < 0) return false;
    this.removeAt(from, links!, at);
    this.addLink(to, linkId);
    return true;
  }

  /** Whether an unvisited link of the action satisfies `test` (O(its links)). */
  hasLink(actionId: number, test: (linkId: number) => boolean): boolean {
    return this.arms[actionId]?.links.some(test) ?? false;
  }

  /**
   * Splits action `to` off action `from` (action-splitter.ts): the waiting links `belongs` selects
   * move to `to`, and so do `pulls` of `from`'s pulls with their `reward` (the pulls of those
   * links so far), so that each action's mean is its own links'. O(links of `from`), once per split.
   */
  splitOff(from: number, to: number, belongs: (linkId: number) => boolean, pulls: number, reward: number): void {
    const source = this.arm(from);
    const target = this.arm(to);
    const kept: number[] = [];
    const moved: number[] = [];
    for (const link of source.links) (belongs(link) ? moved : kept).push(link);
    source.links.length = 0;
    source.links.push(...kept);
    if (kept.length === 0 && this.awakeAt[from] !== -1) this.sleep(from);
    for (const link of moved) this.addLink(to, link);
    const taken = Math.min(pulls, source.selections);
    const takenReward = Math.min(reward, source.totalReward);
    source.selections -= taken;
    source.totalReward -= takenReward;
    source.meanReward = source.selections > 0 ? source.totalReward / source.selections : 0;
    source.fertilePulls = Math.min(source.fertilePulls, source.selections);
    target.selections += taken;
    target.totalReward += takenReward;
    target.meanReward = target.selections > 0 ? target.totalReward / target.selections : 0;
    target.fertilePulls = target.totalReward > 0 ? target.selections : 0;
    source.exploreWeight = this.exploreWeightOf(source);
    target.exploreWeight = this.exploreWeightOf(target);
  }

  /** Removes and returns a uniformly random unvisited link of the action (null if it sleeps). */
  takeLink(actionId: number, prng: Prng): number | null {
    const links = this.arms[actionId]?.links;
    if (!links || links.length === 0) return null;
    return this.removeAt(actionId, links, prng.nextInt(links.length));
  }

  private removeAt(actionId: number, links: number[], i: number): number {
    const link = links[i]!;
    links[i] = links[links.length - 1]!;
    links.pop();
    if (links.length === 0) this.sleep(actionId);
    return link;
  }

  /**
   * Draws `k` links of the action uniformly (with replacement) and removes the one `rank`
   * scores highest (the first drawn among equals). k = 1 is {@link takeLink}, same PRNG draws.
   */
  takeBestOf(actionId: number, prng: Prng, k: number, rank: (linkId: number) => number): number | null {
    return this.takeBestOfRanked(actionId, prng, k, (linkIds, count, ranks) => {
      for (let i = 0; i < count; i++) ranks[i] = rank(linkIds[i]!);
    });
  }

  /**
   * {@link takeBestOf} with the `k` drawn links ranked together: all `k` are drawn first, then
   * `rankAll(linkIds, k, ranks)` fills `ranks[i]` for `linkIds[i]` (in draw order). The same
   * draws and the same choice; a caller whose ranking reads memory scattered over a large heap
   * can make all the reads before any arithmetic, so that the processor overlaps their misses.
   */
  takeBestOfRanked(actionId: number, prng: Prng, k: number, rankAll: (linkIds: readonly number[], count: number, ranks: number[]) => void): number | null {
    const links = this.arms[actionId]?.links;
    if (!links || links.length === 0) return null;
    let bestAt = prng.nextInt(links.length);
    if (k > 1 && links.length > 1) {
      const positions = this.drawnPositions;
      const ids = this.drawnIds;
      const ranks = this.drawnRanks;
      positions[0] = bestAt;
      ids[0] = links[bestAt]!;
      for (let draw = 1; draw < k; draw++) {
        const at = prng.nextInt(links.length);
        positions[draw] = at;
        ids[draw] = links[at]!;
      }
      rankAll(ids, k, ranks);
      let bestScore = ranks[0]!;
      for (let draw = 1; draw < k; draw++) {
        if (ranks[draw]! > bestScore) {
          bestAt = positions[draw]!;
          bestScore = ranks[draw]!;
        }
      }
    }
    return this.removeAt(actionId, links, bestAt);
  }

  /** Scratch of {@link takeBestOfRanked}. */
  private readonly drawnPositions: number[] = [];
  private readonly drawnIds: number[] = [];
  private readonly drawnRanks: number[] = [];

  /** {@link choose} then {@link takeLink}: the next link to crawl, or null when every action sleeps. */
  next(t: number, prng: Prng): { actionId: number; linkId: number } | null {
    const actionId = this.choose(t, prng);
    if (actionId === null) return null;
    return { actionId, linkId: this.takeLink(actionId, prng)! };
  }

  /**
   * One pull: n ← n + 1, mean ← mean + (reward − mean)/n. `fertile` (for `barrenDamping`): the
   * pull led somewhere promising; a rewarded pull is always fertile.
   */
  recordReward(actionId: number, reward: number, fertile = false): void {
    const arm = this.arm(actionId);
    this.pulls++;
    this.rewardSum += reward;
    arm.selections++;
    if (fertile || reward > 0) arm.fertilePulls++;
    arm.meanReward += (reward - arm.meanReward) / arm.selections;
    arm.totalReward += reward;
    arm.exploreWeight = this.exploreWeightOf(arm);
  }

  /**
   * Long-term credit (sb-strategy.ts): `credit` more reward for an action whose earlier pull led,
   * a few pages later, to a page that paid. It joins the action's reward sum *without* a pull: the
   * pull it rewards was already counted when it happened, so n stays the number of links the action
   * really spent, and the mean becomes the action's discounted return per pull (immediate targets
   * plus γ·those of its pages' children plus γ²·…), the quantity a crawl wants to maximise. Counting
   * an extra pull instead would halve the mean of an action on every credit and shrink its bonus as
   * if it had been tried more. The credit also joins the reward scale (`rewardScaledBonus`), which
   * keeps the bonus in the same units as the means, and lifts `barrenDamping` like any reward: an
   * action that leads to targets is not barren. Never negative; 0 changes nothing.
   */
  creditReward(actionId: number, credit: number): void {
    if (!(credit >= 0) || !Number.isFinite(credit)) throw new RangeError(`Invalid credit ${credit}`);
    if (credit === 0) return;
    const arm = this.arm(actionId);
    this.rewardSum += credit;
    arm.totalReward += credit;
    arm.meanReward = arm.selections > 0 ? arm.totalReward / arm.selections : 0;
    arm.exploreWeight = this.exploreWeightOf(arm);
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

  /**
   * 1/sqrt(n + 1e-6), × (fertile + 1) / (n + 2) for a barren-damped action pulled at least once
   * that never gave a reward (an unpulled action keeps the kit's huge bonus, as a new arm has).
   */
  private exploreWeightOf(arm: Arm): number {
    const weight = 1 / Math.sqrt(arm.selections + EPSILON);
    if (!this.barrenDamping || arm.totalReward > 0 || arm.selections === 0) return weight;
    return (weight * (arm.fertilePulls + 1)) / (arm.selections + 2);
  }

  /** α·sqrt(ln t) (× the reward scale): the bonus is this times 1/sqrt(n + 1e-6). */
  private bonusScale(t: number): number {
    if (t <= 1) return 0;
    const bonus = this.alpha * Math.sqrt(Math.log(t));
    return this.rewardScaledBonus ? bonus * this.rewardScale() : bonus;
  }

  /** Mean reward per pull so far, at least {@link MIN_REWARD_SCALE}; 1 before the first pull. */
  rewardScale(): number {
    return this.pulls === 0 ? 1 : Math.max(MIN_REWARD_SCALE, this.rewardSum / this.pulls);
  }

  private arm(actionId: number): Arm {
    if (!Number.isInteger(actionId) || actionId < 0) throw new RangeError(`Invalid action id ${actionId}`);
    while (this.arms.length <= actionId) {
      this.arms.push({ selections: 0, meanReward: 0, totalReward: 0, fertilePulls: 0, exploreWeight: 1 / Math.sqrt(EPSILON), links: [] });
      this.awakeAt.push(-1);
    }
    return this.arms[actionId]!;
  }

  /**
   * Puts the awake list in a saved order: the saved actions that are awake, in that order, then
   * any other awake one in id order (a state whose links were edited, e.g. a re-crawl's start).
   */
  private restoreAwakeOrder(order: readonly number[]): void {
    const placed = new Set<number>();
    const list: number[] = [];
    for (const id of order) {
      if (this.awakeAt[id] !== undefined && this.awakeAt[id] !== -1 && !placed.has(id)) {
        placed.add(id);
        list.push(id);
      }
    }
    for (const id of this.awake) if (!placed.has(id)) list.push(id);
    list.forEach((id, at) => {
      this.awake[at] = id;
      this.awakeAt[id] = at;
    });
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

/** Sorts the first `count` ids ascending (they are distinct), carrying each one's score along: insertion sort, for the few asked actions. */
function sortByIdAscending(ids: number[], scores: number[], count: number): void {
  for (let i = 1; i < count; i++) {
    const id = ids[i]!;
    const score = scores[i]!;
    let j = i - 1;
    for (; j >= 0 && ids[j]! > id; j--) {
      ids[j + 1] = ids[j]!;
      scores[j + 1] = scores[j]!;
    }
    ids[j + 1] = id;
    scores[j + 1] = score;
  }
}
