/**
 * Measures a crawl's synchronous steps: the work between two points where it could give the
 * event loop away (a yield point, an await). The crawls of a worker share one thread; a step
 * that runs for a second holds back every other crawl, the lease heartbeat and the controls for
 * that second, and nothing in the thread can interrupt it. What the thread can do is notice when
 * the step ends and report it, so the crawl is paused before it does it again
 * (lib/worker/crawl-worker.ts); a step that never ends is the event-loop watchdog's
 * (lib/worker/event-loop-watchdog.ts), which watches from another thread.
 *
 * Cost: two clock reads per step (a step is one link of a page, one choice of the strategy).
 */

/** A step that held the event loop past the limit. */
export interface SlowStep {
  /** What the crawl was doing, in words ("the strategy choosing the next page"). */
  readonly step: string;
  readonly ms: number;
  readonly limitMs: number;
}

export interface StepWatchOptions {
  /** Longest synchronous step before it is reported. */
  readonly limitMs: number;
  /** Called once per slow step, when it ends (synchronously: keep it short). */
  readonly onSlowStep: (step: SlowStep) => void;
  /** The clock, in milliseconds. @default performance.now (tests pass a clock that runs fast) */
  readonly now?: () => number;
  /** Told when a step starts (true) and ends (false): the worker's event-loop watchdog names a step that never ends. */
  readonly onStepChange?: (running: boolean) => void;
}

export class StepWatch {
  private readonly now: () => number;
  private step: string | null = null;
  private startedAt = 0;

  constructor(private readonly options: StepWatchOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  /**
   * A step starts. One left open (an exception skipped its `end`) is dropped unmeasured: its
   * time may include awaits.
   */
  begin(step: string): void {
    this.step = step;
    this.options.onStepChange?.(true);
    this.startedAt = this.now();
  }

  /** The current step ends (before an await or a yield); nothing when no step runs. */
  end(): void {
    if (this.step === null) return;
    const ms = this.now() - this.startedAt;
    const step = this.step;
    this.step = null;
    this.options.onStepChange?.(false);
    if (ms > this.options.limitMs) this.options.onSlowStep({ step, ms: Math.round(ms), limitMs: this.options.limitMs });
  }

  /** Runs `fn` as one step. */
  time<T>(step: string, fn: () => T): T {
    this.begin(step);
    try {
      return fn();
    } finally {
      this.end();
    }
  }
}
