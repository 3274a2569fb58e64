import { urlShape } from "../url-shape";
import type { PageChange } from "./page-fingerprints";

/**
 * What the revisits of one class of known pages found, in one run or summed over runs. A class is
 * the tag path of the link a page was met by and the page's URL shape (url-shape.ts): the pages
 * of one list in one section, whose change rates are alike (a catalogue's publications, its news
 * articles, its listing pages).
 */
export interface ChangeClassRecord {
  key: string;
  /** Revisits whose page could be compared with an earlier run's. */
  visits: number;
  /** Of those, the revisits that found the page changed (its links, or something new on it). */
  changes: number;
  /** New (or changed) files and new pages the revisits led to. */
  finds: number;
  /** Sum over the visits of the time since the run the page was compared with (ms). */
  intervalMs: number;
  /** The last run in which a revisit of the class found a change (0: none yet). */
  lastChangedRun: number;
}

/**
 * The change history of a crawl definition's runs (LearnedState.changeHistory): per class, the
 * revisits summed over every run so far, so a third run knows more than a second.
 */
export interface ChangeHistoryState {
  /** The latest run's number (1 = the first crawl). */
  runs: number;
  /** Start times (ms since the epoch) of the latest runs, by run number. */
  runStarts: [run: number, startedAtMs: number][];
  /** Targets per request of the first run: what a request is worth on this site (the revisits' yardstick). */
  firstRunYield: number;
  classes: ChangeClassRecord[];
}

/** Appended to a class's key in the tally for its pages revisited on evidence of a change (a listing said so). */
export const EVIDENCE_SUFFIX = " (evidence)";

/** Classes kept in the history, at most (the most visited win): a site of many lists still has a bounded record. */
export const MAX_CHANGE_CLASSES = 5_000;
/** Run start times kept. */
const MAX_RUN_STARTS = 32;

/** The class of a known page met by a link: the link's tag path and the page's URL shape. */
export function revisitClassKey(tagPath: string, url: string): string {
  return `${urlShape(url)} ${tagPath}`;
}

function emptyRecord(key: string): ChangeClassRecord {
  return { key, visits: 0, changes: 0, finds: 0, intervalMs: 0, lastChangedRun: 0 };
}

/** This run's revisits, by class: what the run adds to the history. */
export class ChangeTally {
  private readonly records = new Map<string, ChangeClassRecord>();
  /** Revisits observed this run, over every class but those revisited on evidence (the prior of a class not met yet). */
  visits = 0;
  changes = 0;

  constructor(readonly run: number) {}

  /** Takes back a checkpointed tally (a resumed run). */
  restore(state: readonly ChangeClassRecord[]): void {
    for (const record of state) {
      this.records.set(record.key, { ...record });
      if (record.key.endsWith(EVIDENCE_SUFFIX)) continue;
      this.visits += record.visits;
      this.changes += record.changes;
    }
  }

  /**
   * One revisit of a page of class `key`: `change` is its fingerprint's verdict (null when no
   * earlier run fingerprinted it: then it changed if it led to something new), `finds` the new
   * (or changed) files and new pages it led to, `intervalMs` the time since the run it is compared with.
   */
  observe(key: string, change: PageChange | null, finds: number, intervalMs: number, pooled = true): boolean {
    const changed = (change?.changed ?? false) || finds > 0;
    const record = this.records.get(key) ?? emptyRecord(key);
    record.visits += 1;
    record.intervalMs += Math.max(0, intervalMs);
    record.finds += finds;
    if (changed) {
      record.changes += 1;
      record.lastChangedRun = this.run;
    }
    this.records.set(key, record);
    if (pooled) {
      this.visits += 1;
      if (changed) this.changes += 1;
    }
    return changed;
  }

  get(key: string): ChangeClassRecord | undefined {
    return this.records.get(key);
  }

  toState(): ChangeClassRecord[] {
    return [...this.records.values()].map((record) => ({ ...record }));
  }
}

/** The history after a run: its tally added to the runs' before, the run's start recorded, at most {@link MAX_CHANGE_CLASSES} classes. */
export function mergeChangeHistory(
  previous: ChangeHistoryState | null | undefined,
  tally: readonly ChangeClassRecord[],
  run: { number: number; startedAtMs: number | null; yieldPerRequest: number },
): ChangeHistoryState {
  const classes = new Map<string, ChangeClassRecord>();
  for (const record of previous?.classes ?? []) classes.set(record.key, { ...record });
  for (const record of tally) {
    const before = classes.get(record.key) ?? emptyRecord(record.key);
    classes.set(record.key, {
      key: record.key,
      visits: before.visits + record.visits,
      changes: before.changes + record.changes,
      finds: before.finds + record.finds,
      intervalMs: before.intervalMs + record.intervalMs,
      lastChangedRun: Math.max(before.lastChangedRun, record.lastChangedRun),
    });
  }
  const runStarts = (previous?.runStarts ?? []).filter(([number]) => number !== run.number);
  if (run.startedAtMs !== null) runStarts.push([run.number, run.startedAtMs]);
  return {
    runs: Math.max(run.number, previous?.runs ?? 0),
    runStarts: runStarts.slice(-MAX_RUN_STARTS),
    firstRunYield: previous?.firstRunYield ?? run.yieldPerRequest,
    classes: [...classes.values()].sort((a, b) => b.visits - a.visits || (a.key < b.key ? -1 : 1)).slice(0, MAX_CHANGE_CLASSES),
  };
}
