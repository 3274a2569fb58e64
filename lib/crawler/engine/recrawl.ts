import type { FrontierLink } from "./types";
import { REVISIT_PATIENCE_PAGES, type KnownFile, type RecrawlBasis } from "./recrawl-basis";

/** What a re-crawl learnt about a known file: seen linked again, confirmed, revised, or gone. */
export type KnownFileOutcome = "seen" | "unchanged" | "changed" | "gone";

export interface RecrawlState {
  outcomes: [url: string, outcome: KnownFileOutcome][];
  /** Link ids (in the engine's link table) of the known pages set aside, by tier. */
  deferred: [first: number[], later: number[]];
  stalePulls: number;
}

/**
 * The re-crawl part of an engine run (`config.after`): the files of the previous runs, which
 * are not downloaded again (unless `checkKnownFiles`: then a conditional GET each), and the
 * pages the previous runs saw, set aside until the fresh frontier is empty. Set-aside pages
 * listed among new pages (same tag path on the same page) come first, in the order found: sites
 * list updated items with new ones; revisiting ends after {@link REVISIT_PATIENCE_PAGES} of them
 * in a row brought no file.
 */
export class Recrawl {
  private readonly known = new Map<string, KnownFile>();
  private readonly seenBefore: Set<string>;
  readonly outcomes = new Map<string, KnownFileOutcome>();
  private readonly deferred: [FrontierLink[], FrontierLink[]] = [[], []];
  private stalePulls = 0;
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

  defer(link: FrontierLink, first: boolean): void {
    this.deferred[first ? 0 : 1].push(link);
  }

  get deferredCount(): number {
    return this.deferred[0].length + this.deferred[1].length;
  }

  /** The next set-aside page, once the fresh frontier is empty; null when none is left or patience ran out. */
  nextDeferred(): FrontierLink | null {
    if (this.stalePulls >= REVISIT_PATIENCE_PAGES) return null;
    return this.deferred[0].shift() ?? this.deferred[1].shift() ?? null;
  }

  /** After a set-aside page: did it lead to a file (new or changed)? */
  deferredPulled(found: boolean): void {
    this.stalePulls = found ? 0 : this.stalePulls + 1;
  }

  toState(): RecrawlState {
    return { outcomes: [...this.outcomes], deferred: [this.deferred[0].map((link) => link.id), this.deferred[1].map((link) => link.id)], stalePulls: this.stalePulls };
  }

  restore(state: RecrawlState, link: (id: number) => FrontierLink | undefined): void {
    for (const [url, outcome] of state.outcomes) this.outcomes.set(url, outcome);
    for (const tier of [0, 1] as const) {
      for (const id of state.deferred[tier]) {
        const found = link(id);
        if (found) this.deferred[tier].push(found);
      }
    }
    this.stalePulls = state.stalePulls;
  }
}
