import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { kill9, startNodeProcess, type ManagedProcess } from "../helpers/processes";
import { createTestDatabase, testBackend, type TestDatabase } from "../helpers/test-database";
import { pollUntil } from "../helpers/poll-until";

let t: TestDatabase;
let site: RunningSite;
const workers: ManagedProcess[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startSiteServer(buildSite({ shape: "statistics-office", seed: 3, size: "small" }));
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop(2_000)));
  await site?.close();
  await t?.dispose();
});

const BUDGET = 400;
const LEASE_MS = 1_500;

/** The crawl's settings; the worker's crawl and the reference differ only by their id. */
const settings = () => ({
  rootUrl: site.rootUrl,
  budget: { requests: BUDGET },
  // Slow enough that the interruptions land mid-crawl, fast enough for a short test.
  politeness: { delayMs: 8 },
  allowPrivateNetwork: true,
  seed: 5,
});

function startWorker(): ManagedProcess {
  const worker = startNodeProcess(["bin/forage.mjs", "worker", "--concurrency", "1"], {
    DATABASE_URL: t.config.databaseUrl,
    FORAGE_DATA_DIR: t.config.dataDir,
    FORAGE_WORKER_LEASE_MS: String(LEASE_MS),
  });
  workers.push(worker);
  return worker;
}

const waitFor = <T>(what: string, read: () => Promise<T>, accept: (value: T) => boolean, worker?: ManagedProcess, timeoutMs = 40_000) =>
  pollUntil(what, read, accept, { timeoutMs, pollMs: 25, context: () => worker?.output() ?? "" });

const crawlRow = (id: number) => () => t.db.crawl.findUniqueOrThrow({ where: { id } });

/** Counted requests as "seq METHOD url", in seq order. */
async function requestSequence(crawlId: number): Promise<string[]> {
  const rows = await t.db.crawlRequest.findMany({ where: { crawlId, seq: { gt: 0 } }, orderBy: [{ seq: "asc" }, { id: "asc" }], select: { seq: true, method: true, url: true } });
  return rows.map((row) => `${row.seq} ${row.method} ${row.url}`);
}

async function targetSet(crawlId: number): Promise<string[]> {
  const rows = await t.db.target.findMany({ where: { crawlId }, select: { url: true, sha256: true, requestSeq: true } });
  return rows.map((row) => `${row.requestSeq} ${row.url} ${row.sha256}`).sort();
}

// FORAGE_TEST_DB=postgres runs this file on PostgreSQL.
describe(`checkpoints: a crawl survives kill -9 of its worker (real processes, ${testBackend() === "postgres" ? "PostgreSQL" : "SQLite"}, HTTP)`, () => {
  it("resumes after two kill -9 and a SIGTERM with no lost or doubled target, no gap in the request log, and the uninterrupted crawl's results", async () => {
    const { id } = await createCrawl(t.db, settings(), { asLocalAdmin: true });
    // The reference runs in this process at the same time, held so the worker never claims it.
    const referenceId = await insertCrawl(t.db, parseCrawlConfig(settings()), { heldBy: { holderId: "test-reference", leaseMs: 600_000 } });
    const reference = runStoredCrawl({ db: t.db, forage: t.config, crawlId: referenceId, politeness: new HostPoliteness(), signal: new AbortController().signal });

    const cuts: { how: string; requestsAtCut: number; checkpointAt: number | null }[] = [];
    const cut = async (worker: ManagedProcess, how: "kill -9" | "SIGTERM") => {
      if (how === "kill -9") await kill9(worker);
      else await worker.stop(15_000);
      const row = await crawlRow(id)();
      const checkpoint = await t.db.crawlCheckpoint.findUnique({ where: { crawlId: id }, select: { requests: true } });
      cuts.push({ how, requestsAtCut: row.requestsCount, checkpointAt: checkpoint?.requests ?? null });
      return row;
    };

    let worker = startWorker();
    const first = await waitFor("targets stored", crawlRow(id), (row) => row.status === "running" && row.targetsCount >= 15, worker);
    await cut(worker, "kill -9");

    // Restarted at once: the dead worker's lease is still valid, the new one waits for it to expire.
    worker = startWorker();
    const resumedAt = Date.now();
    const second = await waitFor("resumed past the first cut", crawlRow(id), (row) => row.requestsCount > first.requestsCount + 60, worker);
    const resumeMs = Date.now() - resumedAt;
    expect(second.status).toBe("running");
    await cut(worker, "kill -9");

    worker = startWorker();
    const third = await waitFor("resumed past the second cut", crawlRow(id), (row) => row.requestsCount > second.requestsCount + 60, worker);
    const afterTerm = await cut(worker, "SIGTERM");
    // A clean shutdown hands the crawl back: queued, no holder, a checkpoint at the exact point of the last rows.
    expect(afterTerm).toMatchObject({ status: "queued", workerId: null, leaseExpiresAt: null });
    expect(cuts.at(-1)!.checkpointAt).toBe(afterTerm.requestsCount);
    expect(afterTerm.requestsCount).toBeGreaterThan(third.requestsCount - 1);

    worker = startWorker();
    // The final status is written when the run ends, the lease released right after it.
    const done = await waitFor("finished and released", crawlRow(id), (row) => row.status === "finished" && row.workerId === null, worker);
    await worker.stop(10_000);
    await reference;
    const restores = await t.db.crawlEvent.findMany({ where: { crawlId: id, kind: { in: ["resume-time", "resumed-from-checkpoint"] } }, select: { message: true } });
    console.log(`cuts: ${JSON.stringify(cuts)}; first resume: progress seen ${resumeMs} ms after the restart (lease ${LEASE_MS} ms)`);
    console.log(restores.map((event) => event.message).join("\n"));

    expect(done).toMatchObject({ stopReason: "budget-requests", requestsCount: BUDGET, workerId: null });
    // The request log: seq 1..BUDGET, each exactly once.
    const sequence = await requestSequence(id);
    expect(sequence.map((line) => Number(line.split(" ")[0]))).toEqual(Array.from({ length: BUDGET }, (_, i) => i + 1));
    // Targets: unique by URL, each file on disk with its hash, no stray file.
    const targets = await t.db.target.findMany({ where: { crawlId: id } });
    expect(new Set(targets.map((target) => target.url)).size).toBe(targets.length);
    expect(done.targetsCount).toBe(targets.length);
    for (const target of targets) {
      const body = fs.readFileSync(path.join(t.config.dataDir, target.storagePath));
      expect(createHash("sha256").update(body).digest("hex")).toBe(target.sha256);
    }
    const files = fs.readdirSync(path.join(t.config.dataDir, "crawls", String(id), "files"));
    expect(files.sort()).toEqual([...new Set(targets.map((target) => target.sha256))].sort());
    // Same seed, same site: the interrupted crawl made the uninterrupted one's requests and found its targets.
    expect(sequence).toEqual(await requestSequence(referenceId));
    expect(await targetSet(id)).toEqual(await targetSet(referenceId));
    // Resumed three times; the finished crawl's checkpoint is gone.
    const kinds = (await t.db.crawlEvent.findMany({ where: { crawlId: id }, select: { kind: true } })).map((event) => event.kind);
    expect(kinds.filter((kind) => kind === "resumed-from-checkpoint")).toHaveLength(3);
    expect(kinds.filter((kind) => kind === "handed-back")).toHaveLength(1);
    expect(kinds).not.toContain("failed");
    expect(await t.db.crawlCheckpoint.count({ where: { crawlId: id } })).toBe(0);
  });
});
