/**
 * The multi-seed summary of `forage bench --seeds`: per-seed ratios against both BFS baselines
 * and their means, hand-computed.
 */
import { describe, expect, it } from "vitest";
import { formatBenchSummary, meanOrNull, summarizeBenchRuns } from "../../lib/bench/bench-summary";
import type { BenchRow } from "../../lib/bench/run-bench";

function row(shape: BenchRow["shape"], strategy: string, ratioToBfs90: number | null, ratioToPaperBfs90: number | null): BenchRow {
  return {
    shape, strategy, targets: 10, totalTargets: 10, to50: 5, to90: 9, ratioToBfs90, ratioToPaperBfs90, atLeastBfsAfter: 0, requests: 20,
    cpuMsPerRequest: null, engineMsPerRequest: null, requestsPerSecond: null, peakRssMb: null, stopReason: "site-exhausted",
  };
}

describe("bench summary over seeds", () => {
  const runs = [
    { seed: 1, rows: [row("ministry-portal", "sb", 0.4, 0.3), row("ministry-portal", "bfs", 1, 0.8), row("ministry-portal", "bfs (site reference)", 1.25, 1)] },
    { seed: 2, rows: [row("ministry-portal", "sb", 0.5, 0.45), row("ministry-portal", "bfs", 1, 0.9), row("ministry-portal", "bfs (site reference)", 1.11, 1)] },
  ];

  it("collects each strategy's ratios per seed, without the site reference row", () => {
    expect(summarizeBenchRuns(runs)).toEqual([
      { shape: "ministry-portal", strategy: "sb", ratioToBfs90: [0.4, 0.5], ratioToPaperBfs90: [0.3, 0.45] },
      { shape: "ministry-portal", strategy: "bfs", ratioToBfs90: [1, 1], ratioToPaperBfs90: [0.8, 0.9] },
    ]);
  });

  it("has no mean when one seed's crawl fell short of 90 %", () => {
    expect(meanOrNull([0.4, 0.5])).toBeCloseTo(0.45, 12);
    expect(meanOrNull([0.4, null])).toBeNull();
    expect(meanOrNull([])).toBeNull();
  });

  it("keeps a strategy missing from one seed's table as a missing ratio", () => {
    const partial = [runs[0]!, { seed: 2, rows: [row("ministry-portal", "bfs", 1, 0.9)] }];
    expect(summarizeBenchRuns(partial)[0]).toEqual({ shape: "ministry-portal", strategy: "sb", ratioToBfs90: [0.4, null], ratioToPaperBfs90: [0.3, null] });
  });

  it("prints per-seed ratios and means against both baselines", () => {
    expect(formatBenchSummary([1, 2], summarizeBenchRuns(runs)).split("\n")).toEqual([
      "| shape | strategy | ÷ BFS (seeds 1 / 2) | mean | ÷ paper's BFS (seeds 1 / 2) | mean |",
      "|---|---|---|---|---|---|",
      "| ministry-portal | sb | 0.40 / 0.50 | 0.45 | 0.30 / 0.45 | 0.38 |",
      "| ministry-portal | bfs | 1.00 / 1.00 | 1.00 | 0.80 / 0.90 | 0.85 |",
    ]);
  });
});
