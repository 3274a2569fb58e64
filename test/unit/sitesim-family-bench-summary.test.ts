/** The family bench's arithmetic: seed split, nearest-rank distributions with misses, the table and the CSV. */
import { describe, expect, it } from "vitest";
import { seedsOfSplit, splitOf, type FamilySeedRow } from "../../lib/bench/family-bench";
import { distributionOf, familyRowsCsv, formatFamilyByRegime, formatFamilySummary, quantile, summarizeFamily } from "../../lib/bench/family-summary";

function row(seed: number, strategy: string, to90: number | null, bfsTo90: number, floorTo90: number): FamilySeedRow {
  return {
    seed, split: splitOf(seed), size: 1000, regime: "medium", strategy, targets: 50, found: to90 === null ? 30 : 50, requests: 900, to90, bfsTo90, floorTo90,
    ratioToBfs90: to90 === null ? null : to90 / bfsTo90, ratioToFloor90: to90 === null ? null : to90 / floorTo90, cpuMsPerRequest: 1.5, stopReason: "budget",
  };
}

describe("family bench summary", () => {
  it("odd seeds tune, even seeds validate", () => {
    expect([1, 2, 3, 4].map(splitOf)).toEqual(["tuning", "validation", "tuning", "validation"]);
    expect(seedsOfSplit([1, 2, 3, 4, 5], "validation")).toEqual([2, 4]);
    expect(seedsOfSplit([1, 2, 3, 4, 5], "tuning")).toEqual([1, 3, 5]);
    expect(seedsOfSplit([1, 2, 3], "all")).toEqual([1, 2, 3]);
  });

  it("nearest-rank quantiles; a crawl short of 90 % counts as worse than any ratio", () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 0.9)).toBe(10);
    expect(distributionOf([0.5, 0.2, 0.9, 0.3])).toEqual({ median: 0.3, p90: 0.9, worst: 0.9 });
    expect(distributionOf([0.5, null, 0.2, 0.9, 0.3])).toEqual({ median: 0.5, p90: Infinity, worst: Infinity });
    expect(distributionOf([])).toBeNull();
  });

  it("one row per strategy with its distributions against the BFS and the floor; misses print as such", () => {
    const rows = [row(2, "sb", 40, 100, 20), row(4, "sb", 90, 100, 30), row(6, "sb", null, 100, 25), row(2, "bfs", 100, 100, 20), row(4, "bfs", 100, 100, 30), row(6, "bfs", 80, 100, 25)];
    const summary = summarizeFamily(rows);
    expect(summary.map((s) => [s.strategy, s.seeds, s.reached])).toEqual([["sb", 3, 2], ["bfs", 3, 3]]);
    expect(summary[0]!.toBfs).toEqual({ median: 0.9, p90: Infinity, worst: Infinity }); // 0.4, 0.9, miss
    expect(summary[0]!.toFloor).toEqual({ median: 3, p90: Infinity, worst: Infinity }); // 2, 3, miss
    expect(summary[1]!.toFloor).toEqual({ median: 100 / 30, p90: 5, worst: 5 });
    const table = formatFamilySummary(summary).split("\n");
    expect(table[2]).toBe("| sb | 3 | 2 | 0.90 | miss | miss | 3.00 | miss | miss | 1.50 |");
    expect(table[3]).toBe("| bfs | 3 | 3 | 1.00 | 1.00 | 1.00 | 3.33 | 5.00 | 5.00 | 1.50 |");
  });

  it("medians by density regime, with each regime's seed count", () => {
    const rows = [row(2, "sb", 40, 100, 20), row(4, "sb", 90, 100, 30), { ...row(6, "sb", 30, 100, 25), regime: "needle" }];
    expect(formatFamilyByRegime(rows).split("\n")).toEqual(["| strategy | medium (2) | needle (1) |", "|---|---|---|", "| sb | 0.40 | 0.30 |"]);
  });

  it("the per-seed CSV has a header and leaves missing values empty", () => {
    const csv = familyRowsCsv([row(6, "sb", null, 100, 25)]).split("\n");
    expect(csv[0]).toBe("seed,split,size,regime,strategy,targets,found,requests,to90,bfsTo90,floorTo90,ratioToBfs90,ratioToFloor90,cpuMsPerRequest,stopReason");
    expect(csv[1]).toBe("6,validation,1000,medium,sb,50,30,900,,100,25,,,1.5,budget");
  });
});
