import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { WarcExchangeRecorder } from "../../lib/archive/warc-exchange-recorder";
import type { ArchivedPayload } from "../../lib/crawler/fetch/exchange-recorder";
import { decodePackedBody } from "../../lib/store/page-bodies";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function recorder(): WarcExchangeRecorder {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-warc-body-"));
  dirs.push(dir);
  return new WarcExchangeRecorder({ dir, prefix: "forage-1", warcinfo: () => ({ software: "test" }) });
}

/** Records one GET answered with `wire` (the bytes as received) and these headers; resolves where its payload lies. */
function record(warc: WarcExchangeRecorder, url: string, headers: [string, string][], wire: Buffer, truncated: "length" | null = null): Promise<ArchivedPayload | null> {
  const recording = warc.open({
    method: "GET",
    url,
    requestHeaders: [["host", new URL(url).host]],
    requestedAt: new Date(),
    httpVersion: "HTTP/1.1",
    status: 200,
    statusText: "OK",
    responseHeaders: [["Content-Type", "text/html; charset=windows-1252"], ...headers],
  });
  // In two chunks, as the wire delivers them.
  recording.chunk(wire.subarray(0, 7));
  recording.chunk(wire.subarray(7));
  return recording.end({ truncated }) as Promise<ArchivedPayload | null>;
}

function read(location: ArchivedPayload): Buffer {
  const member = fs.readFileSync(location.file).subarray(location.offset, location.offset + location.length);
  return decodePackedBody(location.file, member);
}

// Not UTF-8: the body comes back as the bytes received, the charset is the link extractor's business.
const HTML = Buffer.concat([Buffer.from("<html><body><p>caf"), Buffer.from([0xe9]), Buffer.from("</p>" + "<a href=/x>x</a>".repeat(100) + "</body></html>")]);

describe("a page body read back from the WARC", () => {
  it("undoes gzip, deflate, br and two stacked codings as the fetcher did; keeps an unknown coding's bytes as sent", async () => {
    const warc = recorder();
    const cases: [string, Buffer, Buffer][] = [
      ["", HTML, HTML],
      ["gzip", zlib.gzipSync(HTML), HTML],
      ["deflate", zlib.deflateSync(HTML), HTML],
      ["br", zlib.brotliCompressSync(HTML), HTML],
      ["gzip, br", zlib.brotliCompressSync(zlib.gzipSync(HTML)), HTML],
      ["x-unknown", Buffer.from("opaque bytes as sent"), Buffer.from("opaque bytes as sent")],
    ];
    const locations = cases.map(([coding, wire], i) => record(warc, `http://site.test/${i}.html`, coding ? [["Content-Encoding", coding]] : [], wire));
    await warc.sync();
    for (const [i, location] of (await Promise.all(locations)).entries()) {
      expect(location, cases[i]![0]).not.toBeNull();
      expect(read(location!).equals(cases[i]![2]), cases[i]![0]).toBe(true);
    }
    await warc.close();
  });

  it("a payload archived before resolves to the first response (its revisit has no payload), unless its content coding differs", async () => {
    const warc = recorder();
    const gzipped = zlib.gzipSync(HTML);
    const first = await record(warc, "http://site.test/a.html", [["Content-Encoding", "gzip"]], gzipped);
    const again = await record(warc, "http://site.test/b.html", [["Content-Encoding", "gzip"]], gzipped);
    // The same bytes, served as they are: they do not decode to the same page.
    const undecoded = await record(warc, "http://site.test/c.html", [], gzipped);
    await warc.sync();
    expect(again).toEqual(first);
    expect(undecoded).toBeNull();
    expect(read(again!).equals(HTML)).toBe(true);
    await warc.close();
  });

  it("a truncated body has no location; a member that is no response record is refused with its file named", async () => {
    const warc = recorder();
    expect(await record(warc, "http://site.test/cut.html", [], HTML.subarray(0, 50), "length")).toBeNull();
    const whole = (await record(warc, "http://site.test/whole.html", [], HTML))!;
    await warc.sync();
    // The member right after the response is its request record.
    const file = fs.readFileSync(whole.file);
    const next = { ...whole, offset: whole.offset + whole.length, length: 0 };
    let end = next.offset + 1;
    while (end <= file.length) {
      try {
        zlib.gunzipSync(file.subarray(next.offset, end));
        break;
      } catch {
        end += 1;
      }
    }
    next.length = end - next.offset;
    expect(() => read(next)).toThrow(`${whole.file}: a request record, not a response`);
    expect(() => decodePackedBody(whole.file, Buffer.from("not gzip"))).toThrow();
    await warc.close();
  });
});
