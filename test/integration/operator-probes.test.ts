/**
 * The operator routes attacked and checked as an orchestrator and Prometheus use them: health
 * (alive, no credentials), ready (database, storage, worker heartbeat; deadlines against a hung
 * database), metrics (FORAGE_METRICS_TOKEN or an admin; a stranger 401, a member 403), and every
 * one of them refused for a foreign Host. Route handlers on a real database; a real silent TCP
 * server plays the hung database.
 */
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config";
import { checkReadiness } from "../../lib/observability/readiness";
import { readinessProbes } from "../../lib/observability/readiness-probes";
import { openDatabase, type Db } from "../../lib/store";
import { apiRequest, closeRouteDatabase, expectError, openRouteDatabase, routeAccount, url } from "../helpers/api-routes";
import { pollUntil } from "../helpers/poll-until";
import { createTestAccount, type TestAccount } from "../helpers/test-accounts";
import type { TestDatabase } from "../helpers/test-database";
import { listenOnFreePort } from "../helpers/ports";

const METRICS_TOKEN = "m3trics-".padEnd(48, "x");
const FOREIGN = { host: "rebind.attacker.example" };

let t: TestDatabase;
let member: TestAccount;

beforeAll(async () => {
  process.env.FORAGE_METRICS_TOKEN = METRICS_TOKEN;
  t = await openRouteDatabase();
  member = await createTestAccount(t.db, { email: "member@forage.test", role: "member" });
});
afterAll(async () => {
  await closeRouteDatabase(t);
});

const health = async (init: RequestInit & { anonymous?: boolean } = {}) => (await import("@/app/api/health/route")).GET(apiRequest(url("/api/health"), { anonymous: true, ...init }));
const ready = async (query = "", init: RequestInit & { anonymous?: boolean } = {}) => (await import("@/app/api/ready/route")).GET(apiRequest(url(`/api/ready${query}`), { anonymous: true, ...init }));
const metrics = async (init: RequestInit & { anonymous?: boolean } = {}) => (await import("@/app/api/metrics/route")).GET(apiRequest(url("/api/metrics"), init));

describe("GET /api/health", () => {
  it("answers 200 {status: ok} without credentials, and ignores a forged one", async () => {
    const response = await health();
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as { status: string; uptimeSeconds: number };
    expect(body.status).toBe("ok");
    expect(Object.keys(body).sort()).toEqual(["status", "uptimeSeconds"]);
    expect((await health({ headers: { authorization: `Bearer forage_${"A".repeat(43)}` } })).status).toBe(200);
  });

  it("refuses a foreign Host (421), like every route", async () => {
    await expectError(await health({ headers: FOREIGN }), 421, "unknown_host");
  });
});

describe("GET /api/ready", () => {
  it("is ready with database and storage up and no worker; with ?worker=required it is not (503), naming the check", async () => {
    await t.db.worker.deleteMany();
    const response = await ready();
    expect(response.status).toBe(200);
    const body = (await response.json()) as { status: string; checks: Record<string, { ok: boolean; required: boolean; detail?: string }> };
    expect(body.status).toBe("ready");
    expect(body.checks.database).toMatchObject({ ok: true, required: true });
    expect(body.checks.storage).toMatchObject({ ok: true, required: true });
    expect(body.checks.worker).toEqual(expect.objectContaining({ ok: false, required: false, detail: "no worker is running" }));

    const strict = await ready("?worker=required");
    expect(strict.status).toBe(503);
    expect(await strict.json()).toMatchObject({ status: "not-ready", failed: ["worker"], checks: { worker: { ok: false, required: true } } });
  });

  it("counts a worker whose heartbeat is fresh, not one silent for a whole lease", async () => {
    await t.db.worker.deleteMany();
    await t.db.worker.create({ data: { id: "stale", hostname: "b", pid: 2, heartbeatAt: new Date(Date.now() - 120_000), state: "running" } });
    const stale = await ready("?worker=required");
    expect(stale.status).toBe(503);
    expect(((await stale.json()) as { checks: { worker: { detail: string } } }).checks.worker.detail).toMatch(/^no worker heartbeat in the last 30 s \(freshest 1[12]\d s ago\)$/);
    await t.db.worker.create({ data: { id: "fresh", hostname: "a", pid: 1, heartbeatAt: new Date(), state: "running" } });
    const fresh = await ready("?worker=required");
    expect(fresh.status).toBe(200);
    expect(await fresh.json()).toMatchObject({ status: "ready", checks: { worker: { ok: true, required: true } } });
    await t.db.worker.deleteMany();
  });

  it("refuses an unknown ?worker value (400) and a foreign Host (421)", async () => {
    expect((await expectError(await ready("?worker=maybe"), 400, "invalid_request")).fields).toEqual({ worker: "must be required or optional" });
    await expectError(await ready("", { headers: FOREIGN }), 421, "unknown_host");
  });

  it("answers within its deadline when the database hangs, without piling up connections, and names a missing storage folder", async () => {
    // A "database" that accepts connections and never says a word.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    const port = await listenOnFreePort(silent);
    const config = loadConfig({ DATABASE_URL: `postgresql://forage:secret@127.0.0.1:${port}/forage`, FORAGE_DATA_DIR: path.join(t.dir, "no-such-folder") });
    const hung = openDatabase(config);
    hung.catch(() => undefined);
    const probes = readinessProbes(() => hung, { dataDir: config.dataDir, config: config.storage });
    try {
      const started = Date.now();
      const first = await checkReadiness(probes, { timeoutMs: 300, leaseMs: 30_000, requireWorker: false });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(first.ready).toBe(false);
      expect(first.failed).toEqual(["database", "storage"]);
      expect(first.checks.database.detail).toBe("no answer within 300 ms");
      expect(first.checks.storage.detail).toBe("failed (Error ENOENT)");
      expect(first.checks.worker).toMatchObject({ ok: false, required: false, detail: "no answer within 300 ms" });
      // Probes arriving while the database hangs wait on the runs already in flight (the database
      // check's and the worker check's: one connection each at most), instead of opening more.
      for (let i = 0; i < 5; i++) expect((await checkReadiness(probes, { timeoutMs: 100, leaseMs: 30_000, requireWorker: false })).failed).toContain("database");
      await pollUntil("the hung database reached", () => sockets.length, (count) => count >= 1, { timeoutMs: 10_000, pollMs: 20 });
      expect(sockets.length).toBeLessThanOrEqual(2);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await hung.then((db: Db) => db.$disconnect()).catch(() => undefined);
    }
  });
});

