/**
 * When to take a checkpoint (always between two pages). A capture is O(frontier + seen URLs):
 * tens to hundreds of milliseconds once the frontier holds thousands of links (a stored crawl
 * encodes it in slices, giving the event loop away between them). Two rules:
 * - CPU: the engine's own time since the previous checkpoint must be at least `costFactor` times
 *   that checkpoint's cost, so checkpoints stay near 1/costFactor of the engine's time however
 *   large the state grows (the engine meter counts them: the benchmark sees them);
 * - repeated work: a crawl that makes little CPU (politeness delays: ~1 ms of engine time per
 *   request at 1 request/s) still gets one every `maxIntervalMs`, so a crash repeats at most
 *   that much crawling; never more often than every `minIntervalMs`. The site does not see that
 *   repetition: the request rows written since the checkpoint answer it (RecoveringFetcher), so
 *   the interval bounds only the resume's replay (time, rows held in memory), and the cadence
 *   was kept rather than relaxed: replaying costs the engine about as much as crawling did.
 * Rejected: a fixed period alone (its cost grows with the state, without bound) and the CPU rule alone (a polite crawl would checkpoint every few
 * minutes and a crash would repeat hundreds of requests to the site).
 *
 * What a crash repeats is pages, not seconds: at a 4 s politeness delay, 10 s is two or three
 * pages, and a checkpoint every two or three pages cost more than the pages themselves (a worker
 * holding thousands of such crawls spent a large share of its CPU on them). `minPages` makes
 * both rules wait for that many pages too (`due()` is asked once per page boundary), up to
 * `maxIntervalMs × maxIntervalStretch`, past which one is due whatever the page count.
 */
export interface CheckpointScheduleOptions {
  /** @default 2000 */
  minIntervalMs?: number;
  /** @default 10000 */
  maxIntervalMs?: number;
  /** @default 25 */
  costFactor?: number;
  /** Pages (calls of `due()`) the maximum interval also waits for. @default 1 (the interval alone) */
  minPages?: number;
  /** How far `minPages` may stretch the maximum interval. @default 6 */
  maxIntervalStretch?: number;
  /** Clock (tests). @default performance.now */
  now?: () => number;
}

export class CheckpointSchedule {
  private readonly minIntervalMs: number;
  private readonly maxIntervalMs: number;
  private readonly costFactor: number;
  private readonly minPages: number;
  private readonly maxIntervalStretch: number;
  private readonly now: () => number;
  private lastAt = -Infinity;
  /** Calls of `due()` (page boundaries) since the last checkpoint. */
  private pages = 0;
  private lastCostMs = 0;
  private engineMsAtLast = 0;
  /** Taken so far, with their total cost and the size of the latest one. */
  count = 0;
  totalMs = 0;
  lastBytes = 0;

  /** `engineMs`: the engine's own time so far (EngineMeter.ms). */
  constructor(
    private readonly engineMs: () => number,
    options: CheckpointScheduleOptions = {},
  ) {
    this.minIntervalMs = options.minIntervalMs ?? 2_000;
    this.maxIntervalMs = options.maxIntervalMs ?? 10_000;
    this.costFactor = options.costFactor ?? 25;
    this.minPages = options.minPages ?? 1;
    this.maxIntervalStretch = options.maxIntervalStretch ?? 6;
    this.now = options.now ?? (() => performance.now());
  }

  /** Whether to take one now; asked once per page boundary (each call counts a page). */
  due(): boolean {
    this.pages += 1;
    const since = this.now() - this.lastAt;
    if (since < this.minIntervalMs) return false;
    if (since >= this.maxIntervalMs * this.maxIntervalStretch) return true;
    // Both rules wait for the pages: the engine's time is wall time, and in a worker whose CPU is
    // saturated by thousands of crawls every await of a page stretches, so the CPU rule alone
    // checkpointed more often the busier the worker was.
    if (this.pages < this.minPages) return false;
    // The first checkpoint of a run pays for JIT warm-up, several times the next one: not a measure.
    const costMs = this.count > 1 ? this.lastCostMs : 0;
    return since >= this.maxIntervalMs || this.engineMs() - this.engineMsAtLast >= this.costFactor * costMs;
  }

  /** Runs `capture`, timing it, and makes the next checkpoint due from now. */
  take<T extends { length: number }>(capture: () => T): T {
    const started = this.now();
    const result = capture();
    this.record(this.now() - started, result.length);
    return result;
  }

  /**
   * Runs a capture that gives the event loop away while it works (engine-state.ts
   * `encodeStateInSlices`): its cost is the work it reports, not the wall time, which includes
   * the turns other crawls of the worker took meanwhile.
   */
  async takeAsync<T extends { length: number }>(capture: () => Promise<{ data: T; workMs: number }>): Promise<T> {
    const { data, workMs } = await capture();
    this.record(workMs, data.length);
    return data;
  }

  private record(costMs: number, bytes: number): void {
    this.lastAt = this.now();
    this.lastCostMs = costMs;
    this.engineMsAtLast = this.engineMs();
    this.pages = 0;
    this.count += 1;
    this.totalMs += costMs;
    this.lastBytes = bytes;
  }
}
