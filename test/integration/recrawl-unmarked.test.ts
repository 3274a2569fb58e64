import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { getCrawl } from "../../lib/store/queries/get-crawl";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/**
 * Re-crawls of an evolving catalogue that does not say what changed: no dates in its listings,
 * updated publications left where they were, and files added to old publications without any
 * sign. Recall of the files new in a version, and requests as a share of the first crawl's.
 */
let t: TestDatabase;
let site: RunningEvolvingSite;

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startEvolvingSite({ items: 240, seed: 3, marksUpdates: false, addsToOldUnmarked: 0.02 });
});

afterAll(async () => {
  await site?.close();
  await t?.dispose();
});

async function crawl(settings: Record<string, unknown>): Promise<{ id: number; requests: number }> {
  const { id } = await createCrawl(t.db, { rootUrl: site.rootUrl, budget: { requests: 5000 }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 5, ...settings }, { asLocalAdmin: true });
  expect(await runStoredCrawl({ db: t.db, forage: t.config, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal })).toMatchObject({ kind: "stopped" });
  return { id, requests: (await getCrawl(t.db, id)).counters.requests };
}

/** Share of the files new in `to` (against `from`) that a crawl stored. */
async function recallOfNew(crawlId: number, from: number, to: number): Promise<number> {
  const expected = site.catalogue.changes(from, to).new;
  const targets = await t.db.target.findMany({ where: { crawlId }, select: { url: true } });
  const found = new Set(targets.map((target) => new URL(target.url).pathname));
  return expected.filter((url) => found.has(url)).length / expected.length;
}

describe("re-crawls of a catalogue that does not mark its updates", () => {
  it("the site marks nothing: no dates in entries, files added to old publications", () => {
    const { catalogue } = site;
    const v1 = catalogue.items(1);
    const addedToOld = catalogue.changes(1, 2).new.filter((url) => v1.has(Number(/\/files\/(\d+)\//.exec(url)![1])));
    expect(addedToOld.length).toBeGreaterThan(5);
    const listing = catalogue.route(2, "/section/population", new URLSearchParams());
    expect(listing?.kind === "page" && listing.html).not.toMatch(/updated/);
  });

  it("measures a re-crawl's recall of the new files and its share of the first crawl's requests", async () => {
    site.version = 1;
    const first = await crawl({});
    site.version = 2;
    const second = await crawl({ after: first.id });
    const recall = await recallOfNew(second.id, 1, 2);
    // Hints only (listed after a new link): the added files of old publications are mostly missed.
    expect(recall).toBeGreaterThan(0.5);
    expect(second.requests / first.requests).toBeLessThan(0.3);
  });
});
