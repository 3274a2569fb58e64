import type { Prng } from "../../prng";
import type { FrontierLink } from "../types";

/**
 * TRES's Tree-Frontier: an online regression tree over the state–action feature space that
 * holds the frontier. Each leaf keeps *experience samples* (vectors of crawled links with the
 * reward they brought) and *frontier samples* (links waiting). A leaf splits on the feature and
 * threshold that most reduce the squared error of its experience rewards, once it holds enough
 * of them and the reduction is large enough; its frontier links follow their side of the split.
 * Choosing a link then costs one Q evaluation per leaf: one frontier link drawn uniformly from
 * each non-empty leaf stands for the leaf (its representative), and the agent picks among these.
 */

export interface TreeFrontierOptions {
  /** Most leaves the tree grows (bounds the Q evaluations per pull). */
  readonly maxLeaves: number;
  /** Experience samples a leaf needs before a split is tried. */
  readonly minSamplesToSplit: number;
  /** Experience samples each side of a split keeps at least. */
  readonly minSamplesPerSide: number;
  /** Least reduction of the summed squared error a split must bring. */
  readonly minGain: number;
  /** Experience samples a leaf keeps (the most recent). */
  readonly maxSamplesPerLeaf: number;
  /** A leaf that could not split tries again after this many new samples (bounds the cost per pull). */
  readonly retrySplitEvery: number;
}

interface Sample {
  readonly x: Float64Array;
  readonly y: number;
}

interface Leaf {
  readonly kind: "leaf";
  /** Position in `leaves`: representatives are listed in this order. */
  index: number;
  links: FrontierLink[];
  samples: Sample[];
  /** Samples added since the leaf last tried to split. */
  fresh: number;
}

interface Split {
  readonly kind: "split";
  readonly feature: number;
  readonly threshold: number;
  left: TreeNode;
  right: TreeNode;
}

type TreeNode = Leaf | Split;

/** Plain JSON of a tree: splits as [feature, threshold, left, right], leaves as {leaf index, link ids, samples}. */
export type TreeNodeState = { split: [feature: number, threshold: number, left: TreeNodeState, right: TreeNodeState] } | { leaf: number; links: number[]; samples: [x: number[], y: number][]; fresh: number };

export interface TreeFrontierState {
  readonly root: TreeNodeState;
  readonly leaves: number;
}

/** One leaf's representative: a frontier link and where it sits, for {@link TreeFrontier.take}. */
export interface Representative {
  readonly leaf: number;
  readonly position: number;
  readonly link: FrontierLink;
}

export class TreeFrontier {
  private root: TreeNode;
  private leaves: Leaf[];
  private waiting = 0;

  /** `featuresOf`: a link's vector (the same function every time: links are routed by it). */
  constructor(
    private readonly options: TreeFrontierOptions,
    private readonly featuresOf: (link: FrontierLink) => Float64Array,
    restored?: { root: TreeNode; leaves: Leaf[] },
  ) {
    if (restored) {
      this.root = restored.root;
      this.leaves = restored.leaves;
      this.waiting = restored.leaves.reduce((sum, leaf) => sum + leaf.links.length, 0);
    } else {
      const leaf: Leaf = { kind: "leaf", index: 0, links: [], samples: [], fresh: 0 };
      this.root = leaf;
      this.leaves = [leaf];
    }
  }

  size(): number {
    return this.waiting;
  }

  leafCount(): number {
    return this.leaves.length;
  }

  /** Files a frontier link in the leaf its vector falls in. */
  add(link: FrontierLink, x: Float64Array = this.featuresOf(link)): void {
    this.leafOf(x).links.push(link);
    this.waiting += 1;
  }

  /** One link drawn uniformly from each non-empty leaf, in leaf order. */
  representatives(prng: Prng): Representative[] {
    const chosen: Representative[] = [];
    for (const leaf of this.leaves) {
      if (leaf.links.length === 0) continue;
      const position = prng.nextInt(leaf.links.length);
      chosen.push({ leaf: leaf.index, position, link: leaf.links[position]! });
    }
    return chosen;
  }

  /** Removes a representative's link from its leaf (O(1): the leaf's last link fills the hole). */
  take(representative: Representative): FrontierLink {
    const links = this.leaves[representative.leaf]!.links;
    const link = links[representative.position]!;
    const last = links.pop()!;
    if (representative.position < links.length) links[representative.position] = last;
    this.waiting -= 1;
    return link;
  }

  /** Records a crawled link's vector and reward in its leaf, and splits the leaf when that pays. */
  addExperience(x: Float64Array, y: number): void {
    const leaf = this.leafOf(x);
    leaf.samples.push({ x, y });
    leaf.fresh += 1;
    if (leaf.samples.length > this.options.maxSamplesPerLeaf) leaf.samples.shift();
    if (this.leaves.length < this.options.maxLeaves && leaf.samples.length >= this.options.minSamplesToSplit && leaf.fresh >= this.options.retrySplitEvery) {
      leaf.fresh = 0;
      this.trySplit(leaf);
    }
  }

