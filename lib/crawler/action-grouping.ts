/**
 * Links → actions (docs/ALGORITHM.md, "Grouping links into actions", step 4): a tag
 * path joins the action whose centroid is nearest by cosine similarity when that
 * similarity is ≥ θ, and the centroid becomes the running mean of its members;
 * otherwise it founds a new action.
 *
 * Deliberate deviations from the kit, for speed:
 * - Exact search by default (`index: "exact"`), HNSW on request (`"hnsw"`). On a
 *   site whose pages carry per-page classes (most tag paths new), hnswlib at 4096
 *   dimensions costs milliseconds per link, mostly in-place point updates; the exact
 *   search below costs tens of µs up to thousands of actions. It returns the true
 *   nearest centroid, which HNSW with a small ef often misses on these sparse,
 *   near-orthogonal vectors, and it resumes exactly, where a rebuilt HNSW graph does not.
 * - Centroids are stored as the sum of the members' vectors and their count: the
 *   centroid is sum/n, the running mean without its rounding drift, and adding a member
 *   costs O(its non-zeros) instead of rescaling the whole centroid (which, on a menu
 *   action gaining 40 members per page, each with 2 page-specific n-grams, grew to
 *   thousands of non-zeros). Cosine similarity does not depend on the 1/n scale.
 * - Memo: the first assignment of a tag path fixes its action. A repeated path is not
 *   re-projected nor searched (the kit re-projects it with the grown vocabulary and
 *   searches again); it still counts as a member and still moves the centroid, by the
 *   running mean with its first projection.
 * - HNSW only: a moved centroid is marked dirty and re-added once before the next search
 *   instead of after every member. Each search sees exactly the centroids an eager
 *   index would hold; only the graph wiring can differ.
 * - The θ test uses the exact float64 cosine against the chosen centroid, not hnswlib's
 *   float32 distance, so a similarity of exactly θ joins deterministically.
 */
import { createRequire } from "node:module";
import type { HierarchicalNSW } from "hnswlib-node";
import { ALGORITHM_DEFAULTS } from "./settings-table";
import { TagPathProjector, type ProjectionOptions, type SparseVector, type TagPathProjectorState } from "./tag-path-projection";

/** Settings of an {@link ActionGrouper}; defaults from docs/ALGORITHM.md. */
export interface ActionGroupingOptions extends ProjectionOptions {
  /** θ (default: settings-table.ts). */
  readonly similarityThreshold?: number;
  /** Nearest-centroid search: exact (pruned inverted index) or hnswlib's HNSW. @default "exact" */
  readonly index?: "exact" | "hnsw";
  /** HNSW only (default: settings-table.ts). */ readonly hnswM?: number;
  /** HNSW only (default: settings-table.ts). */ readonly hnswEfConstruction?: number;
  /** HNSW only (default: settings-table.ts). */ readonly hnswEf?: number;
  /** HNSW only. @default 100 */ readonly hnswRandomSeed?: number;
}

export interface Assignment {
  readonly actionId: number;
  /** True when this tag path founded a new action. */
  readonly created: boolean;
}

/** Plain JSON state. Restoring it reproduces every later assignment (with the exact index). */
export interface ActionGrouperState {
  readonly projector: TagPathProjectorState;
  /** By action id: member count, founding tag path, Σ member vectors (sparse, slot order), |Σ|². */
  readonly actions: { members: number; sampleTagPath: string; indices: number[]; sums: number[]; normSquared: number; derivedFrom?: number }[];
  /** Memo in insertion order: tag path, action id, vocabulary size when it was projected. */
  readonly memo: [tagPath: string, actionId: number, vocabularySize: number][];
}

interface Action {
  members: number;
  readonly sampleTagPath: string;
  /** Set for an action split off another (see {@link ActionGrouper.derive}): it has no centroid. */
  readonly derivedFrom?: number;
  /** Σ of the members' vectors; slots are append-only. */
  readonly indices: number[];
  readonly sums: number[];
  readonly slotOf: Map<number, number>;
  /** |Σ|², maintained incrementally (and saved, so a resume sees the same floats). */
  normSquared: number;
}

type MemoEntry = { readonly actionId: number; readonly vector: SparseVector; readonly vocabularySize: number };

type Nearest = { actionId: number; similarity: number } | null;

