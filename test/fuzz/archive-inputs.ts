/**
 * Inputs for the archive fuzz targets: a corpus of valid WARC records and WACZ files (every
 * record kind the import reads: request/response pairs, HEADs, revisits, chunked and gzip
 * bodies, robots.txt), byte-level mutations of them, and archives generated from fast-check
 * arbitraries (header names and values with CR/LF and warcio's `,,,` separator, lying
 * Content-Lengths, hostile ZIP names and sizes).
 */
import zlib from "node:zlib";
import fc from "fast-check";
import { WARCRecord, WARCSerializer } from "warcio";
import { buildZip, type ZipEntrySpec } from "../helpers/zip-builder";

const ROOT = "http://fuzz.example.org/";

async function serialize(records: WARCRecord[], gzip: boolean): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (const record of records) parts.push(Buffer.from(await WARCSerializer.serialize(record, { gzip })));
  return Buffer.concat(parts);
}

function validRecords(): WARCRecord[] {
  const response = (url: string, headers: [string, string][], body: Buffer, warcHeaders: Record<string, string> = {}) =>
    WARCRecord.create({ url, type: "response", warcVersion: "WARC/1.1", httpHeaders: headers, statusline: "HTTP/1.1 200 OK", warcHeaders }, [body]);
  const page = response(ROOT, [["Content-Type", "text/html"]], Buffer.from('<html><a href="/a.csv">a</a></html>'), { "WARC-Record-ID": "<urn:uuid:1>" });
  const request = WARCRecord.create({ url: ROOT, type: "request", warcVersion: "WARC/1.1", httpHeaders: [["Host", "fuzz.example.org"]], statusline: "GET / HTTP/1.1", warcHeaders: { "WARC-Concurrent-To": "<urn:uuid:1>" } }, []);
  const head = WARCRecord.create({ url: `${ROOT}a.csv`, type: "request", warcVersion: "WARC/1.1", httpHeaders: [], statusline: "HEAD /a.csv HTTP/1.1", warcHeaders: { "WARC-Concurrent-To": "<urn:uuid:2>" } }, []);
  const headResponse = response(`${ROOT}a.csv`, [["Content-Type", "text/csv"]], Buffer.alloc(0), { "WARC-Record-ID": "<urn:uuid:2>" });
  const chunked = response(`${ROOT}b.csv`, [["Content-Type", "text/csv"], ["Transfer-Encoding", "chunked"]], Buffer.from("4\r\na,b\n\r\n3\r\n1,2\r\n0\r\n\r\n"));
  const gzipped = response(`${ROOT}c.html`, [["Content-Type", "text/html"], ["Content-Encoding", "gzip"]], zlib.gzipSync("<html>gzip</html>"));
  const robots = response(`${ROOT}robots.txt`, [["Content-Type", "text/plain"]], Buffer.from("User-agent: *\nDisallow: /x\n"));
  const revisit = WARCRecord.create({ url: `${ROOT}d.html`, type: "revisit", warcVersion: "WARC/1.1", httpHeaders: [["Content-Type", "text/html"]], statusline: "HTTP/1.1 200 OK", refersToUrl: ROOT, refersToDate: "2024-01-01T00:00:00Z" }, []);
  const info = WARCRecord.createWARCInfo({ filename: "fuzz.warc", warcVersion: "WARC/1.1" }, { software: "fuzz" });
  return [info, request, page, head, headResponse, chunked, gzipped, robots, revisit];
}

export interface Corpus {
  warcs: Buffer[];
  waczs: Buffer[];
}

let corpus: Promise<Corpus> | null = null;

/** The valid archives mutations start from (built once per process). */
export function archiveCorpus(): Promise<Corpus> {
  corpus ??= (async () => {
    const plain = await serialize(validRecords(), false);
    const gzip = await serialize(validRecords(), true);
    const waczs = [
      buildZip([{ name: "datapackage.json", data: Buffer.from("{}") }, { name: "archive/data.warc.gz", data: gzip }]),
      buildZip([{ name: "archive/a.warc", data: plain, method: 8 }, { name: "archive/b.warc.gz", data: gzip }, { name: "indexes/index.cdxj", data: Buffer.from("x\n") }]),
    ];
    return { warcs: [plain, gzip], waczs };
  })();
  return corpus;
}

