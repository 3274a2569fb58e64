import type { FrontierLink } from "./types";
import type { KnownFile, RecrawlBasis } from "./recrawl-basis";
import { ChangeTally, EVIDENCE_SUFFIX, revisitClassKey, type ChangeClassRecord } from "./change-history";
import type { PageChange } from "./page-fingerprints";
import { RevisitOutlooks } from "./revisit-outlook";

/** What a re-crawl learnt about a known file: seen linked again, confirmed, revised, or gone. */
export type KnownFileOutcome = "seen" | "unchanged" | "changed" | "gone";

export interface RecrawlState {
  outcomes: [url: string, outcome: KnownFileOutcome][];
  /** Link ids (in the engine's link table) of the known pages set aside, by rank (see `Recrawl.defer`). */
  deferred: [rank: number, ids: number[]][];
  /** Written by older checkpoints (revisits then ended after 20 stale ones in a row); not read. */
  stalePulls?: number;
  /** This run's revisits by class (change-history.ts); absent in older checkpoints. */
  tally?: ChangeClassRecord[];
  /** Whether the run saw the site mark its changes (see `Recrawl.siteMarksChanges`); absent in older checkpoints. */
  siteMarksChanges?: boolean;
}

/** This run's number among the runs of its crawl definition: one after the previous run's (2 when that left no history). */
export function recrawlRunNumber(basis: RecrawlBasis): number {
  return (basis.learned?.changeHistory?.runs ?? 1) + 1;
}

/** Added to the rank of set-aside pages not listed after a new one (above any depth). */
const LATER_RANK = 1_000_000;

/** The set-aside pages of one class, by rank. */
type ClassQueue = Map<number, FrontierLink[]>;

/**
 * The re-crawl part of an engine run (`config.after`): the files of the previous runs, which
 * are not downloaded again (unless `checkKnownFiles`: then a conditional GET each), and the
 * pages the previous runs saw, set aside until the fresh frontier is empty, or, with
 * `revisitsCompete`, revisited in competition with it ({@link Recrawl.revisitBefore}: a revisit is
 * taken when its class is expected to find more than the strategy's best action), then:
 *
 * - first those with evidence of a change: their listing entry changed since the previous run
 *   (listing-entries.ts: catalogues print a date of last update in an entry), their sitemap
 *   `lastmod` is after the previous run started, or a page listed them after a new page of the
 *   same list (tag path), as sites list what was updated right after what is new; shallowest
 *   first, then in the order found;
 * - then class by class (a class: the tag path of the link and the page's URL shape), the class
 *   whose next revisit is expected to find the most first (revisit-outlook.ts: its change rate
 *   learnt over the runs and this run's revisits so far, times what a change of it led to).
 *
 * A site that marks its changes in its listings is believed about the pages it did not mark.
 * Revisiting ends when no class is expected to pay (its expected finds per revisit under the pay
 * line), but not before every class that changed in the previous run has had a few pages checked;
 * competing, the run ends there when the fresh frontier's best estimate does not pay either.
 * Each revisit is compared with the page's fingerprint of an earlier run (page-fingerprints.ts)
 * and tallied for the next runs' history: its finds are the new and changed files it found and
 * the new pages it led to (a known file fetched again with its old bytes is none).
 */
export class Recrawl {
  private readonly known = new Map<string, KnownFile>();
  private readonly seenBefore: Set<string>;
  readonly outcomes = new Map<string, KnownFileOutcome>();
  /** Set-aside links by class, then by rank (depth, + {@link LATER_RANK} unless listed after a new page or with a changed entry); the lowest rank of a class is revisited first. */
  private readonly deferred = new Map<string, ClassQueue>();
  /** Class and rank of each set-aside URL still waiting. */
  private readonly placeOf = new Map<string, { key: string; rank: number }>();
  private count = 0;
  readonly tally: ChangeTally;
  private readonly outlooks: RevisitOutlooks;
  private readonly nowMs: number;
  private readonly runStarts: readonly [number, number][];
  /** Known pages the site's sitemap dates after the previous run's start. */
  private readonly changedByTheSite = new Set<string>();
  /** Pages taken back for evidence of a change, until their revisit is tallied. */
  private readonly revisitedOnEvidence = new Set<string>();
  /**
   * Files stored this run that are new or changed (a known file fetched again with the same bytes,
   * e.g. through a download page revisited, is not): a revisit's files among its finds. Counted
   * from the run's start or resume; only differences are read.
   */
  finds = 0;
  /** Set-aside pages taken back (this run, not restored: a log figure). */
  revisited = 0;
  readonly checkKnownFiles: boolean;
  readonly previousCrawlId: number;
  /** Whether revisits compete with the fresh frontier ({@link revisitBefore}); else they wait until it is empty. */
  readonly revisitsCompete: boolean;

