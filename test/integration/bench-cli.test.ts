/**
 * `forage bench` end to end on a tiny site: a site process, one crawl process per strategy, the
 * Markdown table on stdout. Its numbers are the benchmark's business (docs/BENCHMARKS.md); this
 * checks the table is complete and consistent with the site's ground truth.
 */
import { describe, expect, it } from "vitest";
import { buildSite } from "../../lib/sitesim";
import { runForageCli } from "../helpers/forage-cli";

const forage = (args: string[]) => runForageCli(args);

describe("forage bench", () => {
  it("prints one row per strategy (sb-paper included), OMNISCIENT and the site's reference BFS", async () => {
    const truth = buildSite({ shape: "open-data-portal", seed: 2, size: "tiny" }).groundTruth();
    const portBase = 41_000 + Math.floor(Math.random() * 20_000);
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

  it("refuses an unknown strategy with exit 2 and one line", async () => {
    const run = await forage(["bench", "--strategies", "sb,magic"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe('forage bench: --strategies: unknown strategy "magic"');
  });
});