describe("GET /api/metrics", () => {
  it("refuses no credentials and forged ones (401), a wrong metrics token (401), a member (403), a foreign Host even with the right token (421)", async () => {
    await expectError(await metrics({ anonymous: true }), 401, "unauthorized");
    await expectError(await metrics({ headers: { authorization: `Bearer forage_${"A".repeat(43)}` } }), 401, "unauthorized");
    await expectError(await metrics({ headers: { authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}y` } }), 401, "unauthorized");
    await expectError(await metrics({ anonymous: true, headers: { cookie: `forage_session=${"B".repeat(43)}` } }), 401, "unauthorized");
    await expectError(await metrics({ headers: { authorization: `Bearer ${member.token}` } }), 403, "forbidden");
    await expectError(await metrics({ anonymous: true, headers: { cookie: `forage_session=${member.session}` } }), 403, "forbidden");
    await expectError(await metrics({ headers: { authorization: `Bearer ${METRICS_TOKEN}`, ...FOREIGN } }), 421, "unknown_host");
  });

  it("answers the Prometheus text to the metrics token and to an admin (token or session)", async () => {
    const readers: Record<string, string>[] = [{ authorization: `Bearer ${METRICS_TOKEN}` }, { authorization: `Bearer ${routeAccount().token}` }, { cookie: `forage_session=${routeAccount().session}` }];
    for (const headers of readers) {
      const response = await metrics({ anonymous: true, headers });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await response.text()).toMatch(/^# HELP forage_crawls Crawls stored, by status$/m);
    }
  });

  it("counts crawls, requests, errors, targets, bytes, the queue, webhooks and workers from the database", async () => {
    const old = new Date(Date.now() - 90_000);
    const base = { rootUrl: "https://example.org/", config: "{}", strategy: "sb", seed: 1 };
    await t.db.crawl.createMany({
      data: [
        { ...base, status: "queued", createdAt: old },
        { ...base, status: "queued" },
        { ...base, status: "running", getCount: 10, headCount: 3, errorsCount: 2, robotsSkips: 1, targetsCount: 4, targetBytes: 4000n, nonTargetBytes: 500n },
        { ...base, status: "finished", getCount: 100, headCount: 7, errorsCount: 5, targetsCount: 40, targetBytes: 5_000_000_000n, nonTargetBytes: 1500n },
        { ...base, status: "finished", getCount: 1 },
      ],
    });
    const running = await t.db.crawl.findFirstOrThrow({ where: { status: "running" } });
    await t.db.crawlEvent.createMany({ data: [1, 2].map(() => ({ crawlId: running.id, level: "warn", kind: "waiting", message: "Waiting for example.org (rate limited)" })) });
    const harvest = await t.db.harvest.create({ data: { name: "h", config: "{}", webhookUrl: "https://hooks.example/x?token=s3cr3t" } });
    const finished = await t.db.crawl.findMany({ where: { status: "finished" }, select: { id: true } });
    const delivery = (crawlId: number, state: string, attempts: number) => ({ harvestId: harvest.id, crawlId, url: "https://hooks.example/x", payload: "{}", state, attempts, nextAttemptAt: new Date() });
    await t.db.webhookDelivery.createMany({ data: [delivery(finished[0]!.id, "delivered", 2), delivery(finished[1]!.id, "gave-up", 5), delivery(running.id, "pending", 1)] });
    await t.db.worker.createMany({
      data: [
        {
          id: "w-live",
          hostname: "a",
          pid: 1,
          heartbeatAt: new Date(Date.now() - 2_000),
          loadSampledAt: new Date(Date.now() - 2_000),
          crawlsHeld: 12,
          pagesPerSecond: 3.5,
          cpuCores: 0.75,
          rssBytes: 300 * 1024 * 1024,
          loopDelayP99Ms: 42,
        },
        { id: "w-silent", hostname: "b", pid: 2, heartbeatAt: new Date(Date.now() - 120_000) },
        { id: "w-gone", hostname: "c", pid: 3, state: "stopped" },
      ],
    });

    const text = await (await metrics()).text();
    const value = (series: string) => {
      const line = text.split("\n").find((l) => l.startsWith(`${series} `));
      if (!line) throw new Error(`no ${series} in\n${text}`);
      return Number(line.slice(series.length + 1));
    };
    expect(value('forage_crawls{status="queued"}')).toBe(2);
    expect(value('forage_crawls{status="running"}')).toBe(1);
    expect(value('forage_crawls{status="finished"}')).toBe(2);
    expect(value('forage_crawls{status="cancelled"}')).toBe(0);
    expect(value("forage_crawl_queue_depth")).toBe(2);
    expect(value("forage_crawl_queue_oldest_age_seconds")).toBeGreaterThanOrEqual(89);
    expect(value('forage_crawl_requests{status="finished",method="GET"}')).toBe(101);
    expect(value('forage_crawl_requests{status="running",method="HEAD"}')).toBe(3);
    expect(value('forage_crawl_request_errors{status="running",kind="error"}')).toBe(2);
    expect(value('forage_crawl_request_errors{status="running",kind="robots-disallowed"}')).toBe(1);
    expect(value('forage_crawl_targets{status="finished"}')).toBe(40);
    expect(value('forage_crawl_bytes{status="finished",kind="target"}')).toBe(5_000_000_000);
    expect(value('forage_crawl_bytes{status="running",kind="non-target"}')).toBe(500);
    expect(value('forage_webhook_deliveries{state="delivered"}')).toBe(1);
    expect(value('forage_webhook_deliveries{state="gave-up"}')).toBe(1);
    expect(value('forage_webhook_deliveries{state="pending"}')).toBe(1);
    expect(value("forage_webhook_failed_attempts")).toBe(7);
    expect(value('forage_worker_heartbeat_age_seconds{worker="w-live"}')).toBeLessThan(30);
    expect(value('forage_worker_heartbeat_age_seconds{worker="w-silent"}')).toBeGreaterThanOrEqual(120);
    expect(value('forage_worker_crawls_held{worker="w-live"}')).toBe(12);
    expect(value('forage_worker_pages_per_second{worker="w-live"}')).toBe(3.5);
    expect(value('forage_worker_cpu_cores{worker="w-live"}')).toBe(0.75);
    expect(value('forage_worker_resident_memory_bytes{worker="w-live"}')).toBe(300 * 1024 * 1024);
    expect(value('forage_worker_event_loop_delay_p99_seconds{worker="w-live"}')).toBe(0.042);
    // A worker that never sent its load has no load series (not zeros that look like an idle worker).
    expect(text).not.toContain('forage_worker_cpu_cores{worker="w-silent"}');
    expect(text).not.toContain('worker="w-gone"');
    expect(value('forage_workers{health="running"}')).toBe(1);
    expect(value('forage_workers{health="unresponsive"}')).toBe(1);
    expect(value("forage_crawl_rate_limit_waits")).toBe(2);
    expect(value("forage_hosts_rate_limited")).toBe(0);
    expect(value("forage_metrics_database_seconds")).toBeGreaterThan(0);
    expect(text).toMatch(/^# TYPE forage_http_request_duration_seconds histogram$/m);
    expect(text).toMatch(/^forage_dashboard_process_resident_memory_bytes \d+/m);
    expect(text).not.toContain("s3cr3t");
  });

  it("scrapes a database of 50,000 crawls with bounded cost", async () => {
    const finishedBefore = await t.db.crawl.count({ where: { status: "finished" } });
    // Rows made by the database itself (the same SQL on SQLite and PostgreSQL): an eighth of the crawls paused, three eighths finished.
    const status = "CASE x % 8 WHEN 0 THEN 'queued' WHEN 1 THEN 'running' WHEN 2 THEN 'paused' WHEN 3 THEN 'failed' WHEN 4 THEN 'cancelled' ELSE 'finished' END";
    await t.db.$executeRawUnsafe(
      `WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM s WHERE x < 50000)
       INSERT INTO "Crawl" ("rootUrl", "config", "strategy", "seed", "status", "getCount", "targetsCount", "targetBytes", "createdAt", "updatedAt")
       SELECT 'https://example.org/', '{}', 'sb', 1, ${status}, 500, 20, 10000000, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP FROM s`,
    );
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const response = await metrics();
      expect(response.status).toBe(200);
      const text = await response.text();
      times.push(performance.now() - started);
      expect(text).toContain(`\nforage_crawls{status="finished"} ${finishedBefore + 18_750}\n`);
      expect(text).toContain(`\nforage_crawls{status="paused"} 6250\n`);
    }
    expect(Math.min(...times)).toBeLessThan(2_000);
  });
});
