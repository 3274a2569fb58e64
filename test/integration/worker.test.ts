import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { requestControl } from "../../lib/store/commands/request-control";
import { updateLiveSettings } from "../../lib/store/commands/update-live-settings";
import { claimNextCrawl } from "../../lib/worker/leases";
import { CrawlWorker } from "../../lib/worker/crawl-worker";
import { createTestDatabase, testBackend, type TestDatabase } from "../helpers/test-database";
import { pollUntil } from "../helpers/poll-until";
import { heldStillForHeartbeats } from "../helpers/worker-cycles";

let t: TestDatabase;
let site: RunningSite;
let worker: CrawlWorker;

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startSiteServer(buildSite({ shape: "statistics-office", seed: 3, size: "small" }));
  worker = new CrawlWorker(t.db, t.config, { pollMs: 100, controlPollMs: 50, leaseMs: 4_000 });
  await worker.start();
});

afterAll(async () => {
  await worker?.stop();
  await site?.close();
  await t?.dispose();
});

const waitFor = <T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 20_000) =>
  pollUntil(what, read, accept, { timeoutMs, pollMs: 50 });

const crawlRow = (id: number) => () => t.db.crawl.findUniqueOrThrow({ where: { id } });

function newCrawl(budget: number, delayMs = 5) {
  return createCrawl(t.db, {
    rootUrl: site.rootUrl,
    budget: { requests: budget },
    politeness: { delayMs },
    allowPrivateNetwork: true,
    seed: 5,
  }, { asLocalAdmin: true });
}

// FORAGE_TEST_DB=postgres runs this file on PostgreSQL.
describe(`crawl worker (real ${testBackend() === "postgres" ? "PostgreSQL" : "SQLite"}, real HTTP)`, () => {
  it("claims a queued crawl, runs it to its budget and releases the lease", async () => {
    const { id } = await newCrawl(150, 0);
    // The final status is written when the run ends, the lease released right after it.
    const done = await waitFor("finished and released", crawlRow(id), (row) => row.status === "finished" && row.workerId === null);
    expect(done).toMatchObject({ stopReason: "budget-requests", requestsCount: 150, workerId: null });
    expect(done.targetsCount).toBeGreaterThan(0);
    expect(await t.db.crawlRequest.count({ where: { crawlId: id, seq: { gt: 0 } } })).toBe(150);
    const kinds = (await t.db.crawlEvent.findMany({ where: { crawlId: id }, orderBy: { id: "asc" } })).map((event) => event.kind);
    expect(kinds).toEqual(expect.arrayContaining(["created", "started", "finished"]));
  });

  it("pauses in memory, resumes where it was, applies a live delay, and stops on request keeping data", async () => {
    const { id } = await newCrawl(100_000, 20);
    await waitFor("running with requests", crawlRow(id), (row) => row.status === "running" && row.requestsCount > 10);

    await requestControl(t.db, t.config, id, "pause");
    const paused = await waitFor("paused", crawlRow(id), (row) => row.status === "paused");
    await waitFor("the paused event", () => t.db.crawlEvent.count({ where: { crawlId: id, kind: "paused" } }), (n) => n === 1);
    // The page in flight may still end; then the count stands still across the worker's heartbeats.
    const frozen = await heldStillForHeartbeats(
      { heartbeatAt: async () => (await t.db.worker.findUniqueOrThrow({ where: { id: worker.id } })).heartbeatAt, counter: async () => (await crawlRow(id)()).requestsCount },
      2,
    );
    expect(frozen).toBeGreaterThanOrEqual(paused.requestsCount);
    expect((await crawlRow(id)()).status).toBe("paused");

    await requestControl(t.db, t.config, id, "resume");
    await waitFor("running again", crawlRow(id), (row) => row.status === "running" && row.requestsCount > frozen + 5);

    // 20 ms → 400 ms between requests: applied within about a second.
    const patchedAt = Date.now();
    await updateLiveSettings(t.db, id, { politeness: { delayMs: 400 } });
    const later = await waitFor(
      "three requests started well after the patch",
      () =>
        t.db.crawlRequest.findMany({
          where: { crawlId: id, seq: { gt: 0 }, startedAt: { gt: new Date(patchedAt + 1_200) } },
          orderBy: { seq: "asc" },
          select: { startedAt: true },
        }),
      (rows) => rows.length >= 3,
    );
    const gaps = later.slice(1).map((row, i) => row.startedAt.getTime() - later[i]!.startedAt.getTime());
    // Start times are derived from the end time minus the duration: allow timer jitter.
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(350);

    await requestControl(t.db, t.config, id, "stop");
    const stopped = await waitFor("stopped and released", crawlRow(id), (row) => row.status === "finished" && row.workerId === null);
    expect(stopped).toMatchObject({ stopReason: "user-stop", pendingControl: null, workerId: null });
    expect(await t.db.crawlRequest.count({ where: { crawlId: id } })).toBeGreaterThan(0);
  });

  it("cancels a running crawl and discards its files", async () => {
    const { id } = await newCrawl(100_000, 10);
    await waitFor("targets stored", crawlRow(id), (row) => row.status === "running" && row.targetsCount > 0);
    await requestControl(t.db, t.config, id, "cancel");
    await waitFor("cancelled", crawlRow(id), (row) => row.status === "cancelled");
    expect(await t.db.target.count({ where: { crawlId: id } })).toBe(0);
    expect(fs.existsSync(path.join(t.config.dataDir, "crawls", String(id)))).toBe(false);
  });

  it("never lets two claimers take the same crawl", async () => {
    await worker.stop(); // the claims below are the only ones
    // Twelve claimers interleaving their read and conditional update (one SQLite connection:
    // two connections in one process would block each other inside better-sqlite3).
    const ids = await Promise.all(Array.from({ length: 6 }, () => newCrawl(10).then((crawl) => crawl.id)));
    const claims = await Promise.all(Array.from({ length: 12 }, (_, i) => claimNextCrawl(t.db, `claimer-${i}`, 10_000)));
    const claimed = claims.filter((id): id is number => id !== null);
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.sort((a, b) => a - b)).toEqual(ids.sort((a, b) => a - b));
    const holders = await t.db.crawl.findMany({ where: { id: { in: ids } }, select: { status: true, workerId: true } });
    expect(holders.every((row) => row.status === "running" && row.workerId?.startsWith("claimer-"))).toBe(true);
  });
});
