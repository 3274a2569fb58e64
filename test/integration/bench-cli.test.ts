/**
 * `forage bench` end to end on a tiny site: a site process, one crawl process per strategy, the
 * Markdown table on stdout. Its numbers are the benchmark's business (docs/BENCHMARKS.md); this
 * checks the table is complete and consistent with the site's ground truth.
 */
import { describe, expect, it } from "vitest";
import { DATA_FILES_MIME_TYPES } from "../../lib/crawler/defaults";
import { buildSite, requestsToFraction } from "../../lib/sitesim";
import { runForageCli } from "../helpers/forage-cli";
import { runForageInProcess } from "../helpers/forage-cli-in-process";
import { freePort } from "../helpers/ports";

const forage = (args: string[]) => runForageCli(args);
/** The refusals below are decided from the arguments alone: `main` in this process, no child's start-up. */
const forageHere = (args: string[]) => runForageInProcess(args);

describe("forage bench", () => {
  it("prints one row per strategy (sb-paper included), OMNISCIENT and the site's reference BFS", async () => {
    const truth = buildSite({ shape: "open-data-portal", seed: 2, size: "tiny" }).groundTruth();
    const portBase = await freePort(); // one shape: its site listens on the base port
    const run = await forage(["bench", "--shapes", "open-data-portal", "--size", "tiny", "--seed", "2", "--strategies", "sb,sb-paper", "--port-base", String(portBase)]);
    expect(run.stderr).toContain("open-data-portal");
    expect(run.code).toBe(0);
    const rows = run.stdout.split("\n").filter((line) => line.startsWith("| open-data-portal |")).map((line) => line.split("|").map((cell) => cell.trim()));
    const byStrategy = new Map(rows.map((cells) => [cells[2], cells]));
    expect([...byStrategy.keys()]).toEqual(["sb", "sb-paper", "bfs", "omniscient", "bfs (site reference)"]);
    const total = truth.targets.length;
    for (const name of ["sb", "sb-paper", "bfs"]) {
      const cells = byStrategy.get(name)!;
      expect(cells[3], name).toBe(`${total}/${total}`); // a finite site: every crawl finds them all
      expect(Number(cells[5]), name).toBeGreaterThanOrEqual(Math.ceil(0.9 * total)); // at least one request per target
      expect(cells[7], name).toBe((Number(cells[5]) / truth.bfsRequestsTo90!).toFixed(2)); // ÷ the paper's (FIFO) BFS
    }
    expect(byStrategy.get("bfs")![6]).toBe("1.00");
    expect(byStrategy.get("omniscient")![5]).toBe(String(Math.ceil(0.9 * total)));
    expect(byStrategy.get("bfs (site reference)")![5]).toBe(String(truth.bfsRequestsTo90));
    expect(byStrategy.get("bfs (site reference)")![7]).toBe("1.00");
  });

  it("with --seeds prints one table per seed, then each strategy's ratios per seed and their mean", async () => {
    const portBase = await freePort(); // one shape: its site listens on the base port
    const run = await forage(["bench", "--shapes", "ministry-portal", "--size", "tiny", "--seeds", "1,2", "--strategies", "sb", "--port-base", String(portBase)]);
    expect(run.code).toBe(0);
    const [seed1, seed2, means] = run.stdout.split(/^(?:Seed \d+|Means over seeds 1, 2).*$/m).slice(1);
    const cellsOf = (table: string | undefined, strategy: string) =>
      table!.split("\n").filter((line) => line.startsWith(`| ministry-portal | ${strategy} |`)).map((line) => line.split("|").map((cell) => cell.trim()))[0]!;
    const sb = cellsOf(means, "sb");
    const perSeed = [cellsOf(seed1, "sb"), cellsOf(seed2, "sb")];
    expect(sb[3]).toBe(`${perSeed[0]![6]} / ${perSeed[1]![6]}`); // ÷ BFS per seed
    expect(sb[5]).toBe(`${perSeed[0]![7]} / ${perSeed[1]![7]}`); // ÷ the paper's BFS per seed
    const mean = (a: string, b: string) => Number(a) / 2 + Number(b) / 2;
    expect(Math.abs(Number(sb[4]) - mean(perSeed[0]![6]!, perSeed[1]![6]!))).toBeLessThanOrEqual(0.01); // mean of the rounded cells, within rounding
    expect(Math.abs(Number(sb[6]) - mean(perSeed[0]![7]!, perSeed[1]![7]!))).toBeLessThanOrEqual(0.01);
    expect(cellsOf(means, "bfs")[4]).toBe("1.00");
    expect(means).not.toContain("site reference");
  });

  it("with --target-mime counts only files of those types, for the crawls, the paper's BFS and OMNISCIENT", async () => {
    const truth = buildSite({ shape: "open-data-portal", seed: 2, size: "tiny" }).groundTruth();
    const dataFiles = truth.targets.filter((target) => DATA_FILES_MIME_TYPES.includes(target.mime));
    expect(dataFiles.length).toBeGreaterThan(10);
    expect(dataFiles.length).toBeLessThan(truth.targets.length); // the site also holds PDFs
    const portBase = await freePort(); // one shape: its site listens on the base port
    const run = await forage(["bench", "--shapes", "open-data-portal", "--size", "tiny", "--seed", "2", "--strategies", "sb", "--target-mime", "data-files", "--port-base", String(portBase)]);
    expect(run.code).toBe(0);
    const rows = run.stdout.split("\n").filter((line) => line.startsWith("| open-data-portal |")).map((line) => line.split("|").map((cell) => cell.trim()));
    const byStrategy = new Map(rows.map((cells) => [cells[2], cells]));
    const total = dataFiles.length;
    const paperBfs90 = requestsToFraction(dataFiles, 0.9)!;
    for (const name of ["sb", "bfs"]) {
      const cells = byStrategy.get(name)!;
      expect(cells[3], name).toBe(`${total}/${total}`);
      expect(cells[7], name).toBe((Number(cells[5]) / paperBfs90).toFixed(2));
    }
    expect(byStrategy.get("omniscient")![5]).toBe(String(Math.ceil(0.9 * total)));
    expect(byStrategy.get("bfs (site reference)")![5]).toBe(String(paperBfs90));
  });

  it("refuses a malformed --target-mime with exit 2 and one line", async () => {
    const run = await forageHere(["bench", "--target-mime", "text/csv,spreadsheets"]);
    expect([run.code, run.stderr.trim()]).toEqual([2, 'forage bench: --target-mime "spreadsheets": must look like type/subtype, e.g. text/csv (or a preset: data-files, documents)']);
  });

  it("refuses --seed with --seeds, and an empty seed, with exit 2 and one line", async () => {
    const both = await forageHere(["bench", "--seed", "1", "--seeds", "1,2"]);
    expect([both.code, both.stderr.trim()]).toEqual([2, "forage bench: give --seed or --seeds, not both"]);
    const empty = await forageHere(["bench", "--seeds", "1,,2"]);
    expect([empty.code, empty.stderr.trim()]).toEqual([2, "forage bench: --seeds needs a comma-separated list of integers, e.g. 1,2,3"]);
  });

  it("refuses an unknown strategy with exit 2 and one line", async () => {
    const run = await forageHere(["bench", "--strategies", "sb,magic"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('forage bench: --strategies: unknown strategy "magic"');
  });
});
