import type { Prng } from "../../prng";
import type { FrontierLink, GroupRow } from "../types";
import type { CrawlStrategy } from "./strategy";

/**
 * BFS (FIFO), DFS (LIFO) and RANDOM: the uninformed baselines. The FIFO is an array with a
 * moving head, compacted when half of it is consumed, so a million-link frontier costs one
 * pointer per link and no O(n) shift.
 */
export class FifoStrategy implements CrawlStrategy {
  private queue: FrontierLink[] = [];
  private head = 0;

  add(link: FrontierLink): void {
    this.queue.push(link);
  }

  next(): FrontierLink | null {
    if (this.head >= this.queue.length) return null;
    const link = this.queue[this.head]!;
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return link;
  }

  feedback(): void {}
  size(): number {
    return this.queue.length - this.head;
  }
  groups(): GroupRow[] {
    return [];
  }
  groupCount(): number {
    return 0;
  }
  toState(): unknown {
    return { links: this.queue.slice(this.head).map((link) => link.id) };
  }
}

export class LifoStrategy implements CrawlStrategy {
  private readonly stack: FrontierLink[] = [];

  add(link: FrontierLink): void {
    this.stack.push(link);
  }
  next(): FrontierLink | null {
    return this.stack.pop() ?? null;
  }
  feedback(): void {}
  size(): number {
    return this.stack.length;
  }
  groups(): GroupRow[] {
    return [];
  }
  groupCount(): number {
    return 0;
  }
  toState(): unknown {
    return { links: this.stack.map((link) => link.id) };
  }
}

export class RandomStrategy implements CrawlStrategy {
  private readonly pool: FrontierLink[] = [];

  constructor(private readonly prng: Prng) {}

  add(link: FrontierLink): void {
    this.pool.push(link);
  }
  /** Uniform choice, O(1) removal by swapping the last link into the hole. */
  next(): FrontierLink | null {
    if (this.pool.length === 0) return null;
    const index = this.prng.nextInt(this.pool.length);
    const link = this.pool[index]!;
    const last = this.pool.pop()!;
    if (index < this.pool.length) this.pool[index] = last;
    return link;
  }
  feedback(): void {}
  size(): number {
    return this.pool.length;
  }
  groups(): GroupRow[] {
    return [];
  }
  groupCount(): number {
    return 0;
  }
  toState(): unknown {
    return { links: this.pool.map((link) => link.id) };
  }
}
