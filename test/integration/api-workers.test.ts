/**
 * GET /api/workers: the workers of the database with their health and the crawls they hold.
 * A real `forage worker` process runs a real crawl of a site on 127.0.0.1; a worker killed
 * without a word is the row it leaves behind (its heartbeat stops).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import type { WorkerListItem } from "../../lib/store/queries/list-workers";
import { apiRequest, closeRouteDatabase, openRouteDatabase, url } from "../helpers/api-routes";
import { page, startRouteSite, type TestSite } from "../helpers/crawl-fixtures";
import { pollUntil } from "../helpers/poll-until";
import { startNodeProcess, type ManagedProcess } from "../helpers/processes";
import type { TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let site: TestSite;
let worker: ManagedProcess | null = null;

beforeAll(async () => {
  t = await openRouteDatabase();
  site = await startRouteSite({ "/": page(["/a", "/b", "/c"]), "/a": page(["/b"]), "/b": page(["/c"]), "/c": page([]) });
});
afterAll(async () => {
  await worker?.stop();
  await site?.close();
  await closeRouteDatabase(t);
});

async function listWorkers(): Promise<WorkerListItem[]> {
  const { GET } = await import("@/app/api/workers/route");
  const response = await GET(apiRequest(url("/api/workers")));
  expect(response.status).toBe(200);
  return ((await response.json()) as { workers: WorkerListItem[] }).workers;
}

describe("GET /api/workers", () => {
  it("shows a running worker with the crawl it holds, a silent one as unresponsive, and a stopped one", async () => {
    // A worker killed two minutes ago: its row stays "running", its heartbeat old.
    const longAgo = new Date(Date.now() - 120_000);
    await t.db.worker.create({ data: { id: "gone-worker", hostname: "machine-b", pid: 4242, startedAt: longAgo, heartbeatAt: longAgo, state: "running" } });

    worker = startNodeProcess(["bin/forage.mjs", "worker"], { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.dir, FORAGE_WORKER_ID: "live-worker", FORAGE_WORKER_LEASE_MS: "4000" });
    const logs = () => worker!.output();
    await pollUntil("worker ready", () => worker!.output().includes("ready"), Boolean, { timeoutMs: 60_000, pollMs: 50, context: logs });
    const { id } = await createCrawl(t.db, { rootUrl: site.rootUrl, budget: { requests: 6 }, politeness: { delayMs: 1_500 }, allowPrivateNetwork: true, seed: 1 }, { asLocalAdmin: true });
    await pollUntil("crawl claimed", () => t.db.crawl.findUniqueOrThrow({ where: { id } }), (row) => row.workerId === "live-worker", { timeoutMs: 30_000, pollMs: 20, context: logs });

    const during = await listWorkers();
    expect(during.map((w) => [w.id, w.health])).toEqual([
      ["live-worker", "running"],
      ["gone-worker", "unresponsive"],
    ]);
    const live = during[0]!;
    expect(live).toMatchObject({ pid: worker.child.pid, crawls: [{ id, status: "running", rootUrl: site.rootUrl }] });
    expect(live.heartbeatAgeMs).toBeLessThan(4_000);
    expect(during[1]).toMatchObject({ hostname: "machine-b", pid: 4242, crawls: [], load: null });
    expect(during[1]!.heartbeatAgeMs).toBeGreaterThanOrEqual(120_000);

    // Its load arrives with a heartbeat (every half lease, 2 s): the crawl it holds (its 1.5 s
    // delay keeps it running across several heartbeats), pages it started, the process's own CPU
    // and memory.
    const loaded = await pollUntil("a heartbeat with the crawl's pages", listWorkers, (workers) => (workers[0]?.load?.crawlsHeld ?? 0) === 1 && (workers[0]?.load?.pagesPerSecond ?? 0) > 0, { timeoutMs: 20_000, pollMs: 100, context: logs });
    const load = loaded[0]!.load!;
    expect(load.rssBytes).toBeGreaterThan(20 * 1024 * 1024);
    expect(load.cpuCores).toBeGreaterThan(0);
    expect(load.cpuCores).toBeLessThan(4);
    expect(load.pagesPerSecond).toBeLessThan(1 / 1.5 + 0.5);
    expect(load.loopDelayP99Ms).toBeGreaterThanOrEqual(0);

    await worker.stop();
    const after = await listWorkers();
    expect(after.find((w) => w.id === "live-worker")).toMatchObject({ health: "stopped", crawls: [], load: null });
  });

  it("refuses a request without credentials", async () => {
    const { GET } = await import("@/app/api/workers/route");
    expect((await GET(apiRequest(url("/api/workers"), { anonymous: true }))).status).toBe(401);
  });
});
