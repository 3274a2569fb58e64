import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { createHarvest, getHarvest, startHarvestRun } from "../../lib/harvest";
import { loadCrawlConfig } from "../../lib/store/load-crawl-config";
import { getCrawl } from "../../lib/store/queries/get-crawl";
import { getEarlyStopWindows } from "../../lib/store/queries/get-early-stop-windows";
import { CrawlWorker } from "../../lib/worker/crawl-worker";
import { pollUntil } from "../helpers/poll-until";
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
    const { linkRankSamples, rewardScaledExploration, urlOutlookWeight, barrenDamping, regroupRediscoveredLinks, skipRedundantQueryVariants, ...olderParams } = stored.params;
    expect([linkRankSamples, rewardScaledExploration, urlOutlookWeight, barrenDamping, regroupRediscoveredLinks, skipRedundantQueryVariants]).toEqual([32, false, 3, true, false, true]); // today's defaults
    const id = await storeCrawl({ ...stored, params: { ...olderParams, banditAlpha: 1.5 } });
    const loaded = await loadCrawlConfig(t.db, id);
    expect(loaded.params).toMatchObject({ linkRankSamples: 1, rewardScaledExploration: false, urlOutlookWeight: 0, barrenDamping: false, regroupRediscoveredLinks: false, skipRedundantQueryVariants: false, banditAlpha: 1.5 });
  });

  it("keeps what a crawl stored, and today's defaults for a crawl stored without params", async () => {
    const id = await storeCrawl(parseCrawlConfig({ rootUrl: "https://new.example.org/", params: { urlOutlookWeight: 1.5 } }));
    expect((await loadCrawlConfig(t.db, id)).params).toMatchObject({ linkRankSamples: 32, rewardScaledExploration: false, urlOutlookWeight: 1.5, barrenDamping: true });
    const bare = await storeCrawl({ rootUrl: "https://bare.example.org/" });
    expect((await loadCrawlConfig(t.db, bare)).params).toMatchObject({ linkRankSamples: 32, rewardScaledExploration: false, urlOutlookWeight: 3, barrenDamping: true, regroupRediscoveredLinks: false, skipRedundantQueryVariants: true });
  });
});

describe("a crawl stored with a setting since renamed or retired", () => {
  async function storeOlderNames(): Promise<number> {
    const { barrenDamping: _today, ...params } = parseCrawlConfig({ rootUrl: "https://renamed.example.org/", seed: 3, params: { earlyStopWindowRequests: 200 } }).params;
    const stored = parseCrawlConfig({ rootUrl: "https://renamed.example.org/", seed: 3 });
    return storeCrawl({ ...stored, params: { ...params, dampBarrenExploration: false, discoveryCredit: 0.5 } });
  }

  it("is read under today's names by the worker's loader, the API and the early-stop panel", async () => {
    const id = await storeOlderNames();
    const loaded = await loadCrawlConfig(t.db, id);
    expect(loaded.params.barrenDamping).toBe(false);
    expect(loaded.params).not.toHaveProperty("discoveryCredit");
    const detail = (await getCrawl(t.db, id)).config as typeof loaded;
    expect(detail.params.barrenDamping).toBe(false);
    expect(detail.params).not.toHaveProperty("dampBarrenExploration");
    expect(detail.params).not.toHaveProperty("discoveryCredit");
    expect(await getEarlyStopWindows(t.db, id)).toMatchObject({ enabled: true, windowRequests: 200 });
  });

  it("runs, and a harvest made from it keeps its settings under today's names", async () => {
    const id = await storeOlderNames();
    await t.db.crawl.update({ where: { id }, data: { status: "finished" } });
    const harvest = await createHarvest(t.db, { fromCrawlId: id });
    const run = await startHarvestRun(t.db, harvest.id);
    const runConfig = await loadCrawlConfig(t.db, run.crawlId);
    expect(runConfig.params).toMatchObject({ barrenDamping: false, earlyStopWindowRequests: 200 });
    // A definition stored before the rename still starts runs.
    await t.db.harvest.update({ where: { id: harvest.id }, data: { config: JSON.stringify({ rootUrl: "https://renamed.example.org/", params: { dampBarrenExploration: false, discoveryCredit: 1 } }) } });
    expect((await getHarvest(t.db, harvest.id)).config.params).toEqual({ barrenDamping: false });
    await t.db.crawl.update({ where: { id: run.crawlId }, data: { status: "finished", finishedAt: new Date() } });
    const next = await startHarvestRun(t.db, harvest.id);
    expect((await loadCrawlConfig(t.db, next.crawlId)).params.barrenDamping).toBe(false);
  });
});

describe("a crawl stored with a URL pattern today's rules refuse", () => {
  it("is failed by the worker with the field and the reason, not claimed again and again", async () => {
    // Lookaheads ran on V8 before patterns moved to the linear-time engine.
    const stored = parseCrawlConfig({ rootUrl: "https://old.example.org/", seed: 3 });
    const id = await storeCrawl({ ...stored, blocklist: { ...stored.blocklist, urlPatterns: ["*/ok/*", "re:/a(?=b)"] } });
    const worker = new CrawlWorker(t.db, t.config, { pollMs: 50, controlPollMs: 50, leaseMs: 4_000 });
    await worker.start();
    try {
      const row = await pollUntil("failed", () => t.db.crawl.findUniqueOrThrow({ where: { id } }), (crawl) => crawl.status === "failed", { timeoutMs: 20_000, pollMs: 50 });
      expect(row).toMatchObject({ stopReason: "failed", workerId: null, leaseExpiresAt: null });
      expect(row.stopDetail).toBe(
        "settings no longer accepted: blocklist.urlPatterns.1 uses a lookahead (?=…), which Forage's linear-time pattern engine cannot run; match the text itself instead",
      );
      const events = await t.db.crawlEvent.findMany({ where: { crawlId: id, kind: "failed" } });
      expect(events.map((event) => event.message)).toEqual([`Crawl failed: ${row.stopDetail}`]);
    } finally {
      await worker.stop();
    }
  });
});

