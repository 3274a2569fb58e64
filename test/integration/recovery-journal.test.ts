import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { pollUntil } from "../helpers/poll-until";
import { buildSite } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { createTestDatabase, testBackend, type TestDatabase } from "../helpers/test-database";
import { listenOnFreePort } from "../helpers/ports";

/**
 * The request log as a crash journal, in one process: a crawl stalls in the middle of a request
 * (the site never answers it), long after its only checkpoint, with the rows of its last 250 ms
 * still in memory, as a kill -9 would leave it; another holder takes its lease and runs it again,
 * as the worker taking it over would. The stalled run, released at the end, writes nothing more.
 */
const site = buildSite({ shape: "statistics-office", seed: 5, size: "small" });
/** "METHOD /path" → times served. */
const served = new Map<string, number>();
/** Asked before each answer: true holds the answer back for good (the test stalls a crawl there). */
let holdAnswer: (res: http.ServerResponse) => boolean = () => false;
let server: http.Server;
let rootUrl: string;
let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  server = http.createServer((req, res) => {
    const method = req.method === "HEAD" ? "HEAD" : "GET";
    const key = `${method} ${req.url}`;
    served.set(key, (served.get(key) ?? 0) + 1);
    if (holdAnswer(res)) return;
    const out = site.respond(method, req.url ?? "/", { host: req.headers.host ?? "" });
    setImmediate(() => {
      res.writeHead(out.status, out.headers);
      res.end(method === "HEAD" ? undefined : out.body);
    });
  });
  await listenOnFreePort(server);
  rootUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await t?.dispose();
});

const BUDGET = 500;
const settings = () => parseCrawlConfig({ rootUrl, budget: { requests: BUDGET }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 3 });
/** One checkpoint, at the first page: everything after it is in the log only. */
const ONE_CHECKPOINT = { minIntervalMs: 1e9 };
const total = () => [...served.values()].reduce((sum, count) => sum + count, 0);

function run(crawlId: number, options: { signal?: AbortSignal; urlPatterns?: string[]; holderId?: string } = {}) {
  return runStoredCrawl({
    holderId: options.holderId,
    db: t.db,
    forage: t.config,
    crawlId,
    politeness: new HostPoliteness(),
    signal: options.signal ?? new AbortController().signal,
    checkpointSchedule: ONE_CHECKPOINT,
    live: options.urlPatterns ? () => ({ delayMs: 0, urlPatterns: options.urlPatterns! }) : undefined,
  });
}

/** Requests to the site a crawl made that its request log shows (counted ones and robots.txt; other hosts are not this site's). */
const loggedFetches = (crawlId: number) => t.db.crawlRequest.count({ where: { crawlId, url: { startsWith: rootUrl }, OR: [{ seq: { gt: 0 } }, { kind: "robots" }] } });

/**
 * Runs a crawl (held by "first") until the site has served it `requests` requests, stalls it in
 * the middle of the next one and hands its lease to "second". Returns how many requests the site
 * served that the log does not show (the rows still in the stalled run's memory, and the stalled
 * one), and a function that releases the stalled run and expects it to write nothing more.
 */
async function stallAfter(crawlId: number, requests: number): Promise<{ unlogged: number; release: () => Promise<void> }> {
  await t.db.crawl.update({ where: { id: crawlId }, data: { status: "running", workerId: "first", leaseExpiresAt: new Date(Date.now() + 60_000) } });
  const start = total();
  const cut = new AbortController();
  let stalled!: () => void;
  const stall = new Promise<void>((resolve) => (stalled = resolve));
  let held: http.ServerResponse | null = null;
  holdAnswer = (res) => {
    if (held || total() - start <= requests) return false;
    held = res;
    stalled();
    return true;
  };
  const zombie = run(crawlId, { signal: cut.signal, holderId: "first" });
  await stall;
  holdAnswer = () => false;
  const unlogged = total() - start - (await loggedFetches(crawlId));
  await t.db.crawl.update({ where: { id: crawlId }, data: { workerId: "second" } });
  return {
    unlogged,
    release: async () => {
      cut.abort();
      await expect(zombie).rejects.toMatchObject({ name: "LeaseLostError" });
      held!.destroy();
    },
  };
}

async function requestSequence(crawlId: number): Promise<string[]> {
  const rows = await t.db.crawlRequest.findMany({ where: { crawlId, seq: { gt: 0 } }, orderBy: [{ seq: "asc" }, { id: "asc" }], select: { seq: true, method: true, url: true, status: true } });
  return rows.map((row) => `${row.seq} ${row.method} ${row.url} ${row.status}`);
}

