import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_USER_AGENT, type FetchRequest, HttpFetcher } from "../../lib/crawler/fetch";
import { notedBodySha256 } from "../../lib/crawler/fetch/body-digest";
import type { ExchangeRecorder } from "../../lib/crawler/fetch/exchange-recorder";
import { listenOnFreePort } from "../helpers/ports";

const events: string[] = [];
const seenHeaders: http.IncomingHttpHeaders[] = [];

/** Streams `total` bytes in 1 KiB chunks every `everyMs`, logging when the client goes away. */
function slowBody(res: http.ServerResponse, name: string, everyMs: number, total: number) {
  let sent = 0;
  const timer = setInterval(() => {
    if (sent >= total) return void (clearInterval(timer), res.end());
    res.write(Buffer.alloc(1024, 97));
    sent += 1024;
  }, everyMs);
  res.on("close", () => {
    clearInterval(timer);
    events.push(`${name} closed after ${sent}`);
  });
}

const routes: Record<string, http.RequestListener> = {
  "/page": (req, res) => {
    seenHeaders.push(req.headers);
    res.writeHead(200, { "content-type": " Text/HTML ; charset=UTF-8" }).end("<html>hi</html>");
  },
  "/no-type": (_req, res) => res.end("plain"),
  "/gzip": (_req, res) => res.writeHead(200, { "content-type": "text/csv", "content-encoding": "gzip" }).end(zlib.gzipSync("a,b\n1,2\n")),
  "/br": (_req, res) => res.writeHead(200, { "content-type": "text/csv", "content-encoding": "br" }).end(zlib.brotliCompressSync("brotli body")),
  "/deflate": (_req, res) => res.writeHead(200, { "content-encoding": "deflate" }).end(zlib.deflateSync("deflated")),
  "/corrupt-gzip": (_req, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(Buffer.from("definitely not gzip")),
  "/bomb": (_req, res) => res.writeHead(200, { "content-encoding": "gzip" }).end(zlib.gzipSync(Buffer.alloc(20 * 1024 * 1024))),
  "/image": (_req, res) => {
    res.writeHead(200, { "content-type": "image/jpeg" });
    slowBody(res, "image", 20, 10 * 1024 * 1024);
  },
  "/big-length": (_req, res) => {
    res.writeHead(200, { "content-type": "application/pdf", "content-length": String(5 * 1024 * 1024) });
    slowBody(res, "big-length", 20, 5 * 1024 * 1024);
  },
  "/big-chunked": (_req, res) => {
    res.writeHead(200, { "content-type": "application/pdf" });
    for (let i = 0; i < 64; i++) res.write(Buffer.alloc(1024));
    slowBody(res, "big-chunked", 20, 10 * 1024 * 1024);
  },
  "/redirect": (_req, res) => res.writeHead(301, { location: "../target?x=1" }).end(),
  "/slow-headers": (_req, res) => void setTimeout(() => res.end("late"), 2000),
  "/stalled-body": (_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.write("<html>");
  },
  "/file": (_req, res) => res.writeHead(200, { "content-type": "text/csv" }).end(Buffer.alloc(300 * 1024, 120)),
};

let server: http.Server;
let base: string;
// undici checks timeouts on a ~0.5 s tick, so 300 ms fires after 0.5–1 s.
const fetcher = new HttpFetcher({ allowPrivateNetwork: true, headersTimeoutMs: 300, bodyTimeoutMs: 300 });

function get(path: string, extra: Partial<FetchRequest> = {}) {
  return fetcher.fetch({ method: "GET", url: base + path, maxBodyBytes: 1024 * 1024, blockedMimePrefixes: ["image/"], ...extra });
}

beforeAll(async () => {
  server = http.createServer((req, res) => (routes[req.url ?? ""] ?? ((_q, r) => r.writeHead(404).end()))(req, res));
  await listenOnFreePort(server);
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await fetcher.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("HttpFetcher", () => {
  it("GETs a page, parses the Content-Type and sends the Forage User-Agent", async () => {
    const r = await get("/page");
    expect(r).toMatchObject({ status: 200, outcome: "ok", mime: "text/html", bodyBytes: 15, location: null });
    expect(r.body?.toString()).toBe("<html>hi</html>");
    expect(r.headers["content-type"]).toContain("charset=UTF-8");
    expect(r.headerBytes).toBeGreaterThan(50);
    expect(seenHeaders.at(-1)?.["user-agent"]).toBe(DEFAULT_USER_AGENT);
    expect(seenHeaders.at(-1)?.["accept-encoding"]).toBe("gzip, deflate, br");
  });

  it("notes a body's SHA-256 from the recorder's payload digest only when the body is that payload", async () => {
    /** Hashes what it is handed, as a web archive does for its payload digest. */
    const hashing: ExchangeRecorder = {
      open() {
        const hash = createHash("sha256");
        let digest: string | null = null;
        return { chunk: (bytes) => void hash.update(bytes), end: () => void (digest = hash.digest("hex")), payloadSha256: () => digest };
      },
    };
    const plain = await get("/page", { recorder: hashing });
    expect(notedBodySha256(plain.body!)).toBe(createHash("sha256").update("<html>hi</html>").digest("hex"));
    // A gzip body's payload is its compressed bytes: nothing noted, the page store hashes the body itself.
    const coded = await get("/gzip", { recorder: hashing });
    expect(coded.body?.toString()).toBe("a,b\n1,2\n");
    expect(notedBodySha256(coded.body!)).toBeUndefined();
    expect(notedBodySha256((await get("/page")).body!)).toBeUndefined();
  });

  it("reports an empty mime when Content-Type is absent", async () => {
    expect((await get("/no-type")).mime).toBe("");
  });

  it("HEAD returns headers without a body", async () => {
    const r = await fetcher.fetch({ method: "HEAD", url: `${base}/page`, maxBodyBytes: 10, blockedMimePrefixes: [] });
    expect(r).toMatchObject({ method: "HEAD", status: 200, mime: "text/html", body: null, bodyBytes: 0, outcome: "ok" });
  });

  it.each([
    ["/gzip", "a,b\n1,2\n"],
    ["/br", "brotli body"],
    ["/deflate", "deflated"],
  ])("decodes %s bodies and counts wire bytes separately", async (path, text) => {
    const r = await get(path);
    expect(r.outcome).toBe("ok");
    expect(r.body?.toString()).toBe(text);
    expect(r.bodyBytes).toBe(text.length);
    expect(r.wireBytes).toBeGreaterThan(0);
    expect(r.wireBytes).not.toBe(r.bodyBytes);
  });

  it("reports a corrupt gzip body as a non-retryable decode error", async () => {
    const r = await get("/corrupt-gzip");
    expect(r.outcome).toBe("error");
    expect(r.error).toMatchObject({ code: "decode-error", retryable: false });
  });

  it("stops a decompression bomb at maxBodyBytes of decoded data", async () => {
    const r = await get("/bomb");
    expect(r).toMatchObject({ outcome: "too-large", body: null });
    expect(r.bodyBytes).toBeLessThanOrEqual(1024 * 1024);
  });

  it("aborts a blocked MIME type as soon as headers arrive", async () => {
    const t0 = Date.now();
    const r = await get("/image");
    expect(Date.now() - t0).toBeLessThan(500);
    expect(r).toMatchObject({ status: 200, mime: "image/jpeg", outcome: "blocked-mime", body: null });
    await expect.poll(() => events.find((e) => e.startsWith("image closed")), { timeout: 1000 }).toBeTruthy();
    const sent = Number(events.find((e) => e.startsWith("image closed"))?.split(" ").at(-1));
    expect(sent).toBeLessThan(100 * 1024);
  });

  it("refuses a body whose Content-Length exceeds the limit without reading it", async () => {
    const t0 = Date.now();
    const r = await get("/big-length");
    expect(Date.now() - t0).toBeLessThan(500);
    expect(r).toMatchObject({ outcome: "too-large", body: null });
    await expect.poll(() => events.some((e) => e.startsWith("big-length closed")), { timeout: 1000 }).toBe(true);
  });

  it("aborts a chunked body once it passes the limit", async () => {
    const r = await get("/big-chunked", { maxBodyBytes: 66 * 1024 });
    expect(r).toMatchObject({ outcome: "too-large", body: null });
    expect(r.wireBytes).toBeGreaterThan(66 * 1024);
    await expect.poll(() => events.some((e) => e.startsWith("big-chunked closed")), { timeout: 1000 }).toBe(true);
  });

  it("truncates instead of aborting when asked (robots.txt)", async () => {
    const r = await get("/file", { maxBodyBytes: 1000, overflow: "truncate" });
    expect(r).toMatchObject({ outcome: "ok", truncated: true, bodyBytes: 1000 });
    expect(r.body?.length).toBe(1000);
  });

  it("does not follow redirects and resolves Location to an absolute URL", async () => {
    const r = await get("/redirect");
    expect(r).toMatchObject({ status: 301, outcome: "ok", location: `${base}/target?x=1` });
  });

  it("times out waiting for headers", async () => {
    const r = await get("/slow-headers");
    expect(r.outcome).toBe("error");
    expect(r.error).toMatchObject({ code: "headers-timeout", retryable: true });
  });

  it("times out when the body stalls, keeping the headers it got", async () => {
    const r = await get("/stalled-body");
    expect(r).toMatchObject({ status: 200, outcome: "error", error: { code: "body-timeout" } });
    expect(r.wireBytes).toBe(6);
  });

  it("streams a body into the caller's sink instead of memory", async () => {
    const received: Buffer[] = [];
    const sink = new Writable({ write: (chunk, _enc, cb) => (received.push(chunk), cb()) });
    const r = await get("/file", { wantBody: () => "stream", openSink: () => sink });
    expect(r).toMatchObject({ outcome: "ok", streamed: true, body: null, bodyBytes: 300 * 1024 });
    expect(Buffer.concat(received).length).toBe(300 * 1024);
    expect(sink.writableFinished).toBe(true);
  });

  it("destroys the sink when a streamed body is too large", async () => {
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    sink.on("error", () => {});
    const r = await get("/file", { maxBodyBytes: 100 * 1024, wantBody: () => "stream", openSink: () => sink });
    expect(r.outcome).toBe("too-large");
    expect(sink.destroyed).toBe(true);
  });

  it("waits for a slow sink (backpressure) and gets the whole file into it", async () => {
    const received: Buffer[] = [];
    const sink = new Writable({ highWaterMark: 1024, write: (chunk, _enc, cb) => void setImmediate(() => (received.push(chunk), cb())) });
    const r = await get("/file", { wantBody: () => "stream", openSink: () => sink });
    expect(r).toMatchObject({ outcome: "ok", streamed: true, bodyBytes: 300 * 1024, wireBytes: 300 * 1024 });
    expect(Buffer.concat(received).equals(Buffer.alloc(300 * 1024, 120))).toBe(true);
  });

  it("reports a sink that fails mid-file as a sink error, not a network one, and destroys it", async () => {
    let writes = 0;
    const sink = new Writable({ write: (_chunk, _enc, cb) => cb(++writes >= 2 ? new Error("disk full") : null) });
    const r = await get("/file", { wantBody: () => "stream", openSink: () => sink });
    expect(r).toMatchObject({ outcome: "error", streamed: true, error: { code: "sink-error", message: "Sink failed: disk full", retryable: false } });
    expect(sink.destroyed).toBe(true);
  });

  it("destroys the sink when the caller aborts mid-file", async () => {
    const sink = new Writable({ write: (_c, _e, cb) => cb() });
    sink.on("error", () => {});
    const r = await get("/big-chunked", { wantBody: () => "stream", openSink: () => sink, maxBodyBytes: 100 * 1024 * 1024, signal: AbortSignal.timeout(150) });
    expect(r.error).toMatchObject({ code: "aborted", retryable: false });
    expect(sink.destroyed).toBe(true);
  });

  it("skips the body when wantBody says no", async () => {
    const r = await get("/page", { wantBody: () => false });
    expect(r).toMatchObject({ outcome: "ok", body: null, bodyBytes: 0 });
  });

  it("reports a caller abort as a non-retryable error", async () => {
    const r = await get("/slow-headers", { signal: AbortSignal.timeout(50) });
    expect(r.error).toMatchObject({ code: "aborted", retryable: false });
  });
});
