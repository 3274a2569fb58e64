import { monitorEventLoopDelay, type IntervalHistogram } from "node:perf_hooks";
import type { WorkerLoad } from "../store/queries/list-workers";
import { processRenderingRssBytes } from "./process-rendering";

/** What the sampler reads from the process; a test passes its own. */
export interface ProcessReadings {
  nowMs(): number;
  /** User + system CPU time of the process so far, in microseconds. */
  cpuMicros(): number;
  rssBytes(): number;
}

const processReadings: ProcessReadings = {
  nowMs: () => performance.now(),
  cpuMicros: () => {
    const usage = process.cpuUsage();
    return usage.user + usage.system;
  },
  // The worker's browser (rendering script-built pages) is part of what the worker holds in memory.
  rssBytes: () => process.memoryUsage.rss() + processRenderingRssBytes(),
};

/**
 * Samples a worker's load once per heartbeat: counts pages as its crawls start them and, at each
 * `sample()`, turns the counts since the previous sample into rates. The event-loop histogram is
 * reset at each sample, so its p99 is the interval's, not the process lifetime's.
 */
export class WorkerLoadSampler {
  private pages = 0;
  private lastMs: number;
  private lastCpuMicros: number;
  private readonly loopDelay: IntervalHistogram;

  constructor(private readonly readings: ProcessReadings = processReadings) {
    this.lastMs = readings.nowMs();
    this.lastCpuMicros = readings.cpuMicros();
    this.loopDelay = monitorEventLoopDelay({ resolution: 20 });
    this.loopDelay.enable();
  }

  pageStarted(): void {
    this.pages += 1;
  }

  sample(crawlsHeld: number): WorkerLoad {
    const nowMs = this.readings.nowMs();
    const cpuMicros = this.readings.cpuMicros();
    const elapsedMs = Math.max(1, nowMs - this.lastMs);
    const load: WorkerLoad = {
      crawlsHeld,
      pagesPerSecond: (this.pages * 1000) / elapsedMs,
      cpuCores: (cpuMicros - this.lastCpuMicros) / 1000 / elapsedMs,
      rssBytes: this.readings.rssBytes(),
      // The histogram is in nanoseconds; with no sample yet it reports 0.
      loopDelayP99Ms: this.loopDelay.count > 0 ? this.loopDelay.percentile(99) / 1e6 : 0,
    };
    this.pages = 0;
    this.lastMs = nowMs;
    this.lastCpuMicros = cpuMicros;
    this.loopDelay.reset();
    return load;
  }

  stop(): void {
    this.loopDelay.disable();
  }
}
