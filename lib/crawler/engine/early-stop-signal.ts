import type { CrawlConfig } from "../crawl-config";
import { EarlyStopMonitor, type EarlyStopOptions, type EarlyStopState, type EarlyStopWindow } from "../early-stop";

/** The engine's view of early stopping: windows closed by the latest counts, and the verdict. */
export interface EarlyStopSignal {
  /** Feeds the cumulative counts; returns the newest window closed by them, if any. */
  observe(requests: number, targets: number): EarlyStopWindow | null;
  shouldStop(): boolean;
  readonly monitor: EarlyStopMonitor;
}

/** The monitor settings of a crawl. */
export function earlyStopOptions(params: CrawlConfig["params"]): EarlyStopOptions {
  return {
    windowRequests: params.earlyStopWindowRequests,
    beta: params.earlyStopBeta,
    targetsPerRequest: params.earlyStopTargetsPerRequest,
    patienceWindows: params.earlyStopPatienceWindows,
  };
}

/** `state`: windows saved by a checkpoint (`monitor.toState()`). */
export function createEarlyStopSignal(params: CrawlConfig["params"], state?: EarlyStopState | null): EarlyStopSignal {
  const m = state ? EarlyStopMonitor.fromState(state, earlyStopOptions(params)) : new EarlyStopMonitor(earlyStopOptions(params));
  return {
    monitor: m,
    observe(requests, targets) {
      const before = m.windows.length;
      m.observe(requests, targets);
      return m.windows.length > before ? (m.windows[m.windows.length - 1] ?? null) : null;
    },
    shouldStop: () => m.shouldStop,
  };
}
