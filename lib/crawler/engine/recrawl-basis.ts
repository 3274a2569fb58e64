import type { ChangeHistoryState } from "./change-history";
import type { EngineState } from "./engine-state";

/** A file an earlier run of the same site collected, with what a conditional request needs. */
export interface KnownFile {
  url: string;
  sha256: string;
  bytes: number;
  mime: string;
  etag: string | null;
  lastModified: string | null;
}

/** A page worth revisiting first: it led to pages that led to targets (a listing, a section). */
export interface RevisitPage {
  url: string;
  tagPath: string;
  depth: number;
}

/**
 * What a finished crawl leaves for the next run of the same site (recrawl-store.ts keeps it):
 * its engine state at the end, the pages to revisit first, and every URL the runs so far have
 * seen (links to those are pages known to lead only to known files, revisited last).
 */
export interface LearnedState {
  engine: EngineState;
  revisit: RevisitPage[];
  seenBefore: string[];
  /** Per class of revisited page, what the revisits of the runs so far found (change-history.ts); absent in states saved before it existed. */
  changeHistory?: ChangeHistoryState;
}

/** Everything a re-crawl (`after`) starts from. */
export interface RecrawlBasis {
  previousCrawlId: number;
  /** Null when the previous run left no learned state (it finished before re-crawls existed): the model starts afresh. */
  learned: LearnedState | null;
  known: KnownFile[];
  /** Conditional GET of every known file (linked or not) instead of trusting it unchanged. */
  checkKnownFiles: boolean;
  /**
   * When the previous run started (ISO 8601), an hour early for clocks that disagree: the
   * enumerations that can list only what changed since ask for that. Absent: they list everything.
   */
  previousStartedAt?: string;
  /**
   * Revisits compete with the fresh frontier (recrawl.ts `Recrawl.revisitBefore`) instead of
   * waiting until it is empty: the crawl setting `params.revisitsCompete`. Absent: false.
   */
  revisitsCompete?: boolean;
}

/** Bandit counts, sums and statistics of the previous run are scaled by this: a changed site is relearnt. */
export const FORGETTING_FACTOR = 0.5;
