/**
 * Nothing secret reaches the operator log. The built dashboard (scripts/dashboard.mjs) and a
 * `forage worker` run with JSON logs at debug/info; the test sets Forage up through its setup
 * link, signs in with a password, makes and uses an API token, sends session and other cookies,
 * runs a crawl of a site on 127.0.0.1; then reads both processes' output: the password, the
 * token, the session cookies and the setup secret appear nowhere, and the expected events do
 * (a request line per request; the crawl's claim, start, pause, resume and end with its id). The probes are
 * attacked on the real server too: no credentials, a foreign Host.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueSetupLink } from "../../lib/auth/setup-link";
import { startApp, type RunningApp } from "../helpers/app-server";
import { page, startRouteSite, type TestSite } from "../helpers/crawl-fixtures";
import { pollUntil } from "../helpers/poll-until";
import { startNodeProcess, type ManagedProcess } from "../helpers/processes";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

const EMAIL = "operator@forage.test";
const PASSWORD = "correct horse battery staple 8419";
const METRICS_TOKEN = "prometheus-scrape-secret-".padEnd(48, "q");
const LOGS = { FORAGE_LOG_FORMAT: "json", FORAGE_PRIVATE_NETWORKS: "127.0.0.1" };

let t: TestDatabase;
let app: RunningApp;
let site: TestSite;
let worker: ManagedProcess;

beforeAll(async () => {
  t = await createTestDatabase();
  // A chain of pages long enough for the crawl to be paused and resumed on its way.
  const routes: Record<string, string> = { "/": page(["/p1"]) };
  for (let i = 1; i <= 30; i++) routes[`/p${i}`] = page([`/p${i + 1}`]);
  site = await startRouteSite(routes);
  app = await startApp(t, { ...LOGS, FORAGE_LOG_LEVEL: "debug", FORAGE_METRICS_TOKEN: METRICS_TOKEN }, { withAdmin: false });
  worker = startNodeProcess(["bin/forage.mjs", "worker"], { ...LOGS, FORAGE_LOG_LEVEL: "info", DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.dir, FORAGE_WORKER_ID: "log-worker" });
});
afterAll(async () => {
  await worker?.stop();
  await app?.stop();
  await site?.close();
  await t?.dispose();
});

interface LogLine {
  level: number;
  name: string;
  msg: string;
  [field: string]: unknown;
}

/** The JSON lines of a process's output (other lines, e.g. Next.js's own, are skipped). */
function logLines(output: string): LogLine[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

/** A request with any Host header (fetch does not let one choose it). */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${app.baseUrl}${path}`, { headers }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on("error", reject);
    request.end();
  });
}

describe("operator log", () => {
  it("logs requests and a crawl's life with their ids, and never a password, token, cookie or setup secret", async () => {
    const origin = { origin: app.baseUrl, "content-type": "application/json" };
    const setupSecret = (await issueSetupLink(t.db))!;
    expect(setupSecret).toBeTruthy();
    expect((await fetch(`${app.baseUrl}/setup?token=${setupSecret}`)).status).toBe(200);
    const setup = await fetch(`${app.baseUrl}/api/auth/setup`, { method: "POST", headers: origin, body: JSON.stringify({ token: setupSecret, email: EMAIL, password: PASSWORD }) });
    expect(setup.status).toBe(201);
    const setupCookie = setup.headers.get("set-cookie")!.split(";")[0]!;

    const signIn = await fetch(`${app.baseUrl}/api/auth/sign-in`, { method: "POST", headers: origin, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    const sessionSecret = cookie.split("=")[1]!;
    const otherCookie = "tracking-id=cookie-value-that-must-not-be-logged-77";

    const created = await fetch(`${app.baseUrl}/api/tokens`, { method: "POST", headers: { ...origin, cookie: `${cookie}; ${otherCookie}` }, body: JSON.stringify({ name: "ops" }) });
    expect(created.status).toBe(201);
    const { token } = (await created.json()) as { token: string };
    const bearer = { authorization: `Bearer ${token}` };

    const crawl = await fetch(`${app.baseUrl}/api/crawls?secret=query-secret-999`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ rootUrl: site.rootUrl, budget: { requests: 12 }, politeness: { delayMs: 300 }, seed: 1 }),
    });
    expect(crawl.status).toBe(201);
    const crawlId = ((await crawl.json()) as { id: number }).id;
    const detail = async () => (await (await fetch(`${app.baseUrl}/api/crawls/${crawlId}`, { headers: bearer })).json()) as { status: string };
    const waitFor = (status: string) => pollUntil(`the crawl ${status}`, detail, (d) => d.status === status, { timeoutMs: 60_000, pollMs: 50, context: () => worker.output() });
    await waitFor("running");
    expect((await fetch(`${app.baseUrl}/api/crawls/${crawlId}/pause`, { method: "POST", headers: bearer })).status).toBe(200);
    await waitFor("paused");
    expect((await fetch(`${app.baseUrl}/api/crawls/${crawlId}/resume`, { method: "POST", headers: bearer })).status).toBe(200);
    const done = await pollUntil(
      "the crawl to end",
      detail,
      (d) => ["finished", "failed"].includes(d.status),
      { timeoutMs: 60_000, pollMs: 100, context: () => worker.output() },
    );
    expect(done.status).toBe("finished");
    expect((await fetch(`${app.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(200);
    await worker.stop();

    const dashboardOutput = app.server.output();
    const workerOutput = worker.output();
    for (const secret of [PASSWORD, token, token.slice(7, 30), sessionSecret, setupCookie.split("=")[1]!, setupSecret, "cookie-value-that-must-not-be-logged-77", "query-secret-999", METRICS_TOKEN]) {
      expect(dashboardOutput, "dashboard log").not.toContain(secret);
      expect(workerOutput, "worker log").not.toContain(secret);
    }

    const requests = logLines(dashboardOutput).filter((line) => line.msg === "request");
    const line = (method: string, path: string) => requests.find((r) => r.method === method && r.path === path);
    expect(line("POST", "/api/auth/sign-in")).toMatchObject({ name: "forage-dashboard", level: 30, status: 200, client: "127.0.0.1", requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(line("POST", "/api/auth/setup")).toMatchObject({ status: 201 });
    expect(line("GET", "/setup")).toMatchObject({ status: 200 });
    expect(line("POST", "/api/crawls")).toMatchObject({ status: 201, durationMs: expect.any(Number) });
    expect(line("GET", `/api/crawls/${crawlId}`)).toMatchObject({ status: 200 });
    for (const request of requests) expect(Object.keys(request)).not.toEqual(expect.arrayContaining(["headers"]));

    const lines = logLines(workerOutput);
    expect(lines.every((l) => l.name === "forage-worker" && l.workerId === "log-worker")).toBe(true);
    const events = lines.filter((l) => l.crawlId === crawlId).map((l) => l.msg);
    expect(events).toEqual(["crawl claimed", "crawl started", "crawl paused", "crawl resumed", "crawl finished"]);
    expect(lines.find((l) => l.msg === "crawl finished")).toMatchObject({ crawlId, reason: expect.any(String), runMs: expect.any(Number) });
    expect(lines.map((l) => l.msg)).toEqual(expect.arrayContaining(["worker started", "worker stopping: running crawls checkpoint and are handed back", "worker stopped"]));
    // Every line about the crawl names it.
    for (const l of lines.filter((l) => /crawl (claimed|started|finished|failed)/.test(l.msg))) expect(l.crawlId).toBe(crawlId);
  });
});

describe("probes on the real server", () => {
  it("answers health without credentials, refuses metrics without them, refuses a foreign Host, and times requests", async () => {
    const alive = await fetch(`${app.baseUrl}/api/health`);
    expect(alive.status).toBe(200);
    expect(await alive.json()).toMatchObject({ status: "ok" });
    expect(alive.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect((await fetch(`${app.baseUrl}/api/ready`)).status).toBe(200);
    expect((await fetch(`${app.baseUrl}/api/metrics`)).status).toBe(401);
    for (const path of ["/api/health", "/api/ready", "/api/metrics"]) {
      const refused = await rawGet(path, { host: "rebind.attacker.example", authorization: `Bearer ${METRICS_TOKEN}` });
      expect(refused.status, path).toBe(421);
    }
    const scraped = await fetch(`${app.baseUrl}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await scraped.text();
    expect(text).toMatch(/^forage_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} [1-9]\d*$/m);
    expect(text).toMatch(/^forage_http_request_duration_seconds_count\{method="GET",route="\/api\/crawls\/:id",status="200"\} [1-9]\d*$/m);
    expect(text).toMatch(/^forage_crawls\{status="finished"\} 1$/m);
  });
});
