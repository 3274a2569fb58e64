import { describe, expect, it } from "vitest";
import { FetchAbortedError, HostPoliteness, hostKey } from "../../lib/crawler/fetch";
import { pollUntil } from "../helpers/poll-until";

const A = "http://a.example/page";
const B = "http://b.example/page";

describe("HostPoliteness", () => {
  it("keys hosts by hostname and port", () => {
    expect(hostKey("https://Example.org/x")).toBe("example.org:443");
    expect(hostKey("http://example.org:8080/")).toBe("example.org:8080");
    expect(hostKey("example.org:80")).toBe("example.org:80");
  });

  it("spaces two requests to one host by the delay", async () => {
    const p = new HostPoliteness({ defaultDelayMs: 150 });
    const t0 = Date.now();
    (await p.acquire(A))();
    (await p.acquire(A))();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(148);
  });

  it("counts the delay from the end of the previous request, not its start", async () => {
    const p = new HostPoliteness({ defaultDelayMs: 150 });
    const release = await p.acquire(A);
    await new Promise((r) => setTimeout(r, 100)); // a slow response
    const ended = performance.now();
    release();
    (await p.acquire(A))();
    expect(performance.now() - ended).toBeGreaterThanOrEqual(150);
  });

  it("does not make different hosts wait for each other", async () => {
    const p = new HostPoliteness({ defaultDelayMs: 300 });
    const t0 = Date.now();
    (await p.acquire(A))();
    (await p.acquire(B))();
    expect(Date.now() - t0).toBeLessThan(50);
  });

  it("allows one request in flight per host", async () => {
    const p = new HostPoliteness({ defaultDelayMs: 0 });
    const first = await p.acquire(A);
    let second = false;
    const next = p.acquire(A).then((release) => ((second = true), release));
    // Queued behind the first (a positive sign the wait took effect), and not served meanwhile.
    await pollUntil("the second request queued", () => p.waitingFor(), (waits) => waits.length === 1, { timeoutMs: 2_000, pollMs: 5 });
    expect(second).toBe(false);
    expect(p.waitingFor()).toMatchObject([{ host: "a.example:80", reason: "politeness", waiters: 1 }]);
    first();
    (await next)();
    expect(second).toBe(true);
  });

  it("grants a zero delay synchronously, without timers", async () => {
    const p = new HostPoliteness({ defaultDelayMs: 0 });
    const t0 = performance.now();
    for (let i = 0; i < 10_000; i++) (await p.acquire(A))();
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it("uses the larger of the crawl delay and the robots Crawl-delay (capped)", async () => {
    const p = new HostPoliteness({ crawlDelayCapMs: 120 });
    (await p.acquire(A, { delayMs: 10, crawlDelayMs: 60_000 }))();
    const t0 = Date.now();
    (await p.acquire(A, { delayMs: 10, crawlDelayMs: 60_000 }))();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(115);
  });

  it("lets the larger delay win when two crawls share a host", async () => {
    const p = new HostPoliteness();
    (await p.acquire(A, { delayMs: 150, owner: "slow" }))();
    const t0 = Date.now();
    (await p.acquire(A, { delayMs: 0, owner: "fast" }))();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(145);
  });

  it("blocks a host after Retry-After and reports it as rate limited", async () => {
    const p = new HostPoliteness({ defaultDelayMs: 0 });
    p.blockHostFor(A, 150);
    const t0 = Date.now();
    const waiting = p.acquire(A, { owner: "crawl-7" });
    await pollUntil("the request queued", () => p.waitingFor(), (waits) => waits.length === 1, { timeoutMs: 2_000, pollMs: 5 });
    expect(p.waitingFor()).toMatchObject([{ host: "a.example:80", reason: "rate-limited", owners: ["crawl-7"] }]);
    (await waiting)();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(145);
    expect(p.waitingFor()).toEqual([]);
  });

  it("gives up the place in line when the wait is aborted", async () => {
    const p = new HostPoliteness({ defaultDelayMs: 5_000 });
    (await p.acquire(A))();
    const controller = new AbortController();
    const waiting = p.acquire(A, { signal: controller.signal });
    // Aborted once it waits in line.
    await pollUntil("the request queued", () => p.waitingFor(), (waits) => waits.length === 1, { timeoutMs: 2_000, pollMs: 5 });
    controller.abort();
    await expect(waiting).rejects.toBeInstanceOf(FetchAbortedError);
    expect(p.waitingFor()).toEqual([]);
    await expect(p.acquire(A, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(FetchAbortedError);
  });

  it("serves waiters of one host in order", async () => {
    const p = new HostPoliteness({ defaultDelayMs: 20 });
    const order: number[] = [];
    await Promise.all([1, 2, 3].map((n) => p.acquire(A).then((release) => (order.push(n), release()))));
    expect(order).toEqual([1, 2, 3]);
  });
});
