import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeState, encodeState } from "../../lib/crawler/engine/engine-state";
import type { LearnedState } from "../../lib/crawler/engine/recrawl-basis";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { getCrawl } from "../../lib/store/queries/get-crawl";
import { recrawlKey } from "../../lib/store/recrawl-store";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let site: RunningEvolvingSite;

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startEvolvingSite({ items: 240, seed: 3 });
});

afterAll(async () => {
  await site?.close();
  await t?.dispose();
});

async function crawl(settings: Record<string, unknown>): Promise<number> {
  const { id } = await createCrawl(t.db, { rootUrl: site.rootUrl, budget: { requests: 5000 }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 5, ...settings }, { asLocalAdmin: true });
  expect(await runStoredCrawl({ db: t.db, forage: t.config, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal })).toMatchObject({ kind: "stopped" });
  return id;
}

async function collected(crawlId: number): Promise<Set<string>> {
  const targets = await t.db.target.findMany({ where: { crawlId }, select: { url: true } });
  return new Set(targets.map((target) => new URL(target.url).pathname));
}

/** The files version 2 added to old publications listed on a listing page that shows no new publication. */
function addedPastTheNew(): string[] {
  const { catalogue } = site;
  const v1 = catalogue.items(1);
  const files: string[] = [];
  for (let section = 0; section < 3; section++) {
    const listing = catalogue.listing(2, section);
    for (let start = 0; start < listing.length; start += catalogue.pageSize) {
      const page = listing.slice(start, start + catalogue.pageSize);
      if (page.some((item) => !v1.has(item.id))) continue;
      for (const item of page) {
        const before = new Set(v1.get(item.id)!.files.map((file) => file.url));
        files.push(...item.files.filter((file) => !before.has(file.url)).map((file) => file.url));
      }
    }
  }
  return files.sort();
}

describe("a re-crawl revisits first the known pages whose listing entry changed", () => {
  let first = 0;

  it("finds the files added to old publications listed past the new ones, which it misses without the previous run's entries", async () => {
    site.version = 1;
    first = await crawl({});
    const firstRequests = (await getCrawl(t.db, first)).counters.requests;
    site.version = 2;
    const truth = site.catalogue.changes(1, 2);
    const pastTheNew = addedPastTheNew();
    expect(pastTheNew.length).toBeGreaterThanOrEqual(5); // the case this mechanism is for exists on this site

    const again = await crawl({ after: first });
    const found = await collected(again);
    expect(truth.new.filter((url) => !found.has(url))).toEqual([]);
    const againRequests = (await getCrawl(t.db, again)).counters.requests;
    expect(againRequests).toBeLessThan(firstRequests * 0.3);

    // The same re-crawl after the same first crawl, its learned state stripped of the listing entries.
    const learnedFile = path.join(t.config.dataDir, recrawlKey(first, "learned"));
    const learned = decodeState(fs.readFileSync(learnedFile)) as LearnedState;
    expect(learned.engine.listingEntries?.length).toBeGreaterThan(2 * 240);
    fs.writeFileSync(learnedFile, encodeState({ ...learned, engine: { ...learned.engine, listingEntries: undefined } }));
    const blindId = await crawl({ after: first });
    const blind = await collected(blindId);
    // Without them the re-crawl cannot tell which old publications changed: it misses most of their
    // files, or (learning change rates per class) finds them by revisiting publication after publication.
    const missed = pastTheNew.filter((url) => !blind.has(url)).length;
    const blindRequests = (await getCrawl(t.db, blindId)).counters.requests;
    expect(missed > pastTheNew.length / 2 || blindRequests > 1.5 * againRequests).toBe(true);
  });
});
