import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { WARCParser, WARCRecord } from "warcio";
import { WARCSerializer } from "warcio/node";
import { afterEach, describe, expect, it } from "vitest";
import { WarcExchangeRecorder } from "../../lib/archive/warc-exchange-recorder";
import { windowBitsFor } from "../../lib/archive/warc-file-writer";
import { framedWithBlock, frameRecord, httpHeadBlock, WARC_VERSION } from "../../lib/archive/warc-record-frame";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array): string => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

describe("WARC records framed without warcio", () => {
  it("frames a request record byte for byte as warcio's serializer does for the same fields", async () => {
    const headers: [string, string][] = [["host", "example.org"], ["user-agent", "Forage/0.1"], ["accept", "*/*"]];
    const fields: [string, string][] = [
      ["WARC-Concurrent-To", "<urn:uuid:11111111-1111-4111-8111-111111111111>"],
      ["WARC-Target-URI", "http://example.org/a?b=1"],
      ["WARC-Date", "2026-01-02T03:04:05.678Z"],
      ["WARC-Type", "request"],
      ["WARC-Record-ID", "<urn:uuid:22222222-2222-4222-8222-222222222222>"],
      ["Content-Type", "application/http; msgtype=request"],
    ];
    const framed = framedWithBlock(fields.map(([n, v]) => [n, v]), httpHeadBlock("GET /a?b=1 HTTP/1.1", headers), null);
    const ours = Buffer.concat([framed.head, ...(framed.body as Uint8Array[]), Buffer.from("\r\n\r\n")]);

    const record = WARCRecord.create({
      url: "http://example.org/a?b=1",
      date: "2026-01-02T03:04:05.678Z",
      type: "request",
      warcVersion: WARC_VERSION,
      warcHeaders: [fields[0]!, ["WARC-Record-ID", "<urn:uuid:22222222-2222-4222-8222-222222222222>"]],
      httpHeaders: headers,
      statusline: "GET /a?b=1 HTTP/1.1",
    });
    // As the recorder drove warcio: the block digest preset, warcio's own hashing off.
    record.warcHeaders.headers.set("WARC-Block-Digest", framed.head.toString("latin1").match(/WARC-Block-Digest: (\S+)/)![1]!);
    const serializer = new WARCSerializer(record, { gzip: false });
    serializer.digestAlgo = "";
    const theirs = Buffer.from(await serializer.readFully());
    // warcio orders the fields it adds itself differently from the input; compare them as sets, the block exactly.
    const split = (bytes: Buffer) => {
      const text = bytes.toString("latin1");
      const end = text.indexOf("\r\n\r\n");
      return { fields: text.slice(0, end).split("\r\n").sort(), block: text.slice(end) };
    };
    expect(split(ours)).toEqual(split(theirs));
    expect(record.warcHeaders.headers.get("WARC-Block-Digest")).toBe(sha256(Buffer.from(split(theirs).block.slice(4, -4), "latin1")));
  });

  it("keeps response headers in the order received, repeats included, and states the block's length and digest", () => {
    const httpHead = httpHeadBlock("HTTP/1.1 200 OK", [["Set-Cookie", "a=1"], ["X-A", "b"], ["Set-Cookie", "b=2"]]);
    expect(httpHead.toString()).toBe("HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nX-A: b\r\nSet-Cookie: b=2\r\n\r\n");
    const head = frameRecord([["WARC-Type", "response"]], httpHead, 5).toString();
    expect(head).toBe(`WARC/1.1\r\nWARC-Type: response\r\nContent-Length: ${httpHead.length + 5}\r\n\r\n${httpHead.toString()}`);
  });

  it("writes exchanges that warcio reads back with the digests they state", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-warc-frame-"));
    dirs.push(dir);
    const warc = new WarcExchangeRecorder({ dir, prefix: "forage-1", warcinfo: () => ({ software: "test" }) });
    const body = Buffer.from("<html><body><a href='/x'>x</a></body></html>".repeat(50));
    for (const url of ["http://example.org/a", "http://example.org/b"]) {
      const recording = warc.open({
        method: "GET",
        url,
        requestHeaders: [["host", "example.org"]],
        requestedAt: new Date("2026-01-02T03:04:05.678Z"),
        httpVersion: "HTTP/1.1",
        status: 200,
        statusText: "OK",
        responseHeaders: [["Content-Type", "text/html"], ["Transfer-Encoding", "chunked"]],
        facts: { kind: "page", depth: 1 },
      });
      recording.chunk(body.subarray(0, 100));
      recording.chunk(body.subarray(100));
      await recording.end({ truncated: null });
    }
    await warc.close();
    const bytes = zlib.gunzipSync(fs.readFileSync(path.join(dir, warc.writer.files[0]!)));
    // The digests against the raw bytes: each record's block is the Content-Length bytes after its head.
    for (let at = 0; at < bytes.length; ) {
      const headEnd = bytes.indexOf("\r\n\r\n", at) + 4;
      const head = bytes.subarray(at, headEnd).toString("latin1");
      const length = Number(/\r\nContent-Length: (\d+)\r\n/.exec(head)![1]);
      const block = bytes.subarray(headEnd, headEnd + length);
      const stated = /\r\nWARC-Block-Digest: (\S+)\r\n/.exec(head)?.[1];
      if (!head.includes("WARC-Type: warcinfo")) expect(stated).toBe(sha256(block));
      expect(bytes.subarray(headEnd + length, headEnd + length + 4).toString()).toBe("\r\n\r\n");
      at = headEnd + length + 4;
    }
    // And warcio, the reader replay tools use, parses them all, payloads whole.
    const seen: string[] = [];
    for await (const record of new WARCParser([bytes])) {
      const type = record.warcType!;
      seen.push(type);
      if (type !== "response") continue;
      expect(Buffer.from(await record.readFully(false)).equals(body)).toBe(true);
      expect(record.warcHeaders.headers.get("WARC-Payload-Digest")).toBe(sha256(body));
      expect(record.httpHeaders!.headers.get("X-Orig-Transfer-Encoding")).toBe("chunked");
    }
    expect(seen).toEqual(["warcinfo", "response", "request", "metadata", "revisit", "request", "metadata"]);
  });

  it("compresses a record with a window no larger than it needs, to the same bytes as the full window", () => {
    const text = "<li><a href='/docs/section-3/page-17.html'>Page 17: a title</a></li>\n";
    let n = 5; // page numbers vary, as on a listing
    for (const bytes of [0, 1, 249, 250, 251, 700, 1023, 3900, 16_000, 40_000, 200_000]) {
      const record = Buffer.from(text.repeat(Math.ceil(bytes / text.length) + 1).slice(0, bytes).replace(/17/g, () => String((n = (n * 37 + 11) % 97))));
      expect(zlib.gzipSync(record, { level: 1, windowBits: windowBitsFor(bytes) }).equals(zlib.gzipSync(record, { level: 1 }))).toBe(true);
    }
    expect([windowBitsFor(0), windowBitsFor(700), windowBitsFor(1_000_000)]).toEqual([9, 10, 15]);
  });

  it("stores an already compressed payload, large or spilled to disk, in a member that reads back whole", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-warc-frame-"));
    dirs.push(dir);
    const warc = new WarcExchangeRecorder({ dir, prefix: "forage-1", warcinfo: () => ({ software: "test" }) });
    const sizes = [30_000, 2 * 1024 * 1024, 5 * 1024 * 1024]; // in one call, streamed from memory, spilled to a file
    const bodies = sizes.map((size, n) => Buffer.alloc(size, `PK${n}`));
    for (const [n, body] of bodies.entries()) {
      const recording = warc.open({
        method: "GET",
        url: `http://example.org/f${n}.zip`,
        requestHeaders: [["host", "example.org"]],
        requestedAt: new Date("2026-01-02T03:04:05.678Z"),
        httpVersion: "HTTP/1.1",
        status: 200,
        statusText: "OK",
        responseHeaders: [["Content-Type", "application/zip"]],
      });
      for (let at = 0; at < body.length; at += 65_536) recording.chunk(body.subarray(at, at + 65_536));
      await recording.end({ truncated: null });
    }
    await warc.close();
    const file = fs.readFileSync(path.join(dir, warc.writer.files[0]!));
    expect(file.length).toBeGreaterThan(sizes.reduce((a, b) => a + b)); // stored, not compressed
    const payloads: Buffer[] = [];
    for await (const record of new WARCParser([zlib.gunzipSync(file)])) {
      if (record.warcType !== "response") continue;
      const payload = Buffer.from(await record.readFully(false));
      expect(record.warcHeaders.headers.get("WARC-Payload-Digest")).toBe(sha256(payload));
      payloads.push(payload);
    }
    expect(payloads.map((p) => p.length)).toEqual(sizes);
    expect(payloads.every((p, n) => p.equals(bodies[n]!))).toBe(true);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