/** Assigns tag paths to actions; one per crawl. */
export class ActionGrouper {
  /** θ. */
  readonly threshold: number;
  private projector: TagPathProjector;
  private readonly actions: Action[] = [];
  private readonly memo = new Map<string, MemoEntry>();
  /** The current query, dense, all zero between searches. */
  private readonly query: Float64Array;
  // exact search: bucket → ids of the actions whose centroid is non-zero there
  private readonly postings: number[][] = [];
  /** Upper bound of Σ[b] / |Σ| over all actions (never lowered). */
  private readonly maxShare: Float64Array;
  /** Search stamp per action id, to score each candidate once per search. */
  private readonly visited: number[] = [];
  private stamp = 0;
  private readonly hnsw: HierarchicalNSW | null = null;
  private readonly dirty = new Set<number>();

  constructor(options: ActionGroupingOptions = {}) {
    this.threshold = options.similarityThreshold ?? ALGORITHM_DEFAULTS.similarityThreshold;
    this.projector = new TagPathProjector(options);
    const dims = this.projector.dimensions;
    this.query = new Float64Array(dims);
    const exact = (options.index ?? "exact") === "exact";
    this.maxShare = new Float64Array(exact ? dims : 0);
    if (exact) {
      for (let b = 0; b < dims; b++) this.postings.push([]);
    } else {
      // Loaded on demand: the default exact search must not need the native addon built.
      const hnswlib = createRequire(import.meta.url)("hnswlib-node") as typeof import("hnswlib-node");
      this.hnsw = new hnswlib.HierarchicalNSW("cosine", dims);
      const m = options.hnswM ?? ALGORITHM_DEFAULTS.hnswM;
      this.hnsw.initIndex({ maxElements: 256, m, efConstruction: options.hnswEfConstruction ?? ALGORITHM_DEFAULTS.hnswEfConstruction, randomSeed: options.hnswRandomSeed ?? 100 });
      this.hnsw.setEf(options.hnswEf ?? ALGORITHM_DEFAULTS.hnswEf);
    }
  }

  get actionCount(): number {
    return this.actions.length;
  }

  /** Number of links filed under the action so far (repeated tag paths included). */
  members(actionId: number): number {
    return this.actions[actionId]?.members ?? 0;
  }

  /** The tag path that founded the action, for display. */
  sampleTagPath(actionId: number): string | undefined {
    return this.actions[actionId]?.sampleTagPath;
  }

  /** Dense centroid (running mean of the members) of an action. */
  centroid(actionId: number): Float64Array {
    const action = this.actions[actionId];
    const out = new Float64Array(this.projector.dimensions);
    if (action) for (let i = 0; i < action.indices.length; i++) out[action.indices[i]!] = action.sums[i]! / action.members;
    return out;
  }

  /**
   * A new action split off `parentId` (action-splitter.ts): it takes part of the parent's links by
   * their URL, not by tag path, so it has no centroid and no tag path is ever assigned to it.
   */
  derive(parentId: number, label: string): number {
    const parent = this.actions[parentId];
    if (!parent || parent.derivedFrom !== undefined) throw new RangeError(`Action ${parentId} cannot be split`);
    const id = this.actions.length;
    this.actions.push({ members: 0, sampleTagPath: `${parent.sampleTagPath} ${label}`, indices: [], sums: [], slotOf: new Map(), normSquared: 0, derivedFrom: parentId });
    this.visited.push(0);
    return id;
  }

  /** The action a split action was derived from; undefined for an action of tag paths. */
  derivedFrom(actionId: number): number | undefined {
    return this.actions[actionId]?.derivedFrom;
  }

  /** The action a tag path already assigned belongs to, without adding a member; undefined if never assigned. */
  groupOf(tagPath: string): number | undefined {
    return this.memo.get(tagPath)?.actionId;
  }

  /** The action of a link with this tag path, creating one when no centroid is within θ. */
  assign(tagPath: string): Assignment {
    const known = this.memo.get(tagPath);
    if (known) {
      this.addMember(known.actionId, known.vector);
      return { actionId: known.actionId, created: false };
    }
    const vector = this.projector.project(tagPath);
    const best = this.nearest(vector);
    const created = best === null || best.similarity < this.threshold;
    const actionId = created ? this.newAction(tagPath, vector) : best.actionId;
    if (!created) this.addMember(actionId, vector);
    this.memo.set(tagPath, { actionId, vector, vocabularySize: this.projector.vocabularySize });
    return { actionId, created };
  }

