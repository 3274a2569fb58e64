import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { runTestCrawl } from "../helpers/crawl-fixtures";

/**
 * TRES over real HTTP on the statistics-office simulator, where structure matters: themes →
 * sub-themes → numbered publication lists → publications with downloads, beside a big news
 * section and an infinite release calendar that give nothing. A crawler that learns which links
 * lead to files (a few pages later) reaches 90 % of them in far fewer requests than one that
 * picks waiting links at random or level by level.
 */
let sim: RunningSite;
let goal: number;
beforeAll(async () => {
  sim = await startSiteServer(buildSite({ shape: "statistics-office", seed: 3, size: "small" }));
  goal = Math.ceil(0.9 * sim.site.groundTruth().targets.length);
});
afterAll(() => sim.close());

async function requestsToGoal(strategy: "tres" | "random" | "bfs", seed: number): Promise<number> {
  const run = await runTestCrawl({ rootUrl: sim.rootUrl, strategy, seed, budget: { requests: 4000 } }, { stopWhen: (counters) => counters.targets >= goal });
  expect(run.counters.targets, `${strategy} reaches 90 % of the targets within its budget`).toBeGreaterThanOrEqual(goal);
  return run.counters.requests;
}

describe("tres on a simulated site", () => {
  it("reaches 90 % of the targets with fewer requests than random and BFS", async () => {
    const tres = await requestsToGoal("tres", 5);
    const random = await requestsToGoal("random", 5);
    const bfs = await requestsToGoal("bfs", 5);
    console.log(`requests to 90 % of ${goal} targets: tres ${tres}, random ${random}, bfs ${bfs}`);
    expect(tres).toBeLessThan(0.75 * random);
    expect(tres).toBeLessThan(0.75 * bfs);
  }, 300_000);

  it("repeats its requests from the same seed", async () => {
    const first = await runTestCrawl({ rootUrl: sim.rootUrl, strategy: "tres", seed: 9, budget: { requests: 150 } });
    const second = await runTestCrawl({ rootUrl: sim.rootUrl, strategy: "tres", seed: 9, budget: { requests: 150 } });
    expect(first.sequence).toHaveLength(150);
    expect(second.sequence).toEqual(first.sequence);
  }, 120_000);
});