async function targetSet(crawlId: number): Promise<string[]> {
  const rows = await t.db.target.findMany({ where: { crawlId }, select: { url: true, sha256: true, requestSeq: true } });
  return rows.map((row) => `${row.requestSeq} ${row.url} ${row.sha256}`).sort();
}

/** Each target once, its file on disk with its hash, no other file, no recovery leftovers. */
async function expectFilesMatchTargets(crawlId: number): Promise<void> {
  const targets = await t.db.target.findMany({ where: { crawlId } });
  expect(new Set(targets.map((target) => target.url)).size).toBe(targets.length);
  for (const target of targets) {
    expect(createHash("sha256").update(fs.readFileSync(path.join(t.config.dataDir, target.storagePath))).digest("hex")).toBe(target.sha256);
  }
  const folder = path.join(t.config.dataDir, "crawls", String(crawlId));
  expect(fs.readdirSync(path.join(folder, "files")).sort()).toEqual([...new Set(targets.map((target) => target.sha256))].sort());
  expect(fs.existsSync(path.join(folder, "recovery"))).toBe(false);
}

const recoveryEvents = async (crawlId: number) =>
  (await t.db.crawlEvent.findMany({ where: { crawlId, kind: "recovered-from-log" }, select: { data: true } })).map((event) => JSON.parse(event.data ?? "{}") as { answered: number; left: number; reason: string });

// FORAGE_TEST_DB=postgres runs this file on PostgreSQL.
describe(`request log as crash journal (${testBackend() === "postgres" ? "PostgreSQL" : "SQLite"}, real HTTP)`, () => {
  it("a crawl stalled long after its checkpoint resumes with the rolled-back requests answered from the log: the site serves again only what was never written", async () => {
    const referenceId = await insertCrawl(t.db, settings());
    const servedBefore = new Map(served);
    await run(referenceId);
    const needed = new Map([...served].map(([key, count]) => [key, count - (servedBefore.get(key) ?? 0)]));

    const id = await insertCrawl(t.db, settings());
    const startServed = new Map(served);
    const stalled = await stallAfter(id, 300);
    const checkpoint = await t.db.crawlCheckpoint.findUniqueOrThrow({ where: { crawlId: id } });
    const written = await t.db.crawlRequest.count({ where: { crawlId: id, seq: { gt: checkpoint.requests } } });
    expect(written).toBeGreaterThan(100); // the log holds what the checkpoint does not

    const end = await run(id, { holderId: "second" });
    expect(end).toEqual({ kind: "stopped", reason: "budget-requests" });
    let repeats = 0;
    for (const [key, count] of served) repeats += Math.max(0, count - (startServed.get(key) ?? 0) - (needed.get(key) ?? 0));
    // What the stalled run never wrote (its last rows, the stalled request) and robots.txt, read again by every run.
    expect(stalled.unlogged).toBeGreaterThanOrEqual(1);
    expect(repeats).toBe(stalled.unlogged + 1);
    expect(await recoveryEvents(id)).toEqual([expect.objectContaining({ answered: written, left: 0, reason: "exhausted" })]);
    await stalled.release();

    expect(await requestSequence(id)).toEqual(await requestSequence(referenceId));
    expect(await targetSet(id)).toEqual(await targetSet(referenceId));
    await expectFilesMatchTargets(id);
  });

  it("a resumed crawl that asks for something else than the log (a URL pattern added meanwhile) goes on with the site, nothing lost or stored twice", async () => {
    const id = await insertCrawl(t.db, settings());
    const stalled = await stallAfter(id, 300);
    const checkpoint = await t.db.crawlCheckpoint.findUniqueOrThrow({ where: { crawlId: id } });
    const journal = await t.db.crawlRequest.findMany({ where: { crawlId: id, seq: { gt: checkpoint.requests } }, orderBy: { id: "asc" } });
    const targets = journal.filter((row) => row.kind === "target" && row.isTarget);
    const blocked = targets[Math.floor(targets.length / 3)]!;
    expect(blocked).toBeDefined();

    const end = await run(id, { urlPatterns: [blocked.url], holderId: "second" });
    await stalled.release();
    expect(end).toEqual({ kind: "stopped", reason: "budget-requests" });
    const [recovery] = await recoveryEvents(id);
    expect(recovery).toMatchObject({ reason: "diverged" });
    expect(recovery!.answered).toBeGreaterThan(0);
    expect(recovery!.left).toBeGreaterThan(1);
    const sequence = await requestSequence(id);
    expect(sequence.map((line) => Number(line.split(" ")[0]))).toEqual(Array.from({ length: BUDGET }, (_, i) => i + 1));
    expect(sequence.some((line) => line.includes(` ${blocked.url} `))).toBe(false);
    await expectFilesMatchTargets(id);
    const crawl = await t.db.crawl.findUniqueOrThrow({ where: { id } });
    expect(crawl.targetsCount).toBe(await t.db.target.count({ where: { crawlId: id } }));
  });
});

