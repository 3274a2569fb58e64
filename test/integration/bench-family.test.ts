/**
 * `forage bench --family` end to end on the smallest run: seed 2 (the only validation seed of
 * 1..2), one strategy, a site process and a crawl process. Checks the table and the per-seed JSON
 * agree with the site's ground truth and floor; the numbers themselves are the bench's business.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildSite, computeSiteFloor, familySiteSize } from "../../lib/sitesim";
import type { FamilySeedRow } from "../../lib/bench/family-bench";
import { runForageCli } from "../helpers/forage-cli";
import { runForageInProcess } from "../helpers/forage-cli-in-process";
import { freePortRange } from "../helpers/ports";

describe("forage bench --family", () => {
  it("crawls the validation seeds and prints each strategy's distribution, the BFS reference and the floor; --json keeps the per-seed rows", async () => {
    const site = buildSite({ shape: "family", seed: 2, size: familySiteSize(2) });
    const truth = site.groundTruth();
    const floor = computeSiteFloor(site);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-family-"));
    const json = path.join(dir, "family.json");
    const portBase = await freePortRange(3); // seed s's site listens on port-base + s
    try {
      const run = await runForageCli(["bench", "--family", "2", "--strategies", "bfs", "--json", json, "--port-base", String(portBase)]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("Site family, validation seeds (1 of seeds 1, 2)");
      const [summaryTable, regimeTable] = run.stdout.split("Median ÷ BFS by density regime");
      const cells = new Map(
        summaryTable!.split("\n").filter((line) => /^\| (bfs|floor)/.test(line)).map((line) => {
          const row = line.split("|").map((cell) => cell.trim());
          return [row[1]!, row] as const;
        }),
      );
      expect([...cells.keys()]).toEqual(["bfs", "bfs (site reference)", "floor"]);
      const out = JSON.parse(fs.readFileSync(json, "utf8")) as { seeds: number[]; split: string; rows: FamilySeedRow[] };
      expect(out.seeds).toEqual([2]);
      expect(out.split).toBe("validation");
      const [crawl, reference, floorRow] = out.rows;
      expect(out.rows.map((row) => row.strategy)).toEqual(["bfs", "bfs (site reference)", "floor"]);
      for (const row of out.rows) expect([row.seed, row.split, row.targets, row.bfsTo90, row.floorTo90]).toEqual([2, "validation", truth.targets.length, truth.bfsRequestsTo90, floor.to90]);
      expect(reference!.to90).toBe(truth.bfsRequestsTo90);
      expect(floorRow!.to90).toBe(floor.to90);
      // A finite site and a 1.3 × BFS budget: the engine's BFS gets there, one request per target at least.
      expect(crawl!.to90).toBeGreaterThanOrEqual(Math.ceil(0.9 * truth.targets.length));
      expect(crawl!.ratioToBfs90).toBeCloseTo(crawl!.to90! / truth.bfsRequestsTo90!, 10);
      expect(crawl!.ratioToFloor90).toBeCloseTo(crawl!.to90! / floor.to90!, 10);
      // One seed: median, p90 and worst are that seed's ratio.
      const r = crawl!.ratioToBfs90!.toFixed(2);
      const f = crawl!.ratioToFloor90!.toFixed(2);
      expect(cells.get("bfs")!.slice(2, 10)).toEqual(["1", "1", r, r, r, f, f, f]);
      const floorRatio = (floor.to90! / truth.bfsRequestsTo90!).toFixed(2);
      expect(cells.get("floor")!.slice(4, 10)).toEqual([floorRatio, floorRatio, floorRatio, "1.00", "1.00", "1.00"]);
      expect(cells.get("bfs (site reference)")!.slice(4, 7)).toEqual(["1.00", "1.00", "1.00"]);
      expect(regimeTable).toContain(`| ${crawl!.regime} (1) |`);
      expect(regimeTable).toContain(`| bfs | ${r} |`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  // Decided from the arguments alone: the CLI's `main` in this process, no child start-up.
  it("refuses a bad split, an empty split and a bad seed range with exit 2 and one line", async () => {
    const split = await runForageInProcess(["bench", "--family", "4", "--split", "train"]);
    expect([split.code, split.stderr.trim()]).toEqual([2, 'forage bench: --split must be one of validation, tuning, all, got "train"']);
    const none = await runForageInProcess(["bench", "--family", "1"]);
    expect([none.code, none.stderr.trim()]).toEqual([2, "forage bench: no validation seed among seed 1 (odd seeds tune, even seeds validate)"]);
    const seeds = await runForageInProcess(["bench", "--family-seeds", "5..2"]);
    expect([seeds.code, seeds.stderr.trim()]).toEqual([2, 'forage bench: --family-seeds must be a..b with 1 ≤ a ≤ b (at most 20000 seeds), got "5..2"']);
    const both = await runForageInProcess(["bench", "--family", "4", "--family-seeds", "1..4"]);
    expect([both.code, both.stderr.trim()]).toEqual([2, "forage bench: give --family or --family-seeds, not both"]);
  });
});