  /** Plain JSON snapshot (memoised vectors are not stored: `fromState` recomputes them). */
  toState(): ActionGrouperState {
    return {
      projector: this.projector.toState(),
      actions: this.actions.map((a) => ({
        members: a.members,
        sampleTagPath: a.sampleTagPath,
        indices: a.indices.slice(),
        sums: a.sums.slice(),
        normSquared: a.normSquared,
        ...(a.derivedFrom === undefined ? {} : { derivedFrom: a.derivedFrom }),
      })),
      memo: [...this.memo].map(([path, e]) => [path, e.actionId, e.vocabularySize]),
    };
  }

  /**
   * Restores a grouper. Memoised vectors are recomputed from the vocabulary, each at the
   * vocabulary size it was first projected at, bit for bit. With `index: "hnsw"` the
   * graph is rebuilt from the centroids in id order, so its wiring differs from the saved
   * run's and an approximate search can, rarely, pick another neighbour afterwards.
   */
  static fromState(state: ActionGrouperState, options: ActionGroupingOptions = {}): ActionGrouper {
    const grouper = new ActionGrouper(options);
    grouper.projector = TagPathProjector.fromState(state.projector, options);
    for (const [id, a] of state.actions.entries()) {
      if (a.derivedFrom !== undefined) {
        if (!(a.derivedFrom < id) || grouper.actions[a.derivedFrom]!.derivedFrom !== undefined) throw new TypeError(`Invalid grouper state: action ${id}`);
        grouper.actions.push({ members: a.members, sampleTagPath: a.sampleTagPath, indices: [], sums: [], slotOf: new Map(), normSquared: 0, derivedFrom: a.derivedFrom });
        grouper.visited.push(0);
        continue;
      }
      if (a.indices.length !== a.sums.length || !(a.members >= 1)) throw new TypeError(`Invalid grouper state: action ${id}`);
      const vector = { indices: Uint16Array.from(a.indices), values: Float64Array.from(a.sums) };
      const action = grouper.actions[grouper.newAction(a.sampleTagPath, vector)]!;
      action.members = a.members;
      action.normSquared = a.normSquared;
      grouper.raiseShares(action, action.indices);
    }
    const vectors = grouper.projector.reproject(state.memo.map(([tagPath, , vocabularySize]) => ({ tagPath, vocabularySize })));
    for (const [i, [tagPath, actionId, vocabularySize]] of state.memo.entries()) {
      if (!grouper.actions[actionId]) throw new TypeError(`Invalid grouper state: memo of ${tagPath} names action ${actionId}`);
      grouper.memo.set(tagPath, { actionId, vector: vectors[i]!, vocabularySize });
    }
    return grouper;
  }

  private newAction(sampleTagPath: string, vector: SparseVector): number {
    const id = this.actions.length;
    const action: Action = { members: 1, sampleTagPath, indices: [], sums: [], slotOf: new Map(), normSquared: 0 };
    this.actions.push(action);
    this.visited.push(0);
    this.addToSum(id, action, vector);
    if (this.hnsw) {
      if (this.hnsw.getCurrentCount() >= this.hnsw.getMaxElements()) this.hnsw.resizeIndex(2 * this.hnsw.getMaxElements());
      this.hnsw.addPoint(this.dense(action), id);
    }
    return id;
  }

  private addMember(actionId: number, vector: SparseVector): void {
    const action = this.actions[actionId]!;
    action.members++;
    this.addToSum(actionId, action, vector);
    if (this.hnsw) this.dirty.add(actionId);
  }

  private addToSum(id: number, action: Action, vector: SparseVector): void {
    const { indices, sums, slotOf } = action;
    for (let i = 0; i < vector.indices.length; i++) {
      const bucket = vector.indices[i]!;
      let slot = slotOf.get(bucket);
      if (slot === undefined) {
        slot = indices.length;
        indices.push(bucket);
        sums.push(0);
        slotOf.set(bucket, slot);
        if (!this.hnsw) this.postings[bucket]!.push(id);
      }
      const old = sums[slot]!;
      const sum = old + vector.values[i]!;
      sums[slot] = sum;
      action.normSquared += sum * sum - old * old;
    }
    // Σ only grows, so only the buckets that just grew can raise their share.
    if (!this.hnsw) this.raiseShares(action, vector.indices);
  }

  private raiseShares(action: Action, buckets: ArrayLike<number>): void {
    const norm = Math.sqrt(action.normSquared);
    if (norm === 0) return;
    for (let i = 0; i < buckets.length; i++) {
      const bucket = buckets[i]!;
      const share = action.sums[action.slotOf.get(bucket)!]! / norm;
      if (share > this.maxShare[bucket]!) this.maxShare[bucket] = share;
    }
  }

