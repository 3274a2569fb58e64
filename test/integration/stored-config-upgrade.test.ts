import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { loadCrawlConfig } from "../../lib/store/load-crawl-config";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => t.dispose());

async function storeCrawl(config: object): Promise<number> {
  const crawl = await t.db.crawl.create({ data: { rootUrl: "https://old.example.org/", config: JSON.stringify(config), strategy: "sb", seed: 3 } });
  return crawl.id;
}

describe("a crawl stored before a setting existed", () => {
  it("is read back with the value it ran with, not the newer default", async () => {
    // What a first-session crawl stored: every param of its day, none of the six added since.
    const stored = parseCrawlConfig({ rootUrl: "https://old.example.org/", seed: 3 });
    const { linkRankSamples, rewardScaledExploration, urlOutlookWeight, dampBarrenExploration, regroupRediscoveredLinks, skipRedundantQueryVariants, ...olderParams } = stored.params;
    expect([linkRankSamples, rewardScaledExploration, urlOutlookWeight, dampBarrenExploration, regroupRediscoveredLinks, skipRedundantQueryVariants]).toEqual([32, true, 3, true, true, true]); // today's defaults
    const id = await storeCrawl({ ...stored, params: { ...olderParams, banditAlpha: 1.5 } });
    const loaded = await loadCrawlConfig(t.db, id);
    expect(loaded.params).toMatchObject({ linkRankSamples: 1, rewardScaledExploration: false, urlOutlookWeight: 0, dampBarrenExploration: false, regroupRediscoveredLinks: false, skipRedundantQueryVariants: false, banditAlpha: 1.5 });
  });

  it("keeps what a crawl stored, and today's defaults for a crawl stored without params", async () => {
    const id = await storeCrawl(parseCrawlConfig({ rootUrl: "https://new.example.org/", params: { urlOutlookWeight: 1.5 } }));
    expect((await loadCrawlConfig(t.db, id)).params).toMatchObject({ linkRankSamples: 32, rewardScaledExploration: true, urlOutlookWeight: 1.5, dampBarrenExploration: true });
    const bare = await storeCrawl({ rootUrl: "https://bare.example.org/" });
    expect((await loadCrawlConfig(t.db, bare)).params).toMatchObject({ linkRankSamples: 32, rewardScaledExploration: true, urlOutlookWeight: 3, dampBarrenExploration: true, regroupRediscoveredLinks: true, skipRedundantQueryVariants: true });
  });
});