  /** The split (feature, threshold) the tree would make of these samples now, or null. */
  static bestSplit(samples: readonly Sample[], options: TreeFrontierOptions): { feature: number; threshold: number; gain: number } | null {
    const n = samples.length;
    if (n < 2 * options.minSamplesPerSide) return null;
    let total = 0;
    let totalSquares = 0;
    for (const s of samples) {
      total += s.y;
      totalSquares += s.y * s.y;
    }
    const parentError = totalSquares - (total * total) / n;
    let best: { feature: number; threshold: number; gain: number } | null = null;
    const features = samples[0]!.x.length;
    const order = samples.map((_, i) => i);
    for (let f = 0; f < features; f++) {
      order.sort((a, b) => samples[a]!.x[f]! - samples[b]!.x[f]! || a - b);
      let leftSum = 0;
      let leftSquares = 0;
      for (let k = 0; k < n - 1; k++) {
        const s = samples[order[k]!]!;
        leftSum += s.y;
        leftSquares += s.y * s.y;
        const here = s.x[f]!;
        const nextValue = samples[order[k + 1]!]!.x[f]!;
        if (here === nextValue) continue;
        const leftCount = k + 1;
        const rightCount = n - leftCount;
        if (leftCount < options.minSamplesPerSide || rightCount < options.minSamplesPerSide) continue;
        const rightSum = total - leftSum;
        const rightSquares = totalSquares - leftSquares;
        const childError = leftSquares - (leftSum * leftSum) / leftCount + (rightSquares - (rightSum * rightSum) / rightCount);
        const gain = parentError - childError;
        if (gain >= options.minGain && (!best || gain > best.gain + 1e-12)) best = { feature: f, threshold: (here + nextValue) / 2, gain };
      }
    }
    return best;
  }

  toState(): TreeFrontierState {
    const save = (node: TreeNode): TreeNodeState =>
      node.kind === "split"
        ? { split: [node.feature, node.threshold, save(node.left), save(node.right)] }
        : { leaf: node.index, links: node.links.map((link) => link.id), samples: node.samples.map((s) => [Array.from(s.x), s.y]), fresh: node.fresh };
    return { root: save(this.root), leaves: this.leaves.length };
  }

  static fromState(
    state: TreeFrontierState,
    options: TreeFrontierOptions,
    featuresOf: (link: FrontierLink) => Float64Array,
    link: (id: number) => FrontierLink,
  ): TreeFrontier {
    const leaves: Leaf[] = new Array<Leaf>(state.leaves);
    const load = (node: TreeNodeState): TreeNode => {
      if ("split" in node) {
        const [feature, threshold, left, right] = node.split;
        return { kind: "split", feature, threshold, left: load(left), right: load(right) };
      }
      if (!Number.isInteger(node.leaf) || node.leaf < 0 || node.leaf >= state.leaves || leaves[node.leaf]) {
        throw new TypeError(`Invalid Tree-Frontier state: leaf index ${node.leaf}`);
      }
      const leaf: Leaf = { kind: "leaf", index: node.leaf, links: node.links.map(link), samples: node.samples.map(([x, y]) => ({ x: Float64Array.from(x), y })), fresh: node.fresh };
      leaves[node.leaf] = leaf;
      return leaf;
    };
    const root = load(state.root);
    for (let i = 0; i < leaves.length; i++) if (!leaves[i]) throw new TypeError(`Invalid Tree-Frontier state: leaf ${i} is missing`);
    return new TreeFrontier(options, featuresOf, { root, leaves });
  }

  private leafOf(x: ArrayLike<number>): Leaf {
    let node = this.root;
    while (node.kind === "split") node = x[node.feature]! <= node.threshold ? node.left : node.right;
    return node;
  }

  private trySplit(leaf: Leaf): void {
    const split = TreeFrontier.bestSplit(leaf.samples, this.options);
    if (!split) return;
    const { feature, threshold } = split;
    const left: Leaf = { kind: "leaf", index: leaf.index, links: [], samples: [], fresh: 0 };
    const right: Leaf = { kind: "leaf", index: this.leaves.length, links: [], samples: [], fresh: 0 };
    for (const sample of leaf.samples) (sample.x[feature]! <= threshold ? left : right).samples.push(sample);
    for (const link of leaf.links) (this.featuresOf(link)[feature]! <= threshold ? left : right).links.push(link);
    this.leaves[left.index] = left;
    this.leaves.push(right);
    this.replace(leaf, { kind: "split", feature, threshold, left, right }, leaf.samples[0]!.x);
  }

  /** Puts `split` where `leaf` hangs; `x` is any vector that falls in the leaf. */
  private replace(leaf: Leaf, split: Split, x: ArrayLike<number>): void {
    if (this.root === leaf) {
      this.root = split;
      return;
    }
    let node = this.root as Split;
    for (;;) {
      const side = x[node.feature]! <= node.threshold ? "left" : "right";
      const child = node[side];
      if (child === leaf) {
        node[side] = split;
        return;
      }
      if (child.kind !== "split") throw new Error("Tree-Frontier: a leaf's sample does not lead to it");
      node = child;
    }
  }
}
