/**
 * The dashboard server's request log and latency observations (lib/server/dashboard-server.ts)
 * on a real socket, in front of a stand-in app: one line per request with what an operator
 * needs and nothing secret (no query, no headers), the request id replaced and returned, the
 * failure and the client that left early told apart.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../lib/log/logger";
import { createDashboardServer, REQUEST_ID_HEADER, type DashboardServer } from "../../lib/server/dashboard-server";
import { pollUntil } from "../helpers/poll-until";
import { listenOnFreePort } from "../helpers/ports";

let running: DashboardServer | undefined;
afterEach(async () => {
  await running?.close(1000);
  running = undefined;
});

interface Observed {
  method: string;
  path: string;
  status: number;
  seconds: number;
}

async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>) {
  const lines: Record<string, unknown>[] = [];
  const observed: Observed[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const log = createLogger({ name: "forage-dashboard", level: "debug", format: "json", destination: destination as never });
  running = createDashboardServer({ trustedProxies: [], handle, log, observe: (method, path, status, seconds) => observed.push({ method, path, status, seconds }) });
  await listenOnFreePort(running!.server);
  return { base: `http://127.0.0.1:${(running.server.address() as AddressInfo).port}`, lines, observed };
}

describe("request log", () => {
  it("writes one line per request: method, path without query, status, duration, client, id; never headers or query secrets", async () => {
    const seenIds: unknown[] = [];
    const { base, lines, observed } = await serve((req, res) => {
      seenIds.push(req.headers[REQUEST_ID_HEADER]);
      res.writeHead(req.url?.startsWith("/api/crawls/7") ? 200 : 404, { "content-type": "text/plain" });
      res.end("ok");
    });
    const secret = `forage_${"Z".repeat(43)}`;
    const answer = await request(`${base}/api/crawls/7/targets?token=setup-secret-123&x=1`, {
      headers: { authorization: `Bearer ${secret}`, cookie: "forage_session=cookie-secret-456", [REQUEST_ID_HEADER]: "client-chosen-id" },
    });
    await answer.body.dump();
    const missing = await request(`${base}/no/such/page`);
    await missing.body.dump();
    await pollUntil("two lines", () => lines.length, (n) => n >= 2, { timeoutMs: 5_000, pollMs: 10 });

    const text = JSON.stringify(lines);
    for (const leaked of [secret, "setup-secret-123", "cookie-secret-456", "client-chosen-id"]) expect(text).not.toContain(leaked);
    expect(lines[0]).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      name: "forage-dashboard",
      requestId: seenIds[0],
      method: "GET",
      path: "/api/crawls/7/targets",
      status: 200,
      durationMs: expect.any(Number),
      client: "127.0.0.1",
      msg: "request",
    });
    expect(answer.headers["x-request-id"]).toBe(seenIds[0]);
    expect(seenIds[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines[1]).toMatchObject({ path: "/no/such/page", status: 404 });
    expect(observed.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: "GET", path: "/api/crawls/7/targets", status: 200 },
      { method: "GET", path: "/no/such/page", status: 404 },
    ]);
    expect(observed.every((o) => o.seconds >= 0 && o.seconds < 10)).toBe(true);
  });

  it("logs a failed request at warn with the error at error level, probes at debug, and a client that left as aborted", async () => {
    let slowArrived = false;
    const { base, lines } = await serve(async (req, res) => {
      if (req.url === "/slow") slowArrived = true;
      if (req.url === "/boom") throw new Error(`database said no to Bearer forage_${"Y".repeat(43)}`);
      if (req.url === "/slow") return; // never answers: the client gives up
      res.writeHead(200);
      res.end();
    });
    await (await request(`${base}/boom`)).body.dump();
    await (await request(`${base}/api/health`)).body.dump();
    const controller = new AbortController();
    const slow = request(`${base}/slow`, { signal: controller.signal }).catch(() => undefined);
    await pollUntil("the app to hold /slow", () => slowArrived, Boolean, { timeoutMs: 5_000, pollMs: 10 });
    controller.abort();
    await slow;
    await pollUntil("four lines", () => lines.length, (n) => n >= 4, { timeoutMs: 5_000, pollMs: 10 });

    expect(lines.find((l) => l.msg === "request failed in the app")).toMatchObject({ level: 50, err: { type: "Error", message: "database said no to Bearer forage_[redacted]" } });
    expect(lines.find((l) => l.path === "/boom")).toMatchObject({ level: 40, status: 500 });
    expect(lines.find((l) => l.path === "/api/health")).toMatchObject({ level: 20, status: 200 });
    expect(lines.find((l) => l.path === "/slow")).toMatchObject({ level: 30, aborted: true });
  });
});
