import { poissonRatesPValue } from "./rate-difference-test";
import { urlShape } from "./url-shape";

/**
 * Splits an action whose links lead to URL shapes that pay differently (Forage's addition,
 * `splitActionsByUrlShape`). One tag path can serve very different pages: the pagination bar a
 * site's template shares across its sections, of which one holds the files. The bandit then sees
 * one action whose mean mixes a rich section with barren ones, and a few unlucky first pulls can
 * starve the rich one. The splitter counts, per action, pulls and rewards per URL shape
 * (url-shape.ts); after each pull it tests whether that shape's reward rate differs from the rest
 * of the action's (the conditional exact test of two Poisson rates, rate-difference-test.ts) at
 * the conventional level {@link SPLIT_SIGNIFICANCE}. When it does, the shape becomes an action of
 * its own: its waiting links and its statistics move there, and its later links go there too.
 *
 * A split action holds one shape, so it is not split again; its parent can lose several shapes.
 */

/** Significance level of a split: a false split only costs an extra action, but the test runs after every pull. */
export const SPLIT_SIGNIFICANCE = 0.001;

/** URL shapes counted per action at most (memory bound); the pulls of further shapes count for the action only. */
export const MAX_SHAPES_PER_ACTION = 256;

interface Tally {
  pulls: number;
  reward: number;
}

export interface ActionSplitterState {
  /** Per action id: total tally and tallies by shape. */
  readonly tallies: [actionId: number, pulls: number, reward: number, shapes: [shape: string, pulls: number, reward: number][]][];
  /** Per parent action id: split-off shape → child action id. */
  readonly splits: [parentId: number, children: [shape: string, childId: number][]][];
}

/** A shape the test found different: split it off `parent` (the caller creates the child action). */
export interface SplitCandidate {
  readonly parent: number;
  readonly shape: string;
  /** The shape's own pulls and reward, which move to the child. */
  readonly pulls: number;
  readonly reward: number;
}

export class ActionSplitter {
  private readonly totals = new Map<number, Tally>();
  private readonly shapes = new Map<number, Map<string, Tally>>();
  private readonly children = new Map<number, Map<string, number>>();

  constructor(private readonly significance = SPLIT_SIGNIFICANCE) {}

  static fromState(state: ActionSplitterState): ActionSplitter {
    const splitter = new ActionSplitter();
    for (const [actionId, pulls, reward, shapes] of state.tallies) {
      splitter.totals.set(actionId, { pulls, reward });
      splitter.shapes.set(actionId, new Map(shapes.map(([shape, p, r]) => [shape, { pulls: p, reward: r }])));
    }
    for (const [parentId, children] of state.splits) splitter.children.set(parentId, new Map(children));
    return splitter;
  }

  toState(): ActionSplitterState {
    return {
      tallies: [...this.totals].map(([actionId, total]) => [
        actionId,
        total.pulls,
        total.reward,
        [...(this.shapes.get(actionId) ?? new Map<string, Tally>())].map(([shape, t]) => [shape, t.pulls, t.reward] as [string, number, number]),
      ]),
      splits: [...this.children].map(([parentId, children]) => [parentId, [...children]]),
    };
  }

  /** The action a link of `actionId` (its tag path's action) with this URL belongs to: a split-off child, or the action itself. */
  actionFor(actionId: number, url: string): number {
    const children = this.children.get(actionId);
    if (!children) return actionId;
    return children.get(urlShape(url)) ?? actionId;
  }

  /** The action already split off `parentId` for `shape`, if any. */
  childOf(parentId: number, shape: string): number | undefined {
    return this.children.get(parentId)?.get(shape);
  }

  /** Whether a waiting link with this URL belongs to the shape split off as `shape`. */
  static hasShape(url: string, shape: string): boolean {
    return urlShape(url) === shape;
  }

  /**
   * Counts a pull of a link of `actionId` (an action of tag paths, not a split-off one) and tests
   * its shape against the rest of the action. Returns the shape to split off, if any.
   */
  record(actionId: number, url: string, reward: number): SplitCandidate | null {
    let total = this.totals.get(actionId);
    if (!total) {
      total = { pulls: 0, reward: 0 };
      this.totals.set(actionId, total);
      this.shapes.set(actionId, new Map());
    }
    total.pulls += 1;
    total.reward += reward;
    const shapes = this.shapes.get(actionId)!;
    const shape = urlShape(url);
    let tally = shapes.get(shape);
    if (!tally) {
      if (shapes.size >= MAX_SHAPES_PER_ACTION) return null;
      tally = { pulls: 0, reward: 0 };
      shapes.set(shape, tally);
    }
    tally.pulls += 1;
    tally.reward += reward;
    if (shapes.size < 2) return null;
    const p = poissonRatesPValue(tally.reward, tally.pulls, total.reward - tally.reward, total.pulls - tally.pulls);
    if (p >= this.significance) return null;
    return { parent: actionId, shape, pulls: tally.pulls, reward: tally.reward };
  }

  /** Records a split: the shape's tally leaves the parent's, its later links go to `childId`. */
  noteSplit(candidate: SplitCandidate, childId: number): void {
    const total = this.totals.get(candidate.parent)!;
    total.pulls -= candidate.pulls;
    total.reward -= candidate.reward;
    this.shapes.get(candidate.parent)!.delete(candidate.shape);
    let children = this.children.get(candidate.parent);
    if (!children) {
      children = new Map();
      this.children.set(candidate.parent, children);
    }
    children.set(candidate.shape, childId);
  }
}
