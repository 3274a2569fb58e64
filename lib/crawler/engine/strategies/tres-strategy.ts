import type { Prng } from "../../prng";
import type { FrontierLink, GroupRow } from "../types";
import { Ddqn, type DdqnOptions, type DdqnState } from "./tres-ddqn";
import { pageContext, TRES_FEATURES, writeTresFeatures, type PageContext } from "./tres-features";
import type { CrawlStrategy, PullResult } from "./strategy";
import { TreeFrontier, type TreeFrontierOptions, type TreeFrontierState } from "./tres-tree-frontier";

/**
 * TRES (Kontogiannis, Kelesis, Pollatos, Paliouras, Giannakopoulos, "Tree-based Focused Web
 * Crawling with Reinforcement Learning", arXiv 2112.07620) as a crawl strategy.
 *
 * Taken from the paper:
 * - Crawling as an MDP whose agent chooses, at each step, one frontier link (an edge from a
 *   crawled page to an uncrawled one); Q(s, a) is read off a vector of the link and the path
 *   that led to it, so one network scores every action.
 * - Tree-Frontier (tres-tree-frontier.ts): a regression tree adaptively discretises that vector
 *   space from experience samples; each leaf's frontier links are represented by one drawn
 *   uniformly, and only the representatives are evaluated: a pull costs O(leaves), not O(frontier).
 * - Double deep Q-learning with a target network and a replay buffer (tres-ddqn.ts), ε-greedy.
 *
 * Adapted to Forage:
 * - Reward: the pull's new targets (reward.ts), the paper's "relevant page" being our target
 *   file; learnt as log(1 + reward), so one page with a hundred files does not swamp the network.
 * - State and action features (tres-features.ts): the paper's path features that need no text
 *   classifier (the parent's and grandparent's reward, distance from the last rewarding page,
 *   depth) and the link's own URL and tag path, in place of its keyword features (no topic here).
 * - The next state's actions, for the double-Q target, are a few links drawn from those the
 *   pulled page added (the paper maximises over the whole frontier; the links a page opens are
 *   the part of it that the pull changed, and what makes a listing or pagination page valuable
 *   before it has given a target).
 * - ε = 0.05 + 0.45 · 0.98^pulls, the draw and every random choice from the crawl's PRNG. A random
 *   action is a uniformly drawn representative (a random leaf, then a random link in it).
 * - A link is filed in the tree once the page it was found on has been rewarded (its path
 *   features need that reward); links of no rewarded page (the root's, sitemaps') are filed
 *   before the next choice.
 */

/** The constants of TRES in Forage, chosen before any validation run (docs/notes/tres.md). */
export const TRES_DEFAULTS = {
  hidden: 32,
  learningRate: 1e-3,
  huberDelta: 1,
  discount: 0.8,
  replayCapacity: 1024,
  batchSize: 8,
  syncEvery: 100,
  /** Next-state actions kept per transition. */
  nextActions: 3,
  maxLeaves: 32,
  minSamplesToSplit: 16,
  minSamplesPerSide: 4,
  minGain: 0.5,
  maxSamplesPerLeaf: 64,
  retrySplitEvery: 4,
} as const;

const DDQN_OPTIONS: DdqnOptions = { ...TRES_DEFAULTS, inputs: TRES_FEATURES };
const TREE_OPTIONS: TreeFrontierOptions = TRES_DEFAULTS;

/** ε of the ε-greedy choice after `pulls` pulls. */
export function tresEpsilon(pulls: number): number {
  return 0.05 + 0.45 * 0.98 ** pulls;
}

/** Plain JSON state (links by id in the engine's link table). */
export interface TresState {
  readonly tree: TreeFrontierState;
  readonly ddqn: DdqnState;
  readonly contexts: [url: string, reward: number, parentReward: number, distance: number, outlinks: number][];
  readonly unfiled: number[];
  readonly pulls: number;
  /** The vector of the link `next` returned, while it waits for its feedback. */
  readonly chosen: { id: number; x: number[] } | null;
}

export class TresStrategy implements CrawlStrategy {
  private readonly tree: TreeFrontier;
  private readonly ddqn: Ddqn;
  private readonly contexts = new Map<string, PageContext>();
  /** Links added since the last choice, waiting for their page's reward before being filed. */
  private unfiled: FrontierLink[] = [];
  private pulls = 0;
  private chosen: { id: number; x: Float64Array } | null = null;
  private readonly scratch = new Float64Array(TRES_FEATURES);

