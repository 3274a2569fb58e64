import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVIDENCE_SUFFIX, revisitClassKey } from "../../lib/crawler/engine/change-history";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { readLearnedState } from "../../lib/store/recrawl-store";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/**
 * A re-crawl's revisits compete with its fresh links (recrawl.ts `revisitBefore`): a page of a
 * class that changed in the previous run is revisited while fresh links found before it still
 * wait, not only once the fresh frontier is empty. Three runs of an evolving catalogue that marks
 * nothing and adds files to old publications, so the third run knows which classes changed in the
 * second.
 */
let t: TestDatabase;
let site: RunningEvolvingSite;

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startEvolvingSite({ items: 160, seed: 4, marksUpdates: false, addsToOldUnmarked: 0.05 });
});

afterAll(async () => {
  await site?.close();
  await t?.dispose();
});

async function crawl(settings: Record<string, unknown>): Promise<number> {
  const { id } = await createCrawl(t.db, { rootUrl: site.rootUrl, budget: { requests: 4000 }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 7, ...settings }, { asLocalAdmin: true });
  expect(await runStoredCrawl({ db: t.db, forage: t.config, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal })).toMatchObject({ kind: "stopped" });
  return id;
}

describe("re-crawl revisits against fresh links", () => {
  it("revisits a class that changed in the previous run before the fresh links already found are all crawled", async () => {
    site.version = 1;
    const first = await crawl({});
    site.version = 2;
    const second = await crawl({ after: first });
    site.version = 3;
    const third = await crawl({ after: second });

    const learned = (await readLearnedState(t.config.dataDir, second))!;
    const changedLastRun = new Set(learned.changeHistory!.classes.filter((record) => record.lastChangedRun === 2 && !record.key.endsWith(EVIDENCE_SUFFIX)).map((record) => record.key));
    expect(changedLastRun.size).toBeGreaterThan(0);
    const seenBefore = new Set(learned.seenBefore);
    // Pages the learned state puts in the fresh frontier from the start are not set-aside revisits.
    const revisitFirst = new Set(learned.revisit.map((page) => page.url));
    const pages = await t.db.crawlRequest.findMany({ where: { crawlId: third, kind: "page", seq: { gt: 0 } }, orderBy: { seq: "asc" }, select: { seq: true, url: true, tagPath: true, referrer: true } });
    const firstSeqOf = new Map<string, number>();
    for (const page of pages) if (!firstSeqOf.has(page.url)) firstSeqOf.set(page.url, page.seq);

    const owedRevisits = pages.filter((page) => seenBefore.has(page.url) && !revisitFirst.has(page.url) && changedLastRun.has(revisitClassKey(page.tagPath ?? "", page.url)));
    expect(owedRevisits.length).toBeGreaterThan(0);
    // A fresh page (no run saw it) whose referrer was crawled before the revisit and which itself was crawled after it: it waited in the frontier meanwhile.
    const fresh = pages.filter((page) => !seenBefore.has(page.url) && page.referrer !== null && firstSeqOf.has(page.referrer));
    const revisitAhead = owedRevisits.find((revisit) => fresh.some((page) => firstSeqOf.get(page.referrer!)! < revisit.seq && revisit.seq < page.seq));
    expect(revisitAhead, `an owed revisit among ${owedRevisits.length} while fresh links waited`).toBeDefined();
  }, 240_000);
});
