import type { FrontierLink, GroupRow } from "../types";

/** What the engine learned from crawling one frontier link. */
export interface PullResult {
  /** New confirmed targets found on the page (or 1 when the link itself was a new target). */
  reward: number;
  /** False when the link did not lead to an HTML page (error, redirect away, other MIME). */
  wasHtml: boolean;
}

/**
 * How the next HTML page is chosen. Every strategy shares the engine, its link typing and its
 * cost accounting (ALGORITHM.md "Baselines"); only the order of pages differs.
 */
export interface CrawlStrategy {
  /** Files an HTML-typed link (a link seen for the first time). */
  add(link: FrontierLink): void;
  /** A URL seen before, listed again on another page under `tagPath` (optional: only SB regroups). */
  rediscover?(url: string, tagPath: string): void;
  /** The next link to crawl, removed from the frontier; null when the frontier is empty. */
  next(requestsSoFar: number): FrontierLink | null;
  /** Feedback for the link `next` returned. */
  feedback(link: FrontierLink, result: PullResult): void;
  /** Links waiting. */
  size(): number;
  /**
   * What the next pull may bring (targets per pull, as the feedback's rewards count them): the
   * optimistic estimate of the best action with links waiting; null when none waits. Optional: a
   * re-crawl weighs it against revisiting a known page (recrawl.ts); a strategy without it has
   * its fresh links taken before any revisit.
   */
  expectedReward?(): number | null;
  /** Tag-path groups for the cockpit (strategies without groups return []). */
  groups(): GroupRow[];
  /** Number of groups, cheaply. */
  groupCount(): number;
  /** Plain JSON state for checkpoints (links referenced by id). */
  toState(): unknown;
}