/** A listing page of `files` CSV links, each file answered after a few milliseconds: one long page. */
async function startListingSite(files: number, onRequest: (served: number) => void = () => undefined) {
  let count = 0;
  const listing = `<html><body><ul>${Array.from({ length: files }, (_, i) => `<li><a href="/data/table-${i}.csv">Table ${i}</a></li>`).join("")}</ul></body></html>`;
  const listingServer = http.createServer((req, res) => {
    onRequest(++count);
    if (req.url === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": String(Buffer.byteLength(listing)) });
      res.end(listing);
      return;
    }
    const match = /^\/data\/table-(\d+)\.csv$/.exec(req.url ?? "");
    const body = match ? `year,value\n2024,${match[1]}\n` : "not here";
    setTimeout(() => {
      res.writeHead(match ? 200 : 404, { "content-type": match ? "text/csv" : "text/plain", "content-length": String(Buffer.byteLength(body)) });
      res.end(req.method === "HEAD" ? undefined : body);
    }, 4);
  });
  await listenOnFreePort(listingServer);
  return {
    rootUrl: `http://127.0.0.1:${(listingServer.address() as AddressInfo).port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        listingServer.closeAllConnections();
        listingServer.close(() => resolve());
      }),
  };
}

describe(`request log inside a long page (${testBackend() === "postgres" ? "PostgreSQL" : "SQLite"}, real HTTP)`, () => {
  const FILES = 150;
  const config = (root: string) => parseCrawlConfig({ rootUrl: root, budget: { requests: 1_000 }, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 1 });
  const countedRows = (crawlId: number) => t.db.crawlRequest.count({ where: { crawlId, seq: { gt: 0 } } });

  it("is written every 250 ms while one page downloads its files, not only when the page is done", async () => {
    const listing = await startListingSite(FILES);
    try {
      const id = await insertCrawl(t.db, config(listing.rootUrl));
      let done = false;
      const crawl = run(id).finally(() => (done = true));
      const seen: number[] = [];
      while (!done) {
        seen.push(await countedRows(id));
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      await crawl;
      const total = await countedRows(id);
      // The whole crawl is the one listing page: its files are fetched while it is being crawled.
      expect(await t.db.target.count({ where: { crawlId: id } })).toBe(FILES);
      expect(seen.filter((count) => count > 0 && count < total).length).toBeGreaterThan(2);
    } finally {
      await listing.close();
    }
  });

  it("stops for good at a failed write inside a page (lease taken): no later row is written, the log has no gap", async () => {
    const listing = await startListingSite(FILES);
    try {
      const id = await insertCrawl(t.db, config(listing.rootUrl), { heldBy: { holderId: "holder", leaseMs: 60_000 } });
      const crawl = run(id, { holderId: "holder" });
      const outcome = crawl.then(() => "finished", (error: Error) => error.name);
      // Rows of the page written while it is being crawled: its lease is taken now, mid-page.
      await pollUntil("rows of the page written", () => countedRows(id), (rows) => rows > 0, { timeoutMs: 20_000, pollMs: 10 });
      await t.db.crawl.update({ where: { id }, data: { workerId: "someone-else" } });
      expect(await outcome).toBe("LeaseLostError");
      const rows = await t.db.crawlRequest.findMany({ where: { crawlId: id, seq: { gt: 0 } }, orderBy: { id: "asc" }, select: { seq: true } });
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.length).toBeLessThan(2 * FILES);
      expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
      // No wait for "nothing more": the run's promise settles only after its sink and its
      // engine are closed (runStoredCrawl's finally), so no write of it can come later.
      expect(await countedRows(id)).toBe(rows.length);
      expect(await t.db.crawl.findUniqueOrThrow({ where: { id } })).toMatchObject({ workerId: "someone-else", status: "running" });
    } finally {
      await listing.close();
    }
  });
});
