import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { getCrawlChanges } from "../../lib/store/queries/get-crawl-changes";
import { getCrawl } from "../../lib/store/queries/get-crawl";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let site: RunningEvolvingSite;

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startEvolvingSite({ items: 60, seed: 4 });
});

afterAll(async () => {
  await site?.close();
  await t?.dispose();
});

async function crawl(settings: Record<string, unknown>): Promise<number> {
  const { id } = await createCrawl(t.db, { rootUrl: site.rootUrl, budget: { requests: 3000 }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 7, ...settings }, { asLocalAdmin: true });
  const end = await runStoredCrawl({ db: t.db, forage: t.config, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal });
  expect(end).toMatchObject({ kind: "stopped" });
  return id;
}

async function listed(crawlId: number, change: "new" | "changed" | "unchanged" | "gone"): Promise<string[]> {
  const report = await getCrawlChanges(t.db, t.config.dataDir, crawlId, { change, limit: 10_000, offset: 0 });
  return report!.files.map((file) => new URL(file.url).pathname).sort();
}

const paths = (url: string) => new URL(url, "http://x").pathname;

describe("re-crawl after a crawl of an evolving site", () => {
  let first = 0;

  it("a first crawl collects every file of version 1 and reports them all as new", async () => {
    site.version = 1;
    first = await crawl({});
    const v1 = [...site.catalogue.files(1).keys()].sort();
    expect(await listed(first, "new")).toEqual(v1);
    const detail = await getCrawl(t.db, first);
    expect(detail.changes).toEqual({ new: v1.length, changed: 0, unchanged: 0, gone: 0 });
  });

  it("a re-crawl of version 2 finds exactly the new files, with fewer requests, and downloads no known file", async () => {
    site.version = 2;
    const truth = site.catalogue.changes(1, 2);
    const before = site.stats.requests;
    const again = await crawl({ after: first });
    const requestsSeen = site.stats.requests - before;
    expect(await listed(again, "new")).toEqual(truth.new.map(paths));
    const targets = await t.db.target.findMany({ where: { crawlId: again }, select: { url: true } });
    expect(targets.map((target) => paths(target.url)).sort()).toEqual(truth.new.map(paths));
    // Not a conditional request was sent, nothing was reported changed or gone without checking.
    expect(site.stats.conditional).toBe(0);
    const detail = await getCrawl(t.db, again);
    expect(detail.changes).toMatchObject({ new: truth.new.length, changed: 0, gone: 0 });
    const firstDetail = await getCrawl(t.db, first);
    expect(detail.counters.requests).toBeLessThan(firstDetail.counters.requests / 2);
    expect(requestsSeen).toBeGreaterThan(0);
  });

  it("with checkKnownFiles, revised and removed files are found with conditional requests: the report equals the ground truth", async () => {
    site.version = 2;
    const truth = site.catalogue.changes(1, 2);
    const conditionalBefore = site.stats.conditional;
    const notModifiedBefore = site.stats.notModified;
    const checked = await crawl({ after: first, checkKnownFiles: true });
    expect(await listed(checked, "new")).toEqual(truth.new.map(paths));
    expect(await listed(checked, "changed")).toEqual(truth.changed.map(paths));
    expect(await listed(checked, "gone")).toEqual(truth.gone.map(paths));
    expect(await listed(checked, "unchanged")).toEqual(truth.unchanged.map(paths));
    // One conditional GET per known file; the unchanged ones answered 304 without a body.
    expect(site.stats.conditional - conditionalBefore).toBe(site.catalogue.files(1).size);
    expect(site.stats.notModified - notModifiedBefore).toBe(truth.unchanged.length);
    const report = await getCrawlChanges(t.db, t.config.dataDir, checked, { change: "changed", limit: 10, offset: 0 });
    for (const file of report!.files) {
      expect(file.versions.map((version) => version.crawlId)).toEqual([first, checked]);
      expect(file.previousSha256).not.toBe(file.sha256);
      expect(file.etag).toMatch(/^"[0-9a-f]{16}"$/);
    }
  });

  it("a re-crawl drained in the middle resumes from its checkpoint with its known-file outcomes and set-aside pages: same report", async () => {
    site.version = 2;
    const truth = site.catalogue.changes(1, 2);
    const { id } = await createCrawl(t.db, { rootUrl: site.rootUrl, budget: { requests: 3000 }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 7, after: first, checkKnownFiles: true }, { asLocalAdmin: true });
    const drain = new AbortController();
    const run = (onProgress?: (counters: { requests: number }) => void) =>
      runStoredCrawl({ db: t.db, forage: t.config, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal, drainSignal: drain.signal, onProgress, checkpointSchedule: { minIntervalMs: 0 } });
    // Drained once the new pages are done and the set-aside ones are being revisited.
    expect(await run((counters) => counters.requests >= 40 && drain.abort())).toEqual({ kind: "paused" });
    const saved = await t.db.crawlCheckpoint.findUniqueOrThrow({ where: { crawlId: id } });
    expect(saved.requests).toBeGreaterThanOrEqual(40);
    const resumed = await runStoredCrawl({ db: t.db, forage: t.config, crawlId: id, politeness: new HostPoliteness(), signal: new AbortController().signal });
    expect(resumed).toMatchObject({ kind: "stopped" });
    expect(await listed(id, "new")).toEqual(truth.new.map(paths));
    expect(await listed(id, "changed")).toEqual(truth.changed.map(paths));
    expect(await listed(id, "gone")).toEqual(truth.gone.map(paths));
    expect(await listed(id, "unchanged")).toEqual(truth.unchanged.map(paths));
  });

  it("after a crawl that left no learned state (finished before re-crawls existed), its stored files are the known ones and the model starts afresh", async () => {
    site.version = 1;
    const old = await crawl({ seed: 8 });
    fs.rmSync(path.join(t.config.dataDir, "crawls", String(old), "recrawl"), { recursive: true });
    site.version = 2;
    const truth = site.catalogue.changes(1, 2);
    const again = await crawl({ after: old, checkKnownFiles: true });
    expect(await listed(again, "new")).toEqual(truth.new.map(paths));
    expect(await listed(again, "changed")).toEqual(truth.changed.map(paths));
    expect(await listed(again, "gone")).toEqual(truth.gone.map(paths));
    const started = await t.db.crawlEvent.findFirstOrThrow({ where: { crawlId: again, kind: "recrawl-started" } });
    expect(started.message).toContain("it left no learned state, the model starts afresh");
  });
});
