import { describe, expect, it } from "vitest";
import { WorkerLoadSampler, type ProcessReadings } from "../../lib/worker/worker-load";

/** Readings a test moves by hand: a clock, the process's CPU time and its memory. */
function handReadings(): ProcessReadings & { ms: number; cpu: number; rss: number } {
  const readings = { ms: 1_000, cpu: 5_000_000, rss: 100 * 1024 * 1024, nowMs: () => readings.ms, cpuMicros: () => readings.cpu, rssBytes: () => readings.rss };
  return readings;
}

describe("a worker's load", () => {
  it("turns the pages and CPU time since the previous sample into rates", () => {
    const readings = handReadings();
    const sampler = new WorkerLoadSampler(readings);
    for (let page = 0; page < 30; page++) sampler.pageStarted();
    readings.ms += 15_000; // one heartbeat interval of 15 s
    readings.cpu += 3_000_000; // 3 s of CPU in it
    readings.rss = 250 * 1024 * 1024;
    const first = sampler.sample(7);
    expect(first).toMatchObject({ crawlsHeld: 7, pagesPerSecond: 2, cpuCores: 0.2, rssBytes: 250 * 1024 * 1024 });

    // The next interval counts from the previous sample, not from the start.
    for (let page = 0; page < 5; page++) sampler.pageStarted();
    readings.ms += 10_000;
    readings.cpu += 15_000_000;
    const second = sampler.sample(2);
    expect(second).toMatchObject({ crawlsHeld: 2, pagesPerSecond: 0.5, cpuCores: 1.5 });
    sampler.stop();
  });

  it("reports an idle interval as zero pages and zero CPU", () => {
    const readings = handReadings();
    const sampler = new WorkerLoadSampler(readings);
    readings.ms += 5_000;
    expect(sampler.sample(0)).toMatchObject({ crawlsHeld: 0, pagesPerSecond: 0, cpuCores: 0 });
    sampler.stop();
  });
});
