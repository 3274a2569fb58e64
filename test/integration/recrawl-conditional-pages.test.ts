import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { readLearnedState } from "../../lib/store/recrawl-store";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let site: RunningEvolvingSite;

beforeAll(async () => {
  t = await createTestDatabase();
  // A catalogue that marks its updates also sends an ETag with every page.
  site = await startEvolvingSite({ items: 90, seed: 8 });
});

afterAll(async () => {
  await site?.close();
  await t?.dispose();
});

async function crawl(settings: Record<string, unknown>): Promise<number> {
  const { id } = await createCrawl(t.db, { rootUrl: site.rootUrl, budget: { requests: 3000 }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 2, ...settings }, { asLocalAdmin: true });
  expect(await runStoredCrawl({ db: t.db, forage: t.config, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal })).toMatchObject({ kind: "stopped" });
  return id;
}

describe("a re-crawl revisits pages that sent validators with conditional GETs", () => {
  it("keeps the pages' ETags in the learned state and gets 304s for the unchanged ones, finding every new file", async () => {
    site.version = 1;
    const first = await crawl({});
    const learned = await readLearnedState(t.config.dataDir, first);
    const validators = learned!.engine.pageValidators!;
    expect(validators.length).toBeGreaterThan(90); // every publication page, the listings, the news
    expect(validators.every(([url, etag]) => url.startsWith(site.rootUrl) && /^"[0-9a-f]{16}"$/.test(etag ?? ""))).toBe(true);

    site.version = 2;
    const before = { ...site.stats };
    const again = await crawl({ after: first });
    const conditional = site.stats.pageConditional - before.pageConditional;
    const notModified = site.stats.pageNotModified - before.pageNotModified;
    expect(site.stats.conditional).toBe(before.conditional); // no file was checked (no checkKnownFiles)
    expect(conditional).toBeGreaterThan(0);
    expect(notModified).toBeGreaterThan(0);
    expect(notModified).toBeLessThanOrEqual(conditional);
    // A 304 is a request row with no body.
    const rows = await t.db.crawlRequest.findMany({ where: { crawlId: again, status: 304 }, select: { kind: true, bytes: true } });
    expect(rows.length).toBe(notModified);
    expect(rows.every((row) => row.kind === "page")).toBe(true);
    const targets = await t.db.target.findMany({ where: { crawlId: again }, select: { url: true } });
    const found = new Set(targets.map((target) => new URL(target.url).pathname));
    expect(site.catalogue.changes(1, 2).new.filter((url) => !found.has(url))).toEqual([]);
  });
});
