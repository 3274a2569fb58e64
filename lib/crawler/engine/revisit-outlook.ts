import { changeProbability, estimateChangeRate } from "./change-rate";
import type { ChangeClassRecord, ChangeHistoryState, ChangeTally } from "./change-history";

/** A class never revisited, on a run that has observed nothing yet: even odds that its pages changed. */
const PRIOR_CHANGE_PROBABILITY = 0.5;
/** What a change of a class is taken to lead to before any is seen (files), with the weight of one change. */
const PRIOR_FINDS_PER_CHANGE = 0.5;
/** The weight (in revisits) of a class's prior against this run's own revisits of it. */
const PRIOR_WEIGHT = 1;
/** The most weight (in revisits) the history of earlier runs has against this run's revisits: a class whose habits change is relearnt within a run. */
const MAX_HISTORY_WEIGHT = 100;
/** One-sided 95 % normal quantile: a class is given up once even the optimistic odds of a change in it do not pay. */
const CONFIDENCE_Z = 1.645;
/**
 * A revisit pays while it is expected to find at least this share of the targets per request
 * the first crawl found: below it, the requests are better left unspent.
 */
export const REVISIT_PAY_SHARE = 0.05;
/** Pages of a class that changed in the last run checked before a re-crawl may stop. */
export const MIN_CHECKS_OF_CHANGED_CLASS = 2;

/** What revisiting one more page of a class is expected to bring. */
export interface RevisitOutlook {
  /** Probability that a page of the class changed since the run it was last crawled in. */
  changeProbability: number;
  /** New and changed files a change of the class led to (a half, until seen). */
  findsPerChange: number;
  /**
   * The upper confidence bound of changeProbability × findsPerChange: the finds a revisit (a
   * request) may still bring. Optimistic like the bandit's arms: a class revisited a few times
   * without a change is not given up until enough revisits make a rare change unlikely to pay.
   */
  value: number;
}

/** Wilson's score interval's upper end for a share `p` of `n` observations (one-sided, {@link CONFIDENCE_Z}). */
export function wilsonUpperBound(p: number, n: number): number {
  if (!(n > 0)) return 1;
  const z2 = CONFIDENCE_Z * CONFIDENCE_Z;
  const centre = p + z2 / (2 * n);
  const spread = CONFIDENCE_Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return Math.min(1, (centre + spread) / (1 + z2 / n));
}

/**
 * The upper end of the one-sided ({@link CONFIDENCE_Z}) score interval of a Poisson mean seen as
 * `mean` over `n` pulls: the λ solving (λ − mean)² = z²·λ / n above the mean. The optimism of a
 * fresh action's reward per pull, weighed against a class's optimistic revisit (Infinity unpulled).
 */
export function poissonUpperBound(mean: number, n: number): number {
  if (!(n > 0)) return Infinity;
  const z2 = CONFIDENCE_Z * CONFIDENCE_Z;
  const m = Math.max(0, mean);
  return m + z2 / (2 * n) + CONFIDENCE_Z * Math.sqrt(m / n + z2 / (4 * n * n));
}

/**
 * The expected worth of revisiting each class of known pages in this run, from the history of the
 * earlier runs (Cho and Garcia-Molina's estimate of the class's change rate, turned into the
 * probability of a change over the time since the last run) and this run's own revisits so far,
 * which weigh more as they accumulate, taken at the upper end of their confidence interval: a
 * class found unchanged page after page falls below the pay line once its revisits are enough to
 * say so, one that keeps changing stays above it.
 */
export class RevisitOutlooks {
  private readonly history = new Map<string, ChangeClassRecord>();
  /** Time since the previous run started (ms); null when unknown. */
  private readonly sincePreviousMs: number | null;
  readonly previousRun: number;
  /** Finds per revisit below which a revisit does not pay. */
  readonly payLine: number;
  /** Set once the site is seen marking its changes in listing entries: outlooks are then taken at their estimate, not optimistically. */
  siteMarksChanges = false;

  constructor(
    state: ChangeHistoryState | null | undefined,
    private readonly tally: ChangeTally,
    nowMs: number,
    previousRunYield: number,
  ) {
    for (const record of state?.classes ?? []) this.history.set(record.key, record);
    this.previousRun = state?.runs ?? 1;
    const previousStart = state?.runStarts.find(([run]) => run === this.previousRun)?.[1];
    this.sincePreviousMs = previousStart !== undefined && nowMs > previousStart ? nowMs - previousStart : null;
    this.payLine = REVISIT_PAY_SHARE * (state?.firstRunYield ?? previousRunYield);
  }

  /** The probability that a page of a class with this history changed since the previous run. */
  private historicalProbability(record: ChangeClassRecord): number {
    const meanIntervalMs = record.intervalMs / record.visits;
    if (this.sincePreviousMs !== null && meanIntervalMs > 0) return changeProbability(estimateChangeRate(record.visits, record.changes, meanIntervalMs), this.sincePreviousMs);
    // Intervals unknown: the runs are taken as evenly spaced (λ̂·I without I).
    return 1 - (record.visits - record.changes + 0.5) / (record.visits + 0.5);
  }

  outlook(key: string): RevisitOutlook {
    const past = this.history.get(key);
    const now = this.tally.get(key);
    let prior: number;
    let weight: number;
    if (past && past.visits > 0) {
      prior = this.historicalProbability(past);
      weight = Math.min(past.visits, MAX_HISTORY_WEIGHT);
    } else {
      // A class not revisited before: the share of this run's revisits of other classes that found a change, shrunk to even odds.
      prior = (this.tally.changes - (now?.changes ?? 0) + PRIOR_CHANGE_PROBABILITY) / (this.tally.visits - (now?.visits ?? 0) + 1);
      weight = PRIOR_WEIGHT;
    }
    const observations = (now?.visits ?? 0) + weight;
    const probability = ((now?.changes ?? 0) + prior * weight) / observations;
    const findsPerChange = ((past?.finds ?? 0) + (now?.finds ?? 0) + PRIOR_FINDS_PER_CHANGE) / ((past?.changes ?? 0) + (now?.changes ?? 0) + 1);
    const optimistic = this.siteMarksChanges ? probability : wilsonUpperBound(probability, observations);
    return { changeProbability: probability, findsPerChange, value: optimistic * findsPerChange };
  }

  /** Whether a class changed in the previous run and this run has not yet checked enough of its pages. */
  owesCheck(key: string): boolean {
    const past = this.history.get(key);
    if (!past || past.lastChangedRun < this.previousRun) return false;
    return (this.tally.get(key)?.visits ?? 0) < MIN_CHECKS_OF_CHANGED_CLASS;
  }

  /** Time since the run `run` started (ms); the time since the previous run when that is unknown, 0 when neither is. */
  sinceRunMs(run: number, nowMs: number, runStarts: readonly [number, number][]): number {
    const start = runStarts.find(([number]) => number === run)?.[1];
    if (start !== undefined && nowMs > start) return nowMs - start;
    return this.sincePreviousMs ?? 0;
  }
}