  /** `nowMs`: when this run started (the time since the earlier runs sets the odds of a change). */
  constructor(basis: RecrawlBasis, nowMs = Date.now()) {
    for (const file of basis.known) this.known.set(file.url, file);
    this.seenBefore = new Set(basis.learned?.seenBefore ?? []);
    this.checkKnownFiles = basis.checkKnownFiles;
    this.previousCrawlId = basis.previousCrawlId;
    this.revisitsCompete = basis.revisitsCompete ?? false;
    this.nowMs = nowMs;
    const history = basis.learned?.changeHistory ?? null;
    this.runStarts = history?.runStarts ?? [];
    this.tally = new ChangeTally(recrawlRunNumber(basis));
    const counters = basis.learned?.engine?.counters;
    const previousYield = counters && counters.requests > 0 ? counters.targets / counters.requests : 0;
    this.outlooks = new RevisitOutlooks(history, this.tally, nowMs, previousYield);
  }

  knownFile(url: string): KnownFile | undefined {
    return this.known.get(url);
  }

  /** Known files, for the end-of-run sweep of the ones no page linked. */
  knownFiles(): IterableIterator<KnownFile> {
    return this.known.values();
  }

  /** A file stored: a find unless an earlier run kept the same bytes under its URL. */
  storedFile(url: string, sha256: string): void {
    if (this.known.get(url)?.sha256 !== sha256) this.finds += 1;
  }

  note(url: string, outcome: KnownFileOutcome): void {
    this.outcomes.set(url, outcome);
  }

  /** A link the previous runs already saw (and not a known file): set aside, not typed. */
  seenByPreviousRuns(url: string): boolean {
    return this.seenBefore.has(url);
  }

  defer(link: FrontierLink, amongNew: boolean): void {
    const evidence = amongNew || this.changedByTheSite.has(link.url);
    this.pushDeferred(revisitClassKey(link.tagPath, link.url), link.depth + (evidence ? 0 : LATER_RANK), link);
  }

  /**
   * The site says a known page changed since the previous run (a sitemap `lastmod` after it
   * started): the page is revisited among the first once a page links it (or at once if it waits).
   */
  changedBySite(url: string): void {
    if (!this.seenBefore.has(url)) return;
    this.changedByTheSite.add(url);
    this.promote(url);
  }

  /** A set-aside page listed again, now after a new link of the same list or with a changed entry: it moves to the first ones. */
  promote(url: string): void {
    const place = this.placeOf.get(url);
    if (place === undefined || place.rank < LATER_RANK) return;
    const queue = this.deferred.get(place.key)!;
    const bucket = queue.get(place.rank)!;
    const at = bucket.findIndex((link) => link.url === url);
    if (at < 0) return;
    const [link] = bucket.splice(at, 1);
    if (bucket.length === 0) queue.delete(place.rank);
    this.count -= 1;
    this.pushDeferred(place.key, place.rank - LATER_RANK, link!);
  }

  private pushDeferred(key: string, rank: number, link: FrontierLink): void {
    let queue = this.deferred.get(key);
    if (!queue) this.deferred.set(key, (queue = new Map()));
    const bucket = queue.get(rank);
    if (bucket) bucket.push(link);
    else queue.set(rank, [link]);
    this.placeOf.set(link.url, { key, rank });
    this.count += 1;
  }

  get deferredCount(): number {
    return this.count;
  }

  /** The lowest rank of a class with a page waiting, or null. */
  private static lowestRank(queue: ClassQueue): number | null {
    let best: number | null = null;
    for (const [rank, bucket] of queue) if (bucket.length > 0 && (best === null || rank < best)) best = rank;
    return best;
  }

