import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AttemptRecord,
  type FetchResult,
  emptyFetchResult,
  fetchWithRetry,
  HostPoliteness,
  HttpFetcher,
  parseRetryAfterMs,
  retryDelayMs,
  retryPolicySchema,
  shouldRetry,
} from "../../lib/crawler/fetch";
import { freePort, listenOnFreePort } from "../helpers/ports";

/** Per-path count of requests; `/flaky-N` fails N times with the status in the query. */
const counts = new Map<string, number>();
let server: http.Server;
let base: string;
const fetcher = new HttpFetcher({ allowPrivateNetwork: true });
const policy = { baseDelayMs: 20, maxRetryAfterMs: 100, random: () => 0.5 };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const n = (counts.get(url.pathname) ?? 0) + 1;
    counts.set(url.pathname, n);
    const failures = Number(url.pathname.split("-")[1] ?? 0);
    if (n <= failures) {
      const headers: Record<string, string> = {};
      if (url.searchParams.has("after")) headers["retry-after"] = url.searchParams.get("after")!;
      res.writeHead(Number(url.searchParams.get("status") ?? 503), headers).end("later");
      return;
    }
    if (url.pathname === "/reset") return void req.socket.destroy();
    res.writeHead(200, { "content-type": "text/html" }).end("ok");
  });
  await listenOnFreePort(server);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await fetcher.close();
  await new Promise((resolve) => server.close(resolve));
});

const request = (path: string) => ({ method: "GET" as const, url: base + path, maxBodyBytes: 1024, blockedMimePrefixes: [] });

describe("retries", () => {
  it("retries a 503 after its Retry-After (capped) and records every attempt", async () => {
    const seen: AttemptRecord[] = [];
    const t0 = Date.now();
    const { result, attempts } = await fetchWithRetry(fetcher, request("/a-2?after=1"), { policy, onAttempt: (a) => void seen.push(a) });
    const elapsed = Date.now() - t0;
    expect(result).toMatchObject({ status: 200, outcome: "ok" });
    expect(attempts.map((a) => [a.attempt, a.status, a.retryInMs])).toEqual([
      [1, 503, 100],
      [2, 503, 100],
      [3, 200, null],
    ]);
    expect(seen).toEqual(attempts);
    expect(elapsed).toBeGreaterThanOrEqual(195); // Retry-After: 1 s cut to the 100 ms cap, twice
    expect(counts.get("/a-2")).toBe(3);
  });

  it("honours 429 through the host clock, which shows the host as rate limited", async () => {
    const politeness = new HostPoliteness({ defaultDelayMs: 0 });
    const waits: string[] = [];
    const done = fetchWithRetry(fetcher, request("/b-1?status=429&after=1"), {
      policy,
      politeness,
      owner: "crawl-1",
      onAttempt: () => void setTimeout(() => waits.push(...politeness.waitingFor().map((w) => `${w.reason}:${w.owners}`)), 20),
    });
    const { result, attempts } = await done;
    expect(attempts.map((a) => a.status)).toEqual([429, 200]);
    expect(result.status).toBe(200);
    expect(waits).toContain("rate-limited:crawl-1");
  });

  it("gives up after maxRetries and returns the last response", async () => {
    const { result, attempts } = await fetchWithRetry(fetcher, request("/c-9"), { policy: { ...policy, maxRetries: 2 } });
    expect(attempts).toHaveLength(3);
    expect(result.status).toBe(503);
    expect(attempts.at(-1)?.retryInMs).toBeNull();
  });

  it("retries network errors (connection reset, refused) then gives up", async () => {
    const reset = await fetchWithRetry(fetcher, request("/reset"), { policy: { ...policy, maxRetries: 1 } });
    expect(reset.attempts.map((a) => a.error?.code)).toEqual(["connection-reset", "connection-reset"]);
    const deadPort = await freePort(); // nothing listens there
    const refused = await fetchWithRetry(
      fetcher,
      { ...request("/"), url: `http://127.0.0.1:${deadPort}/` },
      { policy: { ...policy, maxRetries: 2 } },
    );
    expect(refused.attempts.map((a) => a.error?.code)).toEqual(Array(3).fill("connection-refused"));
    expect(refused.result.outcome).toBe("error");
  });

  it("does not retry 404, private-network refusals, or when the budget says stop", async () => {
    expect((await fetchWithRetry(fetcher, request("/d-5?status=404"), { policy })).attempts).toHaveLength(1);
    const strict = new HttpFetcher();
    expect((await fetchWithRetry(strict, request("/"), { policy })).attempts).toHaveLength(1);
    await strict.close();
    expect((await fetchWithRetry(fetcher, request("/e-5"), { policy, canRetry: () => false })).attempts).toHaveLength(1);
  });

  it("does not retry a response that is not HTTP", async () => {
    const sockets: net.Socket[] = [];
    const garbage = net.createServer((socket) => void sockets.push(socket.end("SSH-2.0-OpenSSH\r\n\r\n")));
    await listenOnFreePort(garbage);
    const url = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}/`;
    const { attempts } = await fetchWithRetry(fetcher, { ...request("/"), url }, { policy });
    garbage.close();
    for (const socket of sockets) socket.destroy();
    expect(attempts.map((a) => a.error?.code)).toEqual(["protocol-error"]);
  });

  it("stops waiting when aborted between attempts", async () => {
    const controller = new AbortController();
    const slow = { ...policy, baseDelayMs: 5_000 };
    const run = fetchWithRetry(fetcher, { ...request("/f-5"), signal: controller.signal }, { policy: slow, onAttempt: () => controller.abort() });
    await expect(run).rejects.toMatchObject({ code: "aborted" });
  });
});

describe("retry policy", () => {
  const result = (patch: Partial<FetchResult>): FetchResult => ({ ...emptyFetchResult({ url: "http://x/", method: "GET" }), status: 200, ...patch });
  const p = retryPolicySchema.parse({ random: () => 1 });

  it("decides from the status, the error class and the attempt count", () => {
    expect(shouldRetry(result({ status: 503 }), 1, p)).toBe(true);
    expect(shouldRetry(result({ status: 503 }), 4, p)).toBe(false);
    expect(shouldRetry(result({ status: 500 }), 1, p)).toBe(false);
    expect(shouldRetry(result({ outcome: "too-large" }), 1, p)).toBe(false);
    const timeout = result({ outcome: "error", error: { code: "headers-timeout", message: "", retryable: true } });
    expect(shouldRetry(timeout, 1, p)).toBe(true);
  });

  it("backs off exponentially with jitter, or uses Retry-After capped", () => {
    expect([1, 2, 3].map((n) => retryDelayMs(result({ status: 503 }), n, p))).toEqual([1000, 2000, 4000]);
    const half = retryPolicySchema.parse({ random: () => 0 });
    expect(retryDelayMs(result({ status: 503 }), 1, half)).toBe(500);
    expect(retryDelayMs(result({ status: 429, headers: { "retry-after": "3600" } }), 1, p)).toBe(60_000);
  });

  it("parses Retry-After seconds and HTTP dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfterMs("7", now)).toBe(7000);
    expect(parseRetryAfterMs("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfterMs("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfterMs("soon", now)).toBeNull();
    expect(parseRetryAfterMs(undefined, now)).toBeNull();
  });
});
