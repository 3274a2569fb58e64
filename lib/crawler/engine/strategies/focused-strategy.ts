import type { FrontierLink, GroupRow } from "../types";
import { LinkScorer, linkFeatures } from "../../link-scorer";
import type { CrawlStrategy, PullResult } from "./strategy";

interface Entry {
  score: number;
  link: FrontierLink;
}

/**
 * FOCUSED (ALGORITHM.md "Baselines"): breadth-first for the first `warmupRequests` requests,
 * then a priority queue ordered by the scorer's probability that a link's page gives targets,
 * the scorer retrained every 10 labels. Links are scored when they are filed (and the whole
 * frontier once, when the warm-up ends): re-scoring a large frontier at every retraining
 * would cost O(n log n) per 10 pages. Ties keep discovery order.
 */
export class FocusedStrategy implements CrawlStrategy {
  private heap: Entry[] = [];
  private readonly scorer: LinkScorer;
  private warm = false;

  /** `restored`: the state of a checkpoint (restore-strategy.ts); the heap array is taken as saved. */
  constructor(
    private readonly warmupRequests: number,
    restored?: { heap: Entry[]; warm: boolean; scorer: LinkScorer },
  ) {
    this.scorer = restored?.scorer ?? new LinkScorer();
    if (restored) {
      this.heap = restored.heap;
      this.warm = restored.warm;
    }
  }

  add(link: FrontierLink): void {
    this.push({ link, score: this.warm ? this.scoreOf(link) : 0 });
  }

  next(requestsSoFar: number): FrontierLink | null {
    if (!this.warm && requestsSoFar >= this.warmupRequests && this.scorer.trained) {
      this.warm = true;
      const entries = this.heap;
      this.heap = [];
      for (const entry of entries) this.push({ link: entry.link, score: this.scoreOf(entry.link) });
    }
    return this.pop()?.link ?? null;
  }

  feedback(link: FrontierLink, result: PullResult): void {
    this.scorer.addLabel(linkFeatures(link.url, link.anchorText, link.depth), result.reward > 0);
  }

  size(): number {
    return this.heap.length;
  }
  groups(): GroupRow[] {
    return [];
  }
  groupCount(): number {
    return 0;
  }
  toState(): unknown {
    return { links: this.heap.map((entry) => [entry.link.id, entry.score]), warm: this.warm, scorer: this.scorer.toState() };
  }

  private scoreOf(link: FrontierLink): number {
    return this.scorer.score(linkFeatures(link.url, link.anchorText, link.depth));
  }

  /** Max-heap on score; equal scores → smaller link id (earlier discovery) first. */
  private before(a: Entry, b: Entry): boolean {
    return a.score > b.score || (a.score === b.score && a.link.id < b.link.id);
  }

  private push(entry: Entry): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  private pop(): Entry | undefined {
    const heap = this.heap;
    if (heap.length === 0) return undefined;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let best = i;
        if (left < heap.length && this.before(heap[left]!, heap[best]!)) best = left;
        if (right < heap.length && this.before(heap[right]!, heap[best]!)) best = right;
        if (best === i) break;
        [heap[i], heap[best]] = [heap[best]!, heap[i]!];
        i = best;
      }
    }
    return top;
  }
}
