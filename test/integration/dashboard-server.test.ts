/**
 * The dashboard server (lib/server/dashboard-server.ts) on a real socket, in front of a stand-in
 * app that records what reached it: the client address it sets, and how it holds sign-ins.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";
import { afterEach, describe, expect, it } from "vitest";
import { createDashboardServer, type DashboardServer } from "../../lib/server/dashboard-server";
import type { SignInHoldOptions } from "../../lib/server/sign-in-hold";
import { listenOnFreePort } from "../helpers/ports";

interface Seen {
  url: string;
  address: string | string[] | undefined;
  at: number;
}

let running: DashboardServer | undefined;
afterEach(async () => {
  await running?.close(1000);
  running = undefined;
});

/** A server whose app answers each request after `workMs` with `status`, recording what it saw and how many ran at once. */
async function serve(options: { trustedProxies?: string[]; hold?: Partial<SignInHoldOptions>; status?: number; workMs?: number; together?: number } = {}) {
  const seen: Seen[] = [];
  let inside = 0;
  let mostInside = 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    inside++;
    mostInside = Math.max(mostInside, inside);
    seen.push({ url: req.url ?? "", address: req.headers["x-forage-client-address"], at: Date.now() });
    await new Promise((resolve) => setTimeout(resolve, options.workMs ?? 0));
    // `together`: wait (up to 3 s) until that many requests are inside at once, so that overlap does not depend on the machine's speed.
    for (const until = Date.now() + 3000; options.together && mostInside < options.together && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 10));
    inside--;
    res.writeHead(options.status ?? 200, { "content-type": "text/plain" });
    res.end("ok");
  };
  running = createDashboardServer({ trustedProxies: options.trustedProxies ?? [], handle, hold: options.hold });
  await listenOnFreePort(running!.server);
  const base = `http://127.0.0.1:${(running.server.address() as AddressInfo).port}`;
  return { base, seen, mostInside: () => mostInside };
}

describe("client address", () => {
  it("replaces what the client sends with the socket's address, on every request", async () => {
    const { base, seen } = await serve();
    const response = await request(`${base}/api/crawls`, { headers: { "x-forage-client-address": "6.6.6.6", "x-forwarded-for": "7.7.7.7" } });
    await response.body.dump();
    // Sent twice (Node would join them with a comma): still only the server's value.
    const twice = await request(`${base}/api/crawls`, { headers: ["x-forage-client-address", "6.6.6.6", "X-Forage-Client-Address", "8.8.8.8"] });
    await twice.body.dump();
    expect(seen.map((s) => s.address)).toEqual(["127.0.0.1", "127.0.0.1"]);
  });

  it("takes the client from X-Forwarded-For only when the peer is a trusted proxy", async () => {
    const { base, seen } = await serve({ trustedProxies: ["127.0.0.1"] });
    const response = await request(`${base}/api/crawls`, { headers: { "x-forwarded-for": "6.6.6.6, 198.51.100.3", "x-forage-client-address": "6.6.6.6" } });
    await response.body.dump();
    expect(seen[0]!.address).toBe("198.51.100.3");
  });
});

describe("sign-in hold", () => {
  it("passes one sign-in of an address at a time, waits longer after each refusal, and answers the overflow 429 without the app", async () => {
    const hold = { maxQueuedPerAddress: 3, overflowHoldMs: 300, baseDelayMs: 100, maxDelayMs: 400 };
    // The first sign-in stays inside long enough for all twenty to have arrived, however loaded the machine.
    const { base, seen, mostInside } = await serve({ hold, status: 401, workMs: 500 });
    const agent = new Agent({ connections: 20, pipelining: 0 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const response = await request(`${base}/api/auth/sign-in`, { method: "POST", body: "{}", dispatcher: agent });
        await response.body.dump();
        return { status: response.statusCode, retryAfter: response.headers["retry-after"] };
      }),
    );
    await agent.close();
    expect(mostInside()).toBe(1);
    // One passed at once and three waited in line: the other sixteen never reached the app.
    expect(seen).toHaveLength(4);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(4);
    const overflow = answers.filter((a) => a.status === 429);
    expect(overflow).toHaveLength(16);
    expect(overflow.every((a) => Number(a.retryAfter) >= 1)).toBe(true);
    // The waits between passes grow: 100, 200, 400 ms after the first, second, third refusal.
    const gaps = seen.slice(1).map((s, i) => s.at - seen[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(100);
    expect(gaps[2]!).toBeGreaterThanOrEqual(400);
    expect(gaps[2]!).toBeGreaterThan(gaps[0]!);
  });

  it("holds nothing else: other paths, and other addresses' sign-ins, go straight through", async () => {
    // Behind a trusted proxy (this test's own socket), each X-Forwarded-For is another client.
    const { base, seen, mostInside } = await serve({ trustedProxies: ["127.0.0.1"], together: 10, status: 401 });
    const agent = new Agent({ connections: 10, pipelining: 0 });
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const response =
          i < 5
            ? await request(`${base}/api/crawls`, { dispatcher: agent })
            : await request(`${base}/api/auth/sign-in`, { method: "POST", body: "{}", headers: { "x-forwarded-for": `198.51.100.${i}` }, dispatcher: agent });
        await response.body.dump();
      }),
    );
    await agent.close();
    expect(mostInside()).toBe(10);
    expect(seen).toHaveLength(10);
  });

  it("closes connections past the per-address cap at once", async () => {
    const hold = { maxQueuedPerAddress: 1, maxHeldPerAddress: 4, overflowHoldMs: 1_000 };
    const { base, seen } = await serve({ hold, workMs: 500, status: 401 });
    const agent = new Agent({ connections: 10, pipelining: 0 });
    const started = Date.now();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, async () => {
        const response = await request(`${base}/api/auth/sign-in`, { method: "POST", body: "{}", dispatcher: agent, headersTimeout: 10_000 });
        await response.body.dump();
        return { status: response.statusCode, ms: Date.now() - started };
      }),
    );
    await agent.close();
    // One passed on, one in line, two held for a 429: the other six were closed unanswered.
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(6);
    const statuses = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.status] : [])).sort();
    expect(statuses).toEqual([401, 401, 429, 429]);
    expect(seen).toHaveLength(2);
  });
});
