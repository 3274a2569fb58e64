/**
 * Early stopping (docs/ALGORITHM.md, "Early stopping"; the paper gives the shape, the
 * numbers are Forage's): every k counted requests, the slope s = new targets / k feeds
 * an exponential moving average e = β·e + (1 − β)·s, and the crawl stops after P
 * consecutive windows with e < τ.
 *
 * The first window initialises e = s instead of starting from e = 0: from 0, e only
 * reaches (1 − β)·s = 0.1·s after one window, so any site yielding fewer than 0.1
 * targets per request (most of them) would count as "low" from the first window on and
 * stop after P windows whatever it finds.
 */

import { ALGORITHM_DEFAULTS } from "./settings-table";

/** Settings; defaults from settings-table.ts. */
export interface EarlyStopOptions {
  /** k: requests per window (default: settings-table.ts). */
  readonly windowRequests?: number;
  /** β: EMA smoothing (default: settings-table.ts). */
  readonly beta?: number;
  /** τ: targets per request under which a window is low (default: settings-table.ts). */
  readonly targetsPerRequest?: number;
  /** P: consecutive low windows before stopping (default: settings-table.ts). */
  readonly patienceWindows?: number;
}

/** One closed window, for the cockpit's chart (s, e, τ and the patience counter). */
export interface EarlyStopWindow {
  /** Requests counted at the end of the window (a multiple of k). */
  readonly requests: number;
  /** Distinct targets at the end of the window. */
  readonly targets: number;
  /** s: new targets per request over the window. */
  readonly slope: number;
  /** e after this window. */
  readonly ema: number;
  /** Consecutive low windows, this one included (0 when e ≥ τ). */
  readonly patience: number;
}

/** Plain JSON state. */
export interface EarlyStopState {
  readonly windows: EarlyStopWindow[];
}

export class EarlyStopMonitor {
  readonly windowRequests: number;
  readonly beta: number;
  readonly targetsPerRequest: number;
  readonly patienceWindows: number;
  private readonly history: EarlyStopWindow[] = [];

  constructor(options: EarlyStopOptions = {}) {
    this.windowRequests = options.windowRequests ?? ALGORITHM_DEFAULTS.earlyStopWindowRequests;
    this.beta = options.beta ?? ALGORITHM_DEFAULTS.earlyStopBeta;
    this.targetsPerRequest = options.targetsPerRequest ?? ALGORITHM_DEFAULTS.earlyStopTargetsPerRequest;
    this.patienceWindows = options.patienceWindows ?? ALGORITHM_DEFAULTS.earlyStopPatienceWindows;
    if (!Number.isInteger(this.windowRequests) || this.windowRequests < 1) {
      throw new RangeError(`windowRequests must be a positive integer, got ${this.windowRequests}`);
    }
    if (!(this.beta >= 0 && this.beta < 1)) throw new RangeError(`beta must be in [0, 1), got ${this.beta}`);
    if (!Number.isInteger(this.patienceWindows) || this.patienceWindows < 1) {
      throw new RangeError(`patienceWindows must be a positive integer, got ${this.patienceWindows}`);
    }
  }

  static fromState(state: EarlyStopState, options: EarlyStopOptions = {}): EarlyStopMonitor {
    const monitor = new EarlyStopMonitor(options);
    monitor.history.push(...state.windows.map((w) => ({ ...w })));
    return monitor;
  }

  toState(): EarlyStopState {
    return { windows: this.history.map((w) => ({ ...w })) };
  }

  /** Closed windows, oldest first. */
  get windows(): readonly EarlyStopWindow[] {
    return this.history;
  }

  /** True once P consecutive windows had e < τ; stays true. */
  get shouldStop(): boolean {
    const last = this.history[this.history.length - 1];
    return last !== undefined && last.patience >= this.patienceWindows;
  }

  /**
   * Call after each counted request with the cumulative counts; returns `shouldStop`.
   * Closes every window boundary reached. If the caller skipped boundaries (several
   * requests reported at once), each skipped window gets the current target count: the
   * new targets land in the first of them and the others see a slope of 0.
   */
  observe(requests: number, targets: number): boolean {
    const k = this.windowRequests;
    for (;;) {
      const last = this.history[this.history.length - 1];
      const boundary = (last ? last.requests : 0) + k;
      if (requests < boundary || this.shouldStop) break;
      const slope = (targets - (last ? last.targets : 0)) / k;
      const ema = last ? this.beta * last.ema + (1 - this.beta) * slope : slope;
      const patience = ema < this.targetsPerRequest ? (last ? last.patience : 0) + 1 : 0;
      this.history.push({ requests: boundary, targets, slope, ema, patience });
    }
    return this.shouldStop;
  }
}
