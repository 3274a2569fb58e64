import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { requestControl } from "../../lib/store/commands/request-control";
import { CrawlWorker } from "../../lib/worker/crawl-worker";
import { failExpiredLeases } from "../../lib/worker/leases";
import { createTestDatabase, testBackend, type TestDatabase } from "../helpers/test-database";
import { pollUntil } from "../helpers/poll-until";
import { heldStillForHeartbeats } from "../helpers/worker-cycles";

let t: TestDatabase;
let site: RunningSite;
const workers: CrawlWorker[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startSiteServer(buildSite({ shape: "ministry-portal", seed: 4, size: "small" }));
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await site?.close();
  await t?.dispose();
});

/** Workers of one process need their own names: a lease names its holder. */
async function startWorker(): Promise<CrawlWorker> {
  const config = { ...t.config, workerId: `worker-${workers.length + 1}` };
  const worker = new CrawlWorker(t.db, config, { pollMs: 100, controlPollMs: 50, leaseMs: 4_000, shutdownGraceMs: 5_000 });
  workers.push(worker);
  await worker.start();
  return worker;
}

const waitFor = <T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 20_000) =>
  pollUntil(what, read, accept, { timeoutMs, pollMs: 25 });

const crawlRow = (id: number) => () => t.db.crawl.findUniqueOrThrow({ where: { id } });
const newCrawl = (budget: number, delayMs: number) =>
  createCrawl(t.db, { rootUrl: site.rootUrl, budget: { requests: budget }, politeness: { delayMs }, allowPrivateNetwork: true, seed: 9 }, { asLocalAdmin: true });
const countedSeqs = async (crawlId: number) =>
  (await t.db.crawlRequest.findMany({ where: { crawlId, seq: { gt: 0 } }, orderBy: { seq: "asc" }, select: { seq: true } })).map((row) => row.seq);
/** A holder that died: its name stays on the row, its lease ran out a minute ago. */
const DEAD = { workerId: "dead-worker", leaseExpiresAt: new Date(Date.now() - 60_000) };

// FORAGE_TEST_DB=postgres runs this file on PostgreSQL.
describe(`crawl worker: resume from checkpoints (real ${testBackend() === "postgres" ? "PostgreSQL" : "SQLite"}, real HTTP)`, () => {
  it("a clean shutdown hands a running crawl back to the queue and a paused one stays paused; both resume from their checkpoints", async () => {
    const worker = await startWorker();
    const running = await newCrawl(100_000, 15);
    const paused = await newCrawl(100_000, 15);
    await waitFor("both running", () => t.db.crawl.findMany({ where: { id: { in: [running.id, paused.id] } } }), (rows) => rows.every((row) => row.requestsCount > 20));
    await requestControl(t.db, t.config, paused.id, "pause");
    await waitFor("paused", crawlRow(paused.id), (row) => row.status === "paused");

    await worker.stop();
    const [handedBack, stillPaused] = [await crawlRow(running.id)(), await crawlRow(paused.id)()];
    expect(handedBack).toMatchObject({ status: "queued", workerId: null, leaseExpiresAt: null });
    expect(stillPaused).toMatchObject({ status: "paused", workerId: null, leaseExpiresAt: null });
    // The final checkpoint is the exact point of the rows: nothing to roll back.
    for (const row of [handedBack, stillPaused]) {
      expect((await t.db.crawlCheckpoint.findUniqueOrThrow({ where: { crawlId: row.id } })).requests).toBe(row.requestsCount);
    }

    // Another worker continues the queued crawl where it was; the paused one waits for the user.
    const next = await startWorker();
    await waitFor("continued", crawlRow(running.id), (row) => row.status === "running" && row.requestsCount > handedBack.requestsCount + 10);
    expect((await crawlRow(paused.id)()).status).toBe("paused");
    await requestControl(t.db, t.config, paused.id, "resume"); // paused and released → queued → claimed → resumed
    await waitFor("resumed", crawlRow(paused.id), (row) => row.status === "running" && row.requestsCount > stillPaused.requestsCount + 10);

    for (const id of [running.id, paused.id]) {
      await requestControl(t.db, t.config, id, "stop");
      await waitFor("stopped and released", crawlRow(id), (row) => row.status === "finished" && row.workerId === null);
      const seqs = await countedSeqs(id);
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
      expect(await t.db.crawlCheckpoint.count({ where: { crawlId: id } })).toBe(0);
    }
    await next.stop();
  });

  it("takes over a paused crawl of a dead worker and holds it paused, fails one without a checkpoint, and stops writing when its lease is taken", async () => {
    const worker = await startWorker();
    const { id } = await newCrawl(100_000, 15);
    const before = await waitFor("a checkpoint", crawlRow(id), (row) => row.requestsCount > 30);
    await waitFor("checkpoint written", () => t.db.crawlCheckpoint.findUnique({ where: { crawlId: id } }), (row) => row !== null);
    await requestControl(t.db, t.config, id, "pause");
    await waitFor("paused", crawlRow(id), (row) => row.status === "paused");
    await worker.stop();

    // As if its worker had died while holding it paused (no hand-back).
    await t.db.crawl.update({ where: { id }, data: { status: "paused", ...DEAD } });
    const orphan = await newCrawl(100, 0);
    await t.db.crawl.update({ where: { id: orphan.id }, data: { status: "running", ...DEAD } });
    expect(await failExpiredLeases(t.db)).toBe(1); // the one without a checkpoint
    expect(await crawlRow(orphan.id)()).toMatchObject({ status: "failed", stopReason: "failed", workerId: null });

    const next = await startWorker();
    const held = await waitFor("claimed paused", crawlRow(id), (row) => row.workerId === next.id);
    expect(held.status).toBe("paused");
    // Restored, but holding still: no request across two of the new worker's heartbeats.
    const heartbeatOf = (w: CrawlWorker) => async () => (await t.db.worker.findUniqueOrThrow({ where: { id: w.id } })).heartbeatAt;
    expect(await heldStillForHeartbeats({ heartbeatAt: heartbeatOf(next), counter: async () => (await crawlRow(id)()).requestsCount }, 2)).toBe(held.requestsCount);
    await requestControl(t.db, t.config, id, "resume"); // held: the worker applies it in memory
    await waitFor("running again", crawlRow(id), (row) => row.status === "running" && row.requestsCount > before.requestsCount + 20);

    // Its lease is taken away while it runs (expired, taken over): it stops writing at once and does not fail the crawl.
    // The new holder is alive: its lease runs for minutes, so no worker may claim the crawl back while this is watched
    // (with the old expiry, a slow machine let the lease lapse and this worker rightly resumed the crawl).
    await t.db.crawl.update({ where: { id }, data: { workerId: "someone-else", leaseExpiresAt: new Date(Date.now() + 10 * 60_000) } });
    // Its run ends at the first write it cannot make (the worker drops it); nothing of it writes after.
    await waitFor("the run dropped by its worker", async () => next.activeCrawlIds(), (ids) => !ids.includes(id));
    const frozen = await t.db.crawlRequest.count({ where: { crawlId: id } });
    expect(await heldStillForHeartbeats({ heartbeatAt: heartbeatOf(next), counter: () => t.db.crawlRequest.count({ where: { crawlId: id } }) }, 1)).toBe(frozen);
    expect(await crawlRow(id)()).toMatchObject({ status: "running", workerId: "someone-else" });
    expect((await t.db.crawlEvent.findMany({ where: { crawlId: id, kind: "failed" } })).length).toBe(0);
    await next.stop();
  });
});