  /**
   * Exact float64 cosine between the loaded query and an action's centroid. One square
   * root of |q|²·|Σ|² rather than |q|·|Σ|: it keeps exact cases exact (6 of 8 equal
   * n-grams gives 0.75, not 0.7499999999999998), which matters at the θ boundary.
   */
  private cosine(vector: SparseVector, queryNormSquared: number, action: Action): number {
    let dot = 0;
    if (action.indices.length <= 2 * vector.indices.length) {
      for (let slot = 0; slot < action.indices.length; slot++) dot += action.sums[slot]! * this.query[action.indices[slot]!]!;
    } else {
      // Big centroids (a menu action collects page-specific n-grams): look the query up.
      for (let i = 0; i < vector.indices.length; i++) {
        const slot = action.slotOf.get(vector.indices[i]!);
        if (slot !== undefined) dot += action.sums[slot]! * vector.values[i]!;
      }
    }
    const denominator = Math.sqrt(queryNormSquared * action.normSquared);
    return denominator === 0 ? 0 : dot / denominator;
  }

  private nearest(vector: SparseVector): Nearest {
    if (this.actions.length === 0) return null;
    let normSquared = 0;
    for (let i = 0; i < vector.indices.length; i++) {
      this.query[vector.indices[i]!] = vector.values[i]!;
      normSquared += vector.values[i]! * vector.values[i]!;
    }
    try {
      return this.hnsw ? this.hnswNearest(vector, normSquared) : this.exactNearest(vector, normSquared);
    } finally {
      for (let i = 0; i < vector.indices.length; i++) this.query[vector.indices[i]!] = 0;
    }
  }

  private hnswNearest(vector: SparseVector, queryNormSquared: number): Nearest {
    const hnsw = this.hnsw!;
    // Ascending ids, so the re-insertion order does not depend on the Set's history.
    for (const id of [...this.dirty].sort((x, y) => x - y)) hnsw.addPoint(this.dense(this.actions[id]!), id);
    this.dirty.clear();
    const actionId = hnsw.searchKnn(Array.from(this.projector.toDense(vector)), 1).neighbors[0];
    return actionId === undefined ? null : { actionId, similarity: this.cosine(vector, queryNormSquared, this.actions[actionId]!) };
  }

  /**
   * Exact nearest centroid among those within θ, or null when none is (the caller then
   * creates an action, so which centroid is nearest below θ never matters).
   *
   * Prefix filtering (Bayardo et al., "Scaling up all pairs similarity search", 2007):
   * cos(q, c) = Σ_b q̂_b ĉ_b, all terms ≥ 0, ĉ_b ≤ maxShare[b]. Setting aside the
   * query's buckets with the longest posting lists (`[SOS]/`, `/html`, `html/body` are in
   * every centroid) while Σ q̂_b·maxShare[b] stays below θ, a centroid that shares none
   * of the remaining buckets cannot reach θ: only their (short) posting lists are
   * scanned. Scanning all of them is O(actions) per search.
   */
  private exactNearest(vector: SparseVector, queryNormSquared: number): Nearest {
    if (queryNormSquared === 0) return null;
    const queryNorm = Math.sqrt(queryNormSquared);
    const { indices, values } = vector;
    const order = Array.from(indices.keys()).sort(
      (x, y) => this.postings[indices[y]!]!.length - this.postings[indices[x]!]!.length || x - y,
    );
    let bound = 0;
    let first = 0;
    // 1e-9: rounding in the bound must never prune a centroid at exactly θ.
    for (; first < order.length; first++) {
      const add = (values[order[first]!]! / queryNorm) * this.maxShare[indices[order[first]!]!]!;
      if (bound + add >= this.threshold - 1e-9) break;
      bound += add;
    }
    const stamp = ++this.stamp;
    let best: Nearest = null;
    for (let k = first; k < order.length; k++) {
      for (const id of this.postings[indices[order[k]!]!]!) {
        if (this.visited[id] === stamp) continue;
        this.visited[id] = stamp;
        const similarity = this.cosine(vector, queryNormSquared, this.actions[id]!);
        if (similarity >= this.threshold && (!best || similarity > best.similarity || (similarity === best.similarity && id < best.actionId))) {
          best = { actionId: id, similarity };
        }
      }
    }
    return best;
  }

  private dense(action: Action): number[] {
    const out = new Array<number>(this.projector.dimensions).fill(0);
    for (let i = 0; i < action.indices.length; i++) out[action.indices[i]!] = action.sums[i]! / action.members;
    return out;
  }
}
