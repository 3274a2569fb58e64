import type { FrontierLink } from "./types";
import { REVISIT_PATIENCE_PAGES, type KnownFile, type RecrawlBasis } from "./recrawl-basis";

/** What a re-crawl learnt about a known file: seen linked again, confirmed, revised, or gone. */
export type KnownFileOutcome = "seen" | "unchanged" | "changed" | "gone";

export interface RecrawlState {
  outcomes: [url: string, outcome: KnownFileOutcome][];
  /** Link ids (in the engine's link table) of the known pages set aside, by rank (see `Recrawl.defer`). */
  deferred: [rank: number, ids: number[]][];
  stalePulls: number;
}

/**
 * The re-crawl part of an engine run (`config.after`): the files of the previous runs, which
 * are not downloaded again (unless `checkKnownFiles`: then a conditional GET each), and the
 * pages the previous runs saw, set aside until the fresh frontier is empty, then revisited: first
 * those whose listing entry changed since the previous run (listing-entries.ts: catalogues print a
 * date of last update in an entry) and those a page listed after a new page of the same list (tag
 * path), as sites list what was updated right after what is new, then the others; shallowest
 * first, then in the order found. Revisiting
 * ends after {@link REVISIT_PATIENCE_PAGES} of them in a row brought neither a file nor a new page
 * (a page that sets aside a list of known pages does not count).
 */
/** Pages a revisited page must set aside to count as a list of them (not stale). */
const LIST_OF_PAGES = 3;

/** Added to the rank of set-aside pages not listed after a new one (above any depth). */
const LATER_RANK = 1_000_000;

export class Recrawl {
  private readonly known = new Map<string, KnownFile>();
  private readonly seenBefore: Set<string>;
  readonly outcomes = new Map<string, KnownFileOutcome>();
  /** Set-aside links by rank (depth, + {@link LATER_RANK} unless listed after a new page or with a changed entry); the lowest rank is revisited first. */
  private readonly deferred = new Map<number, FrontierLink[]>();
  /** Rank of each set-aside URL still waiting. */
  private readonly rankOf = new Map<string, number>();
  private stalePulls = 0;
  /** Set-aside pages taken back (this run, not restored: a log figure). */
  revisited = 0;
  readonly checkKnownFiles: boolean;
  readonly previousCrawlId: number;

  constructor(basis: RecrawlBasis) {
    for (const file of basis.known) this.known.set(file.url, file);
    this.seenBefore = new Set(basis.learned?.seenBefore ?? []);
    this.checkKnownFiles = basis.checkKnownFiles;
    this.previousCrawlId = basis.previousCrawlId;
  }

  knownFile(url: string): KnownFile | undefined {
    return this.known.get(url);
  }

  /** Known files, for the end-of-run sweep of the ones no page linked. */
  knownFiles(): IterableIterator<KnownFile> {
    return this.known.values();
  }

  note(url: string, outcome: KnownFileOutcome): void {
    this.outcomes.set(url, outcome);
  }

  /** A link the previous runs already saw (and not a known file): set aside, not typed. */
  seenByPreviousRuns(url: string): boolean {
    return this.seenBefore.has(url);
  }

  defer(link: FrontierLink, amongNew: boolean): void {
    this.pushDeferred(link.depth + (amongNew ? 0 : LATER_RANK), link);
  }

  /** A set-aside page listed again, now after a new link of the same list or with a changed entry: it moves to the first ones. */
  promote(url: string): void {
    const rank = this.rankOf.get(url);
    if (rank === undefined || rank < LATER_RANK) return;
    const bucket = this.deferred.get(rank)!;
    const at = bucket.findIndex((link) => link.url === url);
    if (at < 0) return;
    const [link] = bucket.splice(at, 1);
    this.pushDeferred(rank - LATER_RANK, link!);
  }

  private pushDeferred(rank: number, link: FrontierLink): void {
    const bucket = this.deferred.get(rank);
    if (bucket) bucket.push(link);
    else this.deferred.set(rank, [link]);
    this.rankOf.set(link.url, rank);
  }

  get deferredCount(): number {
    let count = 0;
    for (const bucket of this.deferred.values()) count += bucket.length;
    return count;
  }

  /** The next set-aside page, once the fresh frontier is empty; null when none is left or patience ran out. */
  nextDeferred(): FrontierLink | null {
    if (this.stalePulls >= REVISIT_PATIENCE_PAGES) return null;
    let best: number | null = null;
    for (const [rank, bucket] of this.deferred) if (bucket.length > 0 && (best === null || rank < best)) best = rank;
    if (best === null) return null;
    this.revisited += 1;
    const link = this.deferred.get(best)!.shift()!;
    this.rankOf.delete(link.url);
    return link;
  }

  /**
   * After a set-aside page: did it lead to a file (new or changed) or to new pages, and how many
   * pages did it set aside? A list of known pages (a listing's next page) is neither progress nor
   * stale: its pages are revisited after it, in the order it lists them.
   */
  deferredPulled(found: boolean, setAside = 0): void {
    if (found) this.stalePulls = 0;
    else if (setAside < LIST_OF_PAGES) this.stalePulls += 1;
  }

  toState(): RecrawlState {
    const deferred: RecrawlState["deferred"] = [];
    for (const [rank, bucket] of this.deferred) if (bucket.length > 0) deferred.push([rank, bucket.map((link) => link.id)]);
    return { outcomes: [...this.outcomes], deferred, stalePulls: this.stalePulls };
  }

  restore(state: RecrawlState, link: (id: number) => FrontierLink | undefined): void {
    for (const [url, outcome] of state.outcomes) this.outcomes.set(url, outcome);
    for (const [rank, ids] of state.deferred) {
      for (const id of ids) {
        const found = link(id);
        if (found) this.pushDeferred(rank, found);
      }
    }
    this.stalePulls = state.stalePulls;
  }
}
