import { expect, it } from "vitest";
import { runSoak, summariseSoak } from "../bench/soak-run";

// The soak bench (npm run bench:soak, an hour) in short: harvests of several hosts, scheduled
// every minute, run by one real worker while the built dashboard is polled every second as a
// browser would. It ends once every harvest has finished its first run and a scheduled one, so
// the scheduler, the worker and the dashboard have each done a full cycle under load.

const HOSTS = 4;

it("runs scheduled harvests under a polling dashboard with no error, no failed run and bounded descriptors", { timeout: 240_000 }, async () => {
  const result = await runSoak({
    durationMs: 180_000,
    hosts: HOSTS,
    delayMs: 150,
    requestsPerRun: 25,
    sampleEveryMs: 2_000,
    until: (sample) => sample.runsFinished >= 2 * HOSTS,
  });
  expect(result.errors).toEqual([]);
  const last = result.samples.at(-1)!;
  expect(last.runsFinished).toBeGreaterThanOrEqual(2 * HOSTS);
  expect(last.runsFailed).toBe(0);
  expect(result.polls).toBeGreaterThan(result.samples.length);
  const summary = summariseSoak(result.samples, 0);
  expect(summary.requests).toBeGreaterThanOrEqual(2 * HOSTS * 10);
  // Descriptors: a handful per host at most (keep-alive sockets), not one per request.
  expect(summary.workerFdsMax).toBeLessThan(100 + 10 * HOSTS);
  expect(summary.dashboardFdsMax).toBeLessThan(200);
  expect(summary.databaseBytes).toBeGreaterThan(0);
});
