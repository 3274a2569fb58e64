/**
 * The re-crawl family bench's distributions: the worst end is the lowest recall and the highest
 * request share; seeds where a run found no new file are left out of the run 3 / run 2 comparison.
 */
import { describe, expect, it } from "vitest";
import type { RecrawlFamilySeedRow, RecrawlRun } from "../../lib/bench/recrawl-family-bench";
import { spreadOf, summarizeRecrawlFamily } from "../../lib/bench/recrawl-family-summary";

const run = (version: number, recall: number, shareOfFirst: number, aimMet: boolean): RecrawlRun => ({
  version, requests: Math.round(shareOfFirst * 1000), shareOfFirst, newTotal: 10, newFound: Math.round(recall * 10), recall, newOnOldItemsTotal: 2, newOnOldItemsFound: 1, newFoundWithinAim: 0, aimMet,
  newFileSeqs: [], reported: null, truth: { new: 10, changed: 0, unchanged: 0, gone: 0 }, stopReason: "site-exhausted",
});

const row = (seed: number, marksChanges: boolean, v2: RecrawlRun, v3: RecrawlRun, run3NoMoreThanRun2: boolean | null): RecrawlFamilySeedRow => ({
  seed, split: "validation", marksChanges, placement: "first", firstRequests: 1000, firstStopReason: "site-exhausted", firstTargets: 50, firstFound: 50, budget: 3000,
  v2, v3, sameRecall: Math.min(v2.recall, v3.recall), run2ToSameRecall: 0.1, run3ToSameRecall: 0.1, run3NoMoreThanRun2,
});

describe("re-crawl family summary", () => {
  it("spreads: the worst recall is the lowest, the worst request share the highest (nearest rank)", () => {
    expect(spreadOf([0.9, 0.5, 1, 0.7], true)).toEqual({ median: 0.9, p90: 0.5, worst: 0.5 });
    expect(spreadOf([0.3, 0.1, 0.2], false)).toEqual({ median: 0.2, p90: 0.3, worst: 0.3 });
    expect(spreadOf([], true)).toBeNull();
  });

  it("splits by marking and placement, counts the aim per run, and compares run 3 with run 2 only where both found new files", () => {
    const rows = [
      row(2, true, run(2, 1, 0.1, true), run(3, 0.9, 0.15, false), true),
      row(4, false, run(2, 0.5, 0.3, false), run(3, 0, 0.2, false), null),
      row(6, false, run(2, 0.8, 0.05, false), run(3, 0.95, 0.1, true), false),
    ];
    const summary = summarizeRecrawlFamily(rows);
    expect(summary.map((s) => `${s.sites} ${s.run} ${s.seeds}`)).toEqual([
      "marks changes v2 1", "marks changes v3 1", "no marker v2 2", "no marker v3 2", "new items first v2 3", "new items first v3 3", "all v2 3", "all v3 3",
    ]);
    const allV2 = summary.find((s) => s.sites === "all" && s.run === "v2")!;
    expect(allV2.recall).toEqual({ median: 0.8, p90: 0.5, worst: 0.5 });
    expect(allV2.shareOfFirst).toEqual({ median: 0.1, p90: 0.3, worst: 0.3 });
    expect(allV2.aimMet).toBeCloseTo(1 / 3, 12);
    expect(allV2.run3NoMoreThanRun2).toBeNull();
    const allV3 = summary.find((s) => s.sites === "all" && s.run === "v3")!;
    expect([allV3.run3NoMoreThanRun2, allV3.compared]).toEqual([0.5, 2]);
    const noMarkerV3 = summary.find((s) => s.sites === "no marker" && s.run === "v3")!;
    expect([noMarkerV3.run3NoMoreThanRun2, noMarkerV3.compared]).toEqual([0, 1]);
  });
});
