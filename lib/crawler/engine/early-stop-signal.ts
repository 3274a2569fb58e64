import type { CrawlConfig } from "../../crawl-config";
import { EarlyStopMonitor, type EarlyStopWindow } from "../early-stop";

/** The engine's view of early stopping: windows closed by the latest counts, and the verdict. */
export interface EarlyStopSignal {
  /** Feeds the cumulative counts; returns the newest window closed by them, if any. */
  observe(requests: number, targets: number): EarlyStopWindow | null;
  shouldStop(): boolean;
  readonly monitor: EarlyStopMonitor;
}

export function createEarlyStopSignal(params: CrawlConfig["params"], monitor?: EarlyStopMonitor): EarlyStopSignal {
  const m =
    monitor ??
    new EarlyStopMonitor({
      windowRequests: params.earlyStopWindowRequests,
      beta: params.earlyStopBeta,
      targetsPerRequest: params.earlyStopTargetsPerRequest,
      patienceWindows: params.earlyStopPatienceWindows,
    });
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
