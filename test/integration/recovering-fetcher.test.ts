import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { HttpFetcher } from "../../lib/crawler/fetch/http-fetcher";
import { RecoveringFetcher, recoveringPoliteness, type LoggedAnswer, type RecoveryEnd } from "../../lib/crawler/fetch/recovering-fetcher";
import { fetchWithRetry } from "../../lib/crawler/fetch/retry";
import type { FetchMethod, FetchRequest, FetchResult } from "../../lib/crawler/fetch/types";
import { listenOnFreePort } from "../helpers/ports";

/** A small site that counts what it serves: a page with a cookie, a CSV target, a redirect, a rate limit, robots.txt. */
const served = new Map<string, number>();
let server: http.Server;
let origin: string;
let dir: string;
const live = new HttpFetcher({ allowPrivateNetwork: true });

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-recovering-"));
  server = http.createServer((req, res) => {
    const key = `${req.method} ${req.url}`;
    served.set(key, (served.get(key) ?? 0) + 1);
    const send = (status: number, headers: Record<string, string>, body = "") => {
      res.writeHead(status, { "content-length": String(Buffer.byteLength(body)), ...headers });
      res.end(req.method === "HEAD" ? undefined : body);
    };
    if (req.url === "/page.html") send(200, { "content-type": "text/html; charset=utf-8", "set-cookie": "session=abc; Path=/" }, `<html><body><a href="/file.csv">data</a> ${"x".repeat(3000)}</body></html>`);
    else if (req.url === "/file.csv") send(200, { "content-type": "text/csv" }, "year,value\n" + Array.from({ length: 500 }, (_, i) => `${2000 + i},${i * 7}`).join("\n"));
    else if (req.url === "/moved") send(302, { location: "/page.html", "content-type": "text/plain" }, "moved");
    else if (req.url === "/busy") send(429, { "retry-after": "1", "content-type": "text/plain" }, "slow down");
    else if (req.url === "/robots.txt") send(200, { "content-type": "text/plain" }, "User-agent: *\nDisallow: /private\n");
    else send(404, { "content-type": "text/plain" }, "not here");
  });
  await listenOnFreePort(server);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await live.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A request as the engine's request runner makes it: HTML pages buffered, CSV targets streamed into `files`. */
function engineRequest(method: FetchMethod, pathname: string, files: Buffer[]): FetchRequest {
  return {
    method,
    url: `${origin}${pathname}`,
    maxBodyBytes: 1 << 20,
    blockedMimePrefixes: ["image/"],
    wantBody: (mime, head) => (head.status < 200 || head.status >= 300 ? false : mime === "text/csv" ? "stream" : mime === "text/html"),
    openSink: () => {
      const chunks: Buffer[] = [];
      return new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          callback();
        },
        final(callback) {
          files.push(Buffer.concat(chunks));
          callback();
        },
      });
    },
  };
}

const robotsRequest = (): FetchRequest => ({ method: "GET", url: `${origin}/robots.txt`, maxBodyBytes: 1000, overflow: "truncate", blockedMimePrefixes: [], wantBody: () => true });

/** What the request log keeps of a live answer (the store's rows hold the same). */
function logged(result: FetchResult, stored: Buffer | null): LoggedAnswer {
  let targetFile: string | null = null;
  if (result.streamed && stored) {
    targetFile = path.join(dir, `target-${served.size}-${Math.random()}`);
    fs.writeFileSync(targetFile, stored);
  }
  const body = result.body;
  return {
    method: result.method,
    url: result.url,
    status: result.status,
    mime: result.mime,
    headers: { ...result.headers },
    outcome: result.outcome,
    error: result.error ? { code: result.error.code, message: result.error.message } : null,
    bytes: result.wireBytes + result.headerBytes,
    durationMs: Math.round(result.durationMs),
    readPage: body ? () => Buffer.from(body) : null,
    targetFile,
  };
}

