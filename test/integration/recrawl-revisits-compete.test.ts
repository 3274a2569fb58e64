import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVIDENCE_SUFFIX, revisitClassKey } from "../../lib/crawler/engine/change-history";
import type { RecrawlBasis } from "../../lib/crawler/engine/recrawl-basis";
import type { RequestRow } from "../../lib/crawler/engine/types";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { SIM_TARGET_MIME_TYPES } from "../../lib/sitesim";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { loadRecrawlBasis } from "../../lib/store/recrawl-store";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { runTestCrawl } from "../helpers/crawl-fixtures";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/**
 * `revisitsCompete` (recrawl.ts `revisitBefore`): a re-crawl's revisits compete with its fresh
 * links, so a page of a class that changed in the previous run is revisited while fresh links
 * found before it still wait; without it, set-aside pages wait until the fresh frontier is empty.
 * Three versions of an evolving catalogue that marks nothing and adds files to old publications:
 * two stored runs, so the third knows which classes changed in the second; the third run is made
 * through the engine with and without the setting, from the same basis.
 */
let t: TestDatabase;
let site: RunningEvolvingSite;
let basis: RecrawlBasis;

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startEvolvingSite({ items: 160, seed: 4, marksUpdates: false, addsToOldUnmarked: 0.05 });
  const crawl = async (after: number | null) => {
    const { id } = await createCrawl(t.db, { rootUrl: site.rootUrl, budget: { requests: 4000 }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 7, targetMimeTypes: [...SIM_TARGET_MIME_TYPES], ...(after === null ? {} : { after }) }, { asLocalAdmin: true });
    expect(await runStoredCrawl({ db: t.db, forage: t.config, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal })).toMatchObject({ kind: "stopped" });
    return id;
  };
  site.version = 1;
  const first = await crawl(null);
  site.version = 2;
  const second = await crawl(first);
  basis = await loadRecrawlBasis(t.db, t.config.dataDir, second, false);
  site.version = 3;
}, 240_000);

afterAll(async () => {
  await site?.close();
  await t?.dispose();
});

/** Owed revisits (a set-aside page of a class that changed in the second run) made while a fresh page found before them still waited. */
function owedRevisitsAheadOfFreshLinks(requests: readonly RequestRow[]): number {
  const learned = basis.learned!;
  const changedLastRun = new Set(learned.changeHistory!.classes.filter((record) => record.lastChangedRun === 2 && !record.key.endsWith(EVIDENCE_SUFFIX)).map((record) => record.key));
  expect(changedLastRun.size).toBeGreaterThan(0);
  const seenBefore = new Set(learned.seenBefore);
  // Pages the learned state files in the fresh frontier from the start are not set-aside revisits.
  const revisitFirst = new Set(learned.revisit.map((page) => page.url));
  const pages = requests.filter((request) => request.kind === "page" && request.seq > 0);
  const firstSeqOf = new Map<string, number>();
  for (const page of pages) if (!firstSeqOf.has(page.url)) firstSeqOf.set(page.url, page.seq);
  const owed = pages.filter((page) => seenBefore.has(page.url) && !revisitFirst.has(page.url) && changedLastRun.has(revisitClassKey(page.tagPath ?? "", page.url)));
  expect(owed.length).toBeGreaterThan(0);
  const fresh = pages.filter((page) => !seenBefore.has(page.url) && page.referrer !== null && firstSeqOf.has(page.referrer));
  return owed.filter((revisit) => fresh.some((page) => firstSeqOf.get(page.referrer!)! < revisit.seq && revisit.seq < page.seq)).length;
}

describe("re-crawl revisits against fresh links", () => {
  it("with revisitsCompete, a class that changed last run is revisited before the fresh links already found are all crawled; without it, never", async () => {
    // Three crawl seeds: whether a given run meets an owed class before its fresh links are spent
    // depends on what its classifier learnt (the site's port is one of its features), so the
    // competing runs are judged together; a waiting run never revisits early, whatever its seed.
    let competingAhead = 0;
    for (const seed of [7, 8, 9]) {
      const input = { rootUrl: site.rootUrl, seed, budget: { requests: 4000 } };
      const competing = await runTestCrawl({ ...input, params: { revisitsCompete: true } }, { recrawl: basis });
      const waiting = await runTestCrawl(input, { recrawl: basis });
      competingAhead += owedRevisitsAheadOfFreshLinks(competing.sink.requests);
      expect(owedRevisitsAheadOfFreshLinks(waiting.sink.requests)).toBe(0);
    }
    expect(competingAhead).toBeGreaterThan(0);
  }, 240_000);
});
