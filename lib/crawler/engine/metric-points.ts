import type { CrawlEngineParts } from "./engine-parts";

/** Counted requests between two metric points. */
const METRIC_EVERY_REQUESTS = 10;

/**
 * The crawl's metric points (requests, targets, bytes, frontier; the early-stopping window's slope,
 * average and patience when one closes) and counters, written to the sink every
 * {@link METRIC_EVERY_REQUESTS} requests, at every closed window, and when the run ends or pauses.
 */
export class MetricPoints {
  private lastMetricAt: number;

  constructor(private readonly parts: CrawlEngineParts) {
    this.lastMetricAt = parts.counters.requests;
  }

  /** A metric point every few requests and at every early-stopping window. */
  emit(force: boolean): void {
    this.parts.meter.start();
    this.write(force);
    this.parts.meter.stop();
  }

  private write(force: boolean): void {
    const counters = this.parts.counters;
    const window = this.parts.earlyStop?.observe(counters.requests, counters.targets) ?? null;
    if (!force && !window && counters.requests - this.lastMetricAt < METRIC_EVERY_REQUESTS) return;
    // Nothing new since the last point (e.g. the final point right after a window closed):
    // writing it again would replace that window's point with one without slope.
    if (counters.requests === this.lastMetricAt && !window) return;
    this.lastMetricAt = counters.requests;
    counters.frontierSize = this.parts.strategy.size();
    counters.groups = this.parts.strategy.groupCount();
    this.parts.sink.metrics({
      requests: counters.requests,
      targets: counters.targets,
      targetBytes: counters.targetBytes,
      nonTargetBytes: counters.nonTargetBytes,
      frontierSize: counters.frontierSize,
      slope: window?.slope ?? null,
      ema: window?.ema ?? null,
      patience: window?.patience ?? null,
      activeMs: Math.round(counters.activeMs),
    });
    this.parts.sink.counters({ ...counters });
  }
}