/** Fetches live and logs: the answers a crashed run wrote before it died. */
async function recordLive(requests: [FetchMethod, string][]): Promise<{ answers: LoggedAnswer[]; results: FetchResult[]; files: Buffer[] }> {
  const answers: LoggedAnswer[] = [];
  const results: FetchResult[] = [];
  const files: Buffer[] = [];
  for (const [method, pathname] of requests) {
    const before = files.length;
    const result = await live.fetch(engineRequest(method, pathname, files));
    results.push(result);
    answers.push(logged(result, files[before] ?? null));
  }
  return { answers, results, files };
}

function recovering(answers: LoggedAnswer[], politeness = new HostPoliteness({ defaultDelayMs: 0 })) {
  const ends: RecoveryEnd[] = [];
  let releases = 0;
  const fetcher = new RecoveringFetcher(politeness, { answers, release: () => void (releases += 1) }, (end) => ends.push(end)).over(live);
  return { fetcher, ends, releases: () => releases };
}

const servedCount = () => [...served.values()].reduce((sum, count) => sum + count, 0);
/** The parts of a result the engine reads. */
const seen = (result: FetchResult) => ({ ...result, durationMs: 0, body: result.body?.toString("utf8") ?? null });

describe("RecoveringFetcher: a resumed crawl's repeated requests answered from the request log (real HTTP)", () => {
  it("answers the logged requests in order exactly as the site did (pages, streamed targets, redirects, rate limits, HEAD) without asking the site", async () => {
    const requests: [FetchMethod, string][] = [["GET", "/page.html"], ["HEAD", "/file.csv"], ["GET", "/file.csv"], ["GET", "/moved"], ["GET", "/busy"], ["GET", "/nothing"]];
    const original = await recordLive(requests);
    expect(original.files).toHaveLength(1);
    const { fetcher, ends, releases } = recovering(original.answers);
    const servedBefore = servedCount();
    const files: Buffer[] = [];
    for (const [i, [method, pathname]] of requests.entries()) {
      const replayed = await fetcher.fetch(engineRequest(method, pathname, files));
      expect(seen(replayed)).toEqual({ ...seen(original.results[i]!), durationMs: 0 });
      expect(replayed.durationMs).toBe(Math.round(original.results[i]!.durationMs));
    }
    expect(files).toEqual(original.files);
    expect(servedCount()).toBe(servedBefore);
    expect(ends).toEqual([{ answered: requests.length, left: 0, reason: "exhausted", divergedAt: null, ms: expect.any(Number) }]);
    expect(releases()).toBe(1);
    expect(fetcher.recovering).toBe(false);
  });

  it("goes to the site for good at the first request that is not the next logged one, even for later requests the log holds", async () => {
    const { answers } = await recordLive([["GET", "/page.html"], ["GET", "/file.csv"]]);
    const { fetcher, ends } = recovering(answers);
    const files: Buffer[] = [];
    const before = { page: served.get("GET /page.html") ?? 0, csv: served.get("GET /file.csv") ?? 0, moved: served.get("GET /moved") ?? 0 };
    await fetcher.fetch(engineRequest("GET", "/page.html", files));
    const moved = await fetcher.fetch(engineRequest("GET", "/moved", files));
    await fetcher.fetch(engineRequest("GET", "/file.csv", files));
    expect(moved.location).toBe(`${origin}/page.html`);
    expect({ page: served.get("GET /page.html"), csv: served.get("GET /file.csv"), moved: served.get("GET /moved") }).toEqual({ page: before.page, csv: before.csv + 1, moved: before.moved + 1 });
    expect(ends).toEqual([{ answered: 1, left: 1, reason: "diverged", divergedAt: `GET ${origin}/moved`, ms: expect.any(Number) }]);
  });

  it("asks the site when the log cannot answer in full: another method, a page body not kept or unreadable, a target file gone, an interrupted attempt", async () => {
    const { answers } = await recordLive([["HEAD", "/page.html"], ["GET", "/page.html"], ["GET", "/file.csv"]]);
    const cases: [string, LoggedAnswer, FetchMethod, string][] = [
      ["another method", answers[0]!, "GET", "/page.html"],
      ["another method", answers[2]!, "HEAD", "/file.csv"],
      ["no page body", { ...answers[1]!, readPage: null }, "GET", "/page.html"],
      ["no target file", { ...answers[2]!, targetFile: path.join(dir, "gone") }, "GET", "/file.csv"],
      ["no headers kept", { ...answers[1]!, headers: null }, "GET", "/page.html"],
      ["page pack unreadable", { ...answers[1]!, readPage: () => { throw new Error("page pack is truncated"); } }, "GET", "/page.html"],
      ["target file unreadable", { ...answers[2]!, targetFile: dir }, "GET", "/file.csv"],
      ["aborted", { ...answers[1]!, outcome: "error", error: { code: "aborted", message: "Aborted by the caller" } }, "GET", "/page.html"],
    ];
    for (const [what, answer, method, pathname] of cases) {
      const { fetcher, ends } = recovering([answer]);
      const key = `${method} ${pathname}`;
      const before = served.get(key) ?? 0;
      const files: Buffer[] = [];
      const result = await fetcher.fetch(engineRequest(method, pathname, files));
      expect({ what, served: served.get(key), status: result.status }).toEqual({ what, served: before + 1, status: 200 });
      if (method === "GET" && pathname === "/file.csv") expect(files.at(-1)?.toString()).toMatch(/^year,value\n2000,0\n/);
      expect(ends.map((end) => end.reason)).toEqual(["diverged"]);
    }
  });

  it("sends robots.txt fetches to the site and keeps recovering", async () => {
    const { answers } = await recordLive([["GET", "/page.html"]]);
    const { fetcher, ends } = recovering(answers);
    const before = served.get("GET /robots.txt") ?? 0;
    const robots = await fetcher.fetch(robotsRequest());
    expect(robots.body?.toString()).toContain("Disallow: /private");
    expect(served.get("GET /robots.txt")).toBe(before + 1);
    expect(fetcher.recovering).toBe(true);
    await fetcher.fetch(engineRequest("GET", "/page.html", []));
    expect(ends.map((end) => end.reason)).toEqual(["exhausted"]);
  });

  it("does not wait for the host's politeness slot for logged answers, nor let a logged rate limit block the host; a request it cannot answer waits as usual", async () => {
    const delayMs = 600;
    const shared = new HostPoliteness();
    const { answers } = await recordLive([["GET", "/page.html"], ["GET", "/busy"], ["HEAD", "/page.html"]]);
    const { fetcher } = recovering(answers, shared);
    const politeness = recoveringPoliteness(shared, fetcher);
    const timed = async (method: FetchMethod, pathname: string) => {
      const started = performance.now();
      const { result } = await fetchWithRetry(fetcher, engineRequest(method, pathname, []), { politeness, delayMs, policy: { maxRetries: 0 } });
      return { status: result.status, ms: performance.now() - started };
    };
    // The host's slot was just taken: a live request now would wait `delayMs`.
    (await shared.acquire(origin, { delayMs }))();
    expect((await timed("GET", "/page.html")).ms).toBeLessThan(delayMs / 2);
    const busy = await timed("GET", "/busy");
    expect(busy).toMatchObject({ status: 429 });
    expect(busy.ms).toBeLessThan(delayMs / 2);
    // Another method than the log's: the site answers, after the wait the skipped slot still owed.
    const owed = await timed("GET", "/page.html");
    expect(owed.status).toBe(200);
    expect(owed.ms).toBeGreaterThan(delayMs * 0.8);
    expect(owed.ms).toBeLessThan(900); // no Retry-After block (1 s) from the logged 429

    // The control: a live 429 blocks the host for its Retry-After.
    const plain = new HostPoliteness();
    await fetchWithRetry(live, engineRequest("GET", "/busy", []), { politeness: plain, delayMs: 0, policy: { maxRetries: 0 } });
    const started = performance.now();
    (await plain.acquire(origin, { delayMs: 0 }))();
    expect(performance.now() - started).toBeGreaterThan(800);
  });
});