  /**
   * The class to revisit next: one with evidence of a change first (lowest rank), then a class that
   * changed in the previous run and is not checked yet, then the class of best outlook if it pays;
   * null when none is left or none pays.
   */
  private nextClass(): { key: string; rank: number; value: number; kind: "evidence" | "owed" | "best" } | null {
    let evidence: { key: string; rank: number } | null = null;
    let owed: { key: string; rank: number; value: number } | null = null;
    let best: { key: string; rank: number; value: number } | null = null;
    for (const [key, queue] of this.deferred) {
      const rank = Recrawl.lowestRank(queue);
      if (rank === null) continue;
      if (rank < LATER_RANK) {
        if (!evidence || rank < evidence.rank) evidence = { key, rank };
        continue;
      }
      const { value } = this.outlooks.outlook(key);
      if (!owed && this.outlooks.owesCheck(key)) owed = { key, rank, value };
      if (!best || value > best.value) best = { key, rank, value };
    }
    if (evidence) return { ...evidence, value: this.outlooks.outlook(evidence.key + EVIDENCE_SUFFIX).value, kind: "evidence" };
    if (owed) return { ...owed, kind: "owed" };
    return best && best.value >= this.outlooks.payLine ? { ...best, kind: "best" } : null;
  }

  /**
   * The set-aside page to revisit before the strategy's next fresh link, which may bring
   * `freshExpected` targets (optimistically): the next page with evidence of a change, else of a
   * class owed a check, else of the class of best outlook, when its class's outlook beats the fresh
   * link, or when the fresh link does not pay. null: take the fresh link. "stop": neither the
   * fresh frontier nor any class pays, and every class that changed last run has been checked.
   */
  revisitBefore(freshExpected: number): FrontierLink | null | "stop" {
    const next = this.nextClass();
    const freshPays = freshExpected >= this.outlooks.payLine;
    if (!next) return freshPays ? null : "stop";
    return next.value > freshExpected || !freshPays ? this.take(next) : null;
  }

  /** The next set-aside page, once the fresh frontier is empty; null when none is left or none is expected to pay. */
  nextDeferred(): FrontierLink | null {
    const next = this.nextClass();
    return next ? this.take(next) : null;
  }

  private take(next: { key: string; rank: number }): FrontierLink {
    const queue = this.deferred.get(next.key)!;
    const bucket = queue.get(next.rank)!;
    const link = bucket.shift()!;
    // Emptied ranks and classes leave the maps: the choice of the next class walks only those waiting.
    if (bucket.length === 0) queue.delete(next.rank);
    if (queue.size === 0) this.deferred.delete(next.key);
    this.count -= 1;
    this.placeOf.delete(link.url);
    this.revisited += 1;
    if (next.rank < LATER_RANK) this.revisitedOnEvidence.add(link.url);
    return link;
  }

  /**
   * After a set-aside page: what its fingerprint said (null: no earlier run fingerprinted it) and
   * how many new (or changed) files and new pages it led to, tallied for its class. Returns whether it changed.
   */
  revisitedPage(link: FrontierLink, change: PageChange | null, finds: number): boolean {
    const sinceMs = this.outlooks.sinceRunMs(change?.sinceRun ?? this.outlooks.previousRun, this.nowMs, this.runStarts);
    // A page revisited on evidence of its change is tallied apart: it says nothing of how often its class changes unannounced.
    const onEvidence = this.revisitedOnEvidence.delete(link.url);
    return this.tally.observe(revisitClassKey(link.tagPath, link.url) + (onEvidence ? EVIDENCE_SUFFIX : ""), change, finds, sinceMs, !onEvidence);
  }

  /**
   * A listing entry's text changed since the previous run (a date of last update, a file count):
   * the site marks its changes, so pages it did not mark are believed unchanged until their
   * revisits show otherwise (no optimism in their outlook).
   */
  siteMarksChanges(): void {
    this.outlooks.siteMarksChanges = true;
  }

  /** The expected worth of a class's next revisit (for tests and the log). */
  outlookOf(link: Pick<FrontierLink, "tagPath" | "url">) {
    return this.outlooks.outlook(revisitClassKey(link.tagPath, link.url));
  }

  toState(): RecrawlState {
    const deferred: RecrawlState["deferred"] = [];
    for (const queue of this.deferred.values()) for (const [rank, bucket] of queue) if (bucket.length > 0) deferred.push([rank, bucket.map((link) => link.id)]);
    return { outcomes: [...this.outcomes], deferred, tally: this.tally.toState(), siteMarksChanges: this.outlooks.siteMarksChanges };
  }

  restore(state: RecrawlState, link: (id: number) => FrontierLink | undefined): void {
    for (const [url, outcome] of state.outcomes) this.outcomes.set(url, outcome);
    for (const [rank, ids] of state.deferred) {
      for (const id of ids) {
        const found = link(id);
        if (found) this.pushDeferred(revisitClassKey(found.tagPath, found.url), rank, found);
      }
    }
    this.tally.restore(state.tally ?? []);
    if (state.siteMarksChanges) this.siteMarksChanges();
  }
}
