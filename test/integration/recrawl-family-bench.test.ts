/**
 * The re-crawl family bench on one small seed (6: a few hundred URLs, a new section each month):
 * the three runs happen, and every figure is consistent with the evolution's truth and with the
 * others (recall, shares of the first crawl, the aim, run 3 against run 2, the change report).
 * The figures themselves are the engine's business.
 */
import { describe, expect, it } from "vitest";
import { AIM_RECALL, AIM_REQUEST_SHARE, requestsToFind, runRecrawlFamilyBench, type RecrawlRun } from "../../lib/bench/recrawl-family-bench";
import { formatRecrawlFamilySeeds, formatRecrawlFamilySummary, summarizeRecrawlFamily } from "../../lib/bench/recrawl-family-summary";
import { FamilyEvolution } from "../../lib/sitesim";
import { runForageCli } from "../helpers/forage-cli";
import { runForageInProcess } from "../helpers/forage-cli-in-process";
import { freePortRange } from "../helpers/ports";

const SEED = 6;
const BUDGET = 500;

describe("forage bench --recrawl --family", () => {
  it("crawls version 1, re-crawls versions 2 and 3 after it, and reports figures consistent with the truth", async () => {
    const portBase = await freePortRange(SEED + 1);
    const lines: string[] = [];
    const rows = await runRecrawlFamilyBench({ seeds: [SEED], budget: BUDGET, portBase, log: (line) => lines.push(line) });
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    const evolution = new FamilyEvolution(SEED);
    expect([row.seed, row.split, row.marksChanges, row.placement, row.budget]).toEqual([SEED, "validation", evolution.marksChanges, evolution.evolution.placement, BUDGET]);
    expect(row.firstTargets).toBe(evolution.files(1).size);
    expect(row.firstFound).toBeLessThanOrEqual(row.firstTargets);
    expect(row.firstRequests).toBeGreaterThan(0);
    expect(row.firstRequests).toBeLessThanOrEqual(BUDGET);

    const check = (run: RecrawlRun, from: number, to: number) => {
      const truth = evolution.changes(from, to);
      expect(run.version).toBe(to);
      expect(run.newTotal).toBe(truth.new.length);
      expect(run.truth).toEqual({ new: truth.new.length, changed: truth.changed.length, unchanged: truth.unchanged.length, gone: truth.gone.length });
      expect(run.newFound).toBe(run.newFileSeqs.length);
      expect(run.newOnOldItemsTotal).toBe(truth.newOnOldItems.length);
      expect(run.newOnOldItemsFound).toBeLessThanOrEqual(Math.min(run.newOnOldItemsTotal, run.newFound));
      expect(run.newFound).toBeGreaterThan(0);
      expect(run.newFound).toBeLessThanOrEqual(run.newTotal);
      expect(run.recall).toBeCloseTo(run.newFound / run.newTotal, 12);
      expect(run.shareOfFirst).toBeCloseTo(run.requests / row.firstRequests, 12);
      expect([...run.newFileSeqs].sort((a, b) => a - b)).toEqual(run.newFileSeqs);
      expect(Math.max(...run.newFileSeqs)).toBeLessThanOrEqual(run.requests);
      expect(run.newFoundWithinAim).toBe(run.newFileSeqs.filter((seq) => seq <= AIM_REQUEST_SHARE * row.firstRequests).length);
      expect(run.aimMet).toBe(run.newFoundWithinAim >= AIM_RECALL * run.newTotal);
      // A file new in this version was in no earlier run, so the run's change report counts it as new.
      expect(run.reported).not.toBeNull();
      expect(run.reported!.new).toBeGreaterThanOrEqual(run.newFound);
    };
    check(row.v2, 1, 2);
    check(row.v3, 2, 3);
    expect(row.sameRecall).toBe(Math.min(row.v2.recall, row.v3.recall));
    expect(row.run2ToSameRecall).toBeCloseTo(requestsToFind(row.v2.newFileSeqs, Math.ceil(row.sameRecall * row.v2.newTotal - 1e-9)) / row.firstRequests, 12);
    expect(row.run3ToSameRecall).toBeCloseTo(requestsToFind(row.v3.newFileSeqs, Math.ceil(row.sameRecall * row.v3.newTotal - 1e-9)) / row.firstRequests, 12);
    // Both runs found new files (checked above), so the two runs are compared.
    expect(row.run3NoMoreThanRun2).toBe(row.run3ToSameRecall <= row.run2ToSameRecall);
    expect(lines.filter((line) => line.startsWith(`seed ${SEED}: version`))).toHaveLength(3);

    // The tables: one seed, so median, p90 and worst are that seed's figures.
    const percent = (share: number) => `${(100 * share).toFixed(1)} %`;
    expect(formatRecrawlFamilySeeds(rows)).toContain(`| ${SEED} | ${row.marksChanges ? "yes" : "no"} | ${row.placement} | ${row.firstRequests}, ${row.firstFound} / ${row.firstTargets} | ${row.v2.newFound} / ${row.v2.newTotal} (${percent(row.v2.recall)}) |`);
    const summary = summarizeRecrawlFamily(rows);
    const marking = row.marksChanges ? "marks changes" : "no marker";
    const placement = { first: "new items first", last: "new items appended", "new-section": "new items in a new section" }[row.placement];
    expect(summary.map((s) => `${s.sites} ${s.run}`)).toEqual([`${marking} v2`, `${marking} v3`, `${placement} v2`, `${placement} v3`, "all v2", "all v3"]);
    const allV3 = summary.find((s) => s.sites === "all" && s.run === "v3")!;
    expect(allV3.recall).toEqual({ median: row.v3.recall, p90: row.v3.recall, worst: row.v3.recall });
    expect(allV3.shareOfFirst).toEqual({ median: row.v3.shareOfFirst, p90: row.v3.shareOfFirst, worst: row.v3.shareOfFirst });
    expect(allV3.aimMet).toBe(row.v3.aimMet ? 1 : 0);
    expect([allV3.run3NoMoreThanRun2, allV3.compared]).toEqual([row.run3NoMoreThanRun2 ? 1 : 0, 1]);
    expect(formatRecrawlFamilySummary(summary)).toContain(`| all | v3 | 1 | ${percent(row.v3.recall)} | ${percent(row.v3.recall)} | ${percent(row.v3.recall)} |`);
  }, 60_000);

  // Decided from the arguments alone: the CLI's `main` in this process, no child start-up.
  it("refuses seeds that do not evolve and an empty split with a one-line usage error", async () => {
    const applications = await runForageInProcess(["bench", "--recrawl", "--family", "2", "--from", "10000"]);
    expect(applications.code).toBe(2);
    expect(applications.stderr).toContain("--from 10000 --family 2 reaches seed 10001: only seeds below 10001 (the family's own sites) evolve");
    const noSeed = await runForageInProcess(["bench", "--recrawl", "--family", "1", "--from", "3"]);
    expect(noSeed.code).toBe(2);
    expect(noSeed.stderr).toContain("no validation seed among seed 3");
  });
});
