import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeState, encodeState } from "../../lib/crawler/engine/engine-state";
import { EVIDENCE_SUFFIX } from "../../lib/crawler/engine/change-history";
import type { LearnedState } from "../../lib/crawler/engine/recrawl-basis";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { getCrawl } from "../../lib/store/queries/get-crawl";
import { getCrawlChanges } from "../../lib/store/queries/get-crawl-changes";
import { readLearnedState, recrawlKey } from "../../lib/store/recrawl-store";
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

  let first: { id: number; requests: number };
  let second: { id: number; requests: number };

  it("a re-crawl finds the files added to old publications by revisiting the class where change happens", async () => {
    site.version = 1;
    first = await crawl({});
    site.version = 2;
    second = await crawl({ after: first.id });
    const recall = await recallOfNew(second.id, 1, 2);
    // Before change rates were learnt this re-crawl stopped at 74.6 % of the new files (18.4 % of the
    // first crawl's requests). On this site a file is added to 7 % of the old publications, at
    // random: finding 95 % of the new files takes revisiting most of them, a third of the first
    // crawl's requests, so the aim of 20 % cannot be met here (the report says so).
    expect(recall).toBeGreaterThanOrEqual(0.95);
    expect(second.requests / first.requests).toBeLessThan(0.6);
    const learned = await readLearnedState(t.config.dataDir, second.id);
    const publications = learned!.changeHistory!.classes.find((record) => record.key.startsWith("/publication /html/body/main/ol.results/li.result/h2/a") && !record.key.endsWith(EVIDENCE_SUFFIX));
    expect(publications!.visits).toBeGreaterThan(100);
    expect(publications!.changes).toBeGreaterThan(5);
    // News articles never change: given up once enough of them said so.
    const news = learned!.changeHistory!.classes.find((record) => record.key.startsWith("/news "));
    expect(news?.changes).toBe(0);
  });

  it("with 'Check known files' the change report equals the truth; without it, it says what was not checked", async () => {
    const checked = await crawl({ after: first.id, checkKnownFiles: true });
    const truth = site.catalogue.changes(1, 2);
    const report = await getCrawlChanges(t.db, t.config.dataDir, checked.id, { limit: 0, offset: 0 });
    expect(report?.counts).toEqual({ new: truth.new.length, changed: truth.changed.length, unchanged: truth.unchanged.length, gone: truth.gone.length });
    expect(report?.unchecked).toEqual({ linked: 0, unlinked: 0 });
    const unverified = await getCrawlChanges(t.db, t.config.dataDir, second.id, { limit: 0, offset: 0 });
    const { linked, unlinked } = unverified!.unchecked!;
    // Every known file is either left unverified or was found changed, unchanged or gone by a request.
    expect(linked + unlinked).toBeGreaterThan(truth.unchanged.length / 2);
    expect(linked).toBeLessThanOrEqual(unverified!.counts.unchanged);
    expect(unverified!.counts.changed + unverified!.counts.gone).toBe(0);
  });

  it("a third run, knowing the history of two, needs no more requests than without it for the same recall", async () => {
    site.version = 3;
    const third = await crawl({ after: second.id });
    // The same third run with the history stripped from the second run's learned state (its pages' fingerprints kept).
    const learnedFile = path.join(t.config.dataDir, recrawlKey(second.id, "learned"));
    const learned = decodeState(fs.readFileSync(learnedFile)) as LearnedState;
    fs.writeFileSync(learnedFile, encodeState({ ...learned, changeHistory: undefined }));
    const blind = await crawl({ after: second.id });
    fs.writeFileSync(learnedFile, encodeState(learned));
    const recall = await recallOfNew(third.id, 2, 3);
    expect(recall).toBeGreaterThanOrEqual(await recallOfNew(blind.id, 2, 3));
    expect(recall).toBeGreaterThanOrEqual(0.95);
    expect(third.requests).toBeLessThan(blind.requests);
    console.log(`first ${first.requests}; second ${second.requests}; third ${third.requests} (recall ${(100 * recall).toFixed(1)} %), third without history ${blind.requests}`);
  });
});
