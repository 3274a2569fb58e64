import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { runTestCrawl } from "../helpers/crawl-fixtures";

let sim: RunningSite;
beforeAll(async () => {
  sim = await startSiteServer(buildSite({ shape: "statistics-office", seed: 1, size: "tiny" }));
});
afterAll(() => sim.close());

/** Past the HEAD bootstrap, so the classifier and the strategy's random choices both matter. */
const BUDGET = { requests: 80 };

const sequenceOf = async (strategy: "sb" | "random", seed: number) =>
  (await runTestCrawl({ rootUrl: sim.rootUrl, strategy, seed, budget: BUDGET })).sequence;

describe("crawl determinism", () => {
  it.each(["sb", "random"] as const)("%s: the same seed on the same site makes the same requests in the same order", async (strategy) => {
    const first = await sequenceOf(strategy, 7);
    const second = await sequenceOf(strategy, 7);
    expect(first).toHaveLength(BUDGET.requests);
    expect(second).toEqual(first);
  });

  it("random: different seeds make different request sequences", async () => {
    const a = await sequenceOf("random", 1);
    const b = await sequenceOf("random", 2);
    expect(a).toHaveLength(BUDGET.requests);
    expect(b).toHaveLength(BUDGET.requests);
    expect(b).not.toEqual(a);
    // Both start at the root; they part ways once random choices begin.
    expect(a[0]).toBe(b[0]);
    const firstDifference = a.findIndex((request, i) => b[i] !== request);
    console.log(`random seeds 1 and 2 part ways at request ${firstDifference + 1}`);
    expect(firstDifference).toBeGreaterThan(0);
    expect(firstDifference).toBeLessThan(40);
  });
});