type Edit = { kind: "set"; at: number; byte: number } | { kind: "cut"; at: number } | { kind: "insert"; at: number; bytes: Uint8Array } | { kind: "repeat"; at: number; length: number; times: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("set" as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cut" as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), bytes: fc.oneof(fc.uint8Array({ maxLength: 16 }), fc.constantFrom(...["\r\n", "\r\n\r\n", "\n", ",,,", "Content-Length: 99999\r\n", "Transfer-Encoding: chunked\r\n", "WARC/1.1\r\n"].map((s) => new Uint8Array(Buffer.from(s))))) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("repeat" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }), times: fc.integer({ min: 2, max: 200 }) }) },
);

function applyEdits(base: Buffer, edits: Edit[]): Buffer {
  let bytes = Buffer.from(base);
  for (const e of edits) {
    const at = bytes.length === 0 ? 0 : e.at % (bytes.length + 1);
    if (e.kind === "set" && at < bytes.length) bytes[at] = e.byte;
    else if (e.kind === "cut") bytes = bytes.subarray(0, at);
    else if (e.kind === "insert") bytes = Buffer.concat([bytes.subarray(0, at), e.bytes, bytes.subarray(at)]);
    else if (e.kind === "repeat") {
      const slice = bytes.subarray(at, at + e.length);
      bytes = Buffer.concat([bytes.subarray(0, at), ...Array.from({ length: e.times }, () => slice), bytes.subarray(at)]);
    }
  }
  return bytes;
}

/** One of `bases` with up to 8 byte-level edits. */
export function mutated(bases: Buffer[]): fc.Arbitrary<Buffer> {
  return fc.tuple(fc.constantFrom(...bases), fc.array(edit, { minLength: 1, maxLength: 8 })).map(([base, edits]) => applyEdits(base, edits));
}

const headerText = fc.oneof(fc.string({ maxLength: 24 }), fc.string({ unit: "binary", maxLength: 24 }), fc.constantFrom("Content-Length", "WARC-Type", "WARC-Concurrent-To", "Transfer-Encoding", "Content-Encoding", "WARC-Foo", ",,,", "\r\n", "chunked", "gzip", "response"));

/** A WARC record written by hand: any headers, a Content-Length true or not, an HTTP head or not. */
const generatedRecord: fc.Arbitrary<Buffer> = fc
  .record({
    version: fc.constantFrom("WARC/1.0", "WARC/1.1", "WARC/", ""),
    type: fc.constantFrom("response", "request", "revisit", "resource", "warcinfo", "metadata", ""),
    uri: fc.oneof(fc.constant(ROOT), fc.webUrl(), fc.string({ maxLength: 20 })),
    headers: fc.array(fc.tuple(headerText, headerText), { maxLength: 6 }),
    statusLine: fc.oneof(fc.constantFrom("HTTP/1.1 200 OK", "HTTP/1.1 301 Moved", "GET / HTTP/1.1", "HEAD / HTTP/1.1", ""), fc.string({ maxLength: 20 })),
    httpHeaders: fc.array(fc.tuple(headerText, headerText), { maxLength: 6 }),
    body: fc.uint8Array({ maxLength: 64 }),
    lengthDelta: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: -40, max: 40 }) }, { weight: 1, arbitrary: fc.constantFrom(Number.NaN, 1e12, -1) }),
    gzip: fc.boolean(),
  })
  .map((r) => {
    const http = Buffer.concat([Buffer.from(`${r.statusLine}\r\n${r.httpHeaders.map(([n, v]) => `${n}: ${v}\r\n`).join("")}\r\n`), r.body]);
    const length = Number.isNaN(r.lengthDelta) ? "x" : String(http.length + r.lengthDelta);
    const head = `${r.version}\r\nWARC-Type: ${r.type}\r\nWARC-Target-URI: ${r.uri}\r\n${r.headers.map(([n, v]) => `${n}: ${v}\r\n`).join("")}Content-Length: ${length}\r\n\r\n`;
    const record = Buffer.concat([Buffer.from(head), http, Buffer.from("\r\n\r\n")]);
    return r.gzip ? zlib.gzipSync(record) : record;
  });

/** WARC bytes: mutated valid ones, generated records, or noise. */
export function warcBytes(c: Corpus): fc.Arbitrary<Buffer> {
  return fc.oneof(
    { weight: 5, arbitrary: mutated(c.warcs) },
    { weight: 4, arbitrary: fc.array(generatedRecord, { minLength: 1, maxLength: 4 }).map((records) => Buffer.concat(records)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.from(a)) },
  );
}

const entryName = fc.oneof(
  fc.constantFrom("archive/data.warc", "archive/data.warc.gz", "archive/../x.warc", "../archive/x.warc.gz", "/archive/x.warc", "archive\\x.warc", "C:/x.warc", "datapackage.json", "archive/", "archive/x.warc.gz\u0000.txt"),
  fc.string({ maxLength: 20 }).map((s) => `archive/${s}.warc`),
);

/** A ZIP written by hand: hostile names, deflated or stored, sizes claimed true or not, entries sharing bytes. */
function generatedZip(c: Corpus): fc.Arbitrary<Buffer> {
  const entry = fc.record({
    name: entryName,
    data: fc.oneof(fc.constantFrom(...c.warcs), fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a))),
    method: fc.constantFrom(0 as const, 8 as const),
    claimedSize: fc.option(fc.oneof(fc.nat(), fc.constant(0xffffffff)), { nil: undefined }),
    shares: fc.boolean(),
  });
  return fc.array(entry, { minLength: 0, maxLength: 5 }).map((entries) =>
    buildZip(entries.map((e, i): ZipEntrySpec => ({ name: e.name, data: e.data, method: e.method, claimedSize: e.claimedSize, ...(e.shares && i > 0 ? { sameBytesAs: 0 } : {}) }))),
  );
}

/** WACZ bytes: mutated valid ones, generated ZIPs, or noise. */
export function waczBytes(c: Corpus): fc.Arbitrary<Buffer> {
  return fc.oneof({ weight: 5, arbitrary: mutated(c.waczs) }, { weight: 4, arbitrary: generatedZip(c) }, { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((a) => Buffer.concat([Buffer.from("PK\u0003\u0004"), a])) });
}