  constructor(
    private readonly prng: Prng,
    restored?: { state: TresState; link: (id: number) => FrontierLink },
  ) {
    const featuresOf = (link: FrontierLink) => this.features(link);
    if (restored) {
      const { state, link } = restored;
      this.tree = TreeFrontier.fromState(state.tree, TREE_OPTIONS, featuresOf, link);
      this.ddqn = Ddqn.fromState(state.ddqn, DDQN_OPTIONS);
      for (const [url, reward, parentReward, distance, outlinks] of state.contexts) this.contexts.set(url, { reward, parentReward, distance, outlinks });
      this.unfiled = state.unfiled.map(link);
      this.pulls = state.pulls;
      this.chosen = state.chosen ? { id: state.chosen.id, x: Float64Array.from(state.chosen.x) } : null;
    } else {
      this.tree = new TreeFrontier(TREE_OPTIONS, featuresOf);
      this.ddqn = Ddqn.create(DDQN_OPTIONS, prng);
    }
  }

  add(link: FrontierLink): void {
    this.unfiled.push(link);
  }

  next(): FrontierLink | null {
    this.fileUnfiled();
    if (this.tree.size() === 0) return null;
    const representatives = this.tree.representatives(this.prng);
    let choice = representatives[0]!;
    if (this.prng.next() < tresEpsilon(this.pulls)) {
      choice = representatives[this.prng.nextInt(representatives.length)]!;
    } else {
      let best = -Infinity;
      for (const representative of representatives) {
        writeTresFeatures(representative.link, this.contextOf(representative.link), this.scratch);
        const value = this.ddqn.value(this.scratch);
        if (value > best) {
          best = value;
          choice = representative;
        }
      }
    }
    const link = this.tree.take(choice);
    this.chosen = { id: link.id, x: this.features(link) };
    return link;
  }

  feedback(link: FrontierLink, result: PullResult): void {
    this.pulls += 1;
    const x = this.chosen?.id === link.id ? this.chosen.x : this.features(link);
    this.chosen = null;
    const children = this.unfiled.filter((child) => child.referrer === link.url);
    if (result.wasHtml) this.contexts.set(link.url, pageContext(result.reward, children.length, this.contextOf(link)));
    const next: Float64Array[] = [];
    for (let k = 0; k < TRES_DEFAULTS.nextActions && children.length > 0; k++) {
      const index = this.prng.nextInt(children.length);
      next.push(this.features(children[index]!));
      children[index] = children[children.length - 1]!;
      children.pop();
    }
    this.fileUnfiled();
    const reward = Math.log1p(Math.max(0, result.reward));
    this.tree.addExperience(x, reward);
    this.ddqn.remember({ x, reward, next });
    this.ddqn.update(this.prng);
  }

  size(): number {
    return this.tree.size() + this.unfiled.length;
  }
  groups(): GroupRow[] {
    return [];
  }
  groupCount(): number {
    return 0;
  }
  /** Leaves of the Tree-Frontier (for tests and notes). */
  leafCount(): number {
    return this.tree.leafCount();
  }

  toState(): TresState {
    return {
      tree: this.tree.toState(),
      ddqn: this.ddqn.toState(),
      contexts: [...this.contexts].map(([url, c]) => [url, c.reward, c.parentReward, c.distance, c.outlinks]),
      unfiled: this.unfiled.map((link) => link.id),
      pulls: this.pulls,
      chosen: this.chosen ? { id: this.chosen.id, x: Array.from(this.chosen.x) } : null,
    };
  }

  private contextOf(link: FrontierLink): PageContext | undefined {
    return link.referrer === null ? undefined : this.contexts.get(link.referrer);
  }

  private features(link: FrontierLink): Float64Array {
    const x = new Float64Array(TRES_FEATURES);
    writeTresFeatures(link, this.contextOf(link), x);
    return x;
  }

  private fileUnfiled(): void {
    if (this.unfiled.length === 0) return;
    for (const link of this.unfiled) this.tree.add(link);
    this.unfiled = [];
  }
}
