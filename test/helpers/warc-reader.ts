/**
 * A test-only WARC reader written against the WARC/1.1 specification, independent of warcio
 * (the writer's library): it walks a `.warc.gz` gzip member by member (RFC 1952 headers parsed
 * here, raw deflate inflated with node:zlib, CRC-32 and size trailers checked), and splits each
 * record into its version line, named fields and block. HTTP blocks are split into status line,
 * header lines and payload; digests are recomputed from the bytes.
 */
import { createHash } from "node:crypto";
import zlib from "node:zlib";

export interface WarcRecordRead {
  /** Where the record's gzip member starts in the file, and its length. */
  offset: number;
  length: number;
  version: string;
  /** Field names as written; `field()` looks them up case-insensitively. */
  fields: [string, string][];
  block: Buffer;
  field(name: string): string | undefined;
  type: string;
}

export interface HttpMessageRead {
  startLine: string;
  headers: [string, string][];
  payload: Buffer;
}

const FTEXT_FHCRC = 0x02;
const FEXTRA = 0x04;
const FNAME = 0x08;
const FCOMMENT = 0x10;

/** Decodes one gzip member at `offset`; throws on a malformed one. */
export function readGzipMember(file: Buffer, offset: number): { data: Buffer; length: number } {
  if (file[offset] !== 0x1f || file[offset + 1] !== 0x8b || file[offset + 2] !== 8) throw new Error(`no gzip member at offset ${offset}`);
  const flags = file[offset + 3]!;
  let p = offset + 10;
  if (flags & FEXTRA) p += 2 + file.readUInt16LE(p);
  if (flags & FNAME) p = file.indexOf(0, p) + 1;
  if (flags & FCOMMENT) p = file.indexOf(0, p) + 1;
  if (flags & FTEXT_FHCRC) p += 2;
  const inflated = zlib.inflateRawSync(file.subarray(p), { info: true }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
  const end = p + inflated.engine.bytesWritten;
  const crc = file.readUInt32LE(end);
  const size = file.readUInt32LE(end + 4);
  if (crc !== zlib.crc32(inflated.buffer)) throw new Error(`CRC-32 mismatch in the member at ${offset}`);
  if (size !== inflated.buffer.length % 2 ** 32) throw new Error(`ISIZE mismatch in the member at ${offset}`);
  return { data: inflated.buffer, length: end + 8 - offset };
}

/** Parses one uncompressed WARC record; throws when it is not well formed. */
export function parseWarcRecord(data: Buffer, offset: number, length: number): WarcRecordRead {
  const headEnd = data.indexOf("\r\n\r\n");
  if (headEnd < 0) throw new Error(`record at ${offset}: no end of header`);
  const lines = data.subarray(0, headEnd).toString("utf8").split("\r\n");
  const version = lines.shift()!;
  if (!/^WARC\/1\.[01]$/.test(version)) throw new Error(`record at ${offset}: bad version line ${JSON.stringify(version)}`);
  const fields: [string, string][] = lines.map((line) => {
    const colon = line.indexOf(":");
    if (colon <= 0) throw new Error(`record at ${offset}: bad field line ${JSON.stringify(line)}`);
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  const field = (name: string) => fields.find(([n]) => n.toLowerCase() === name.toLowerCase())?.[1];
  const contentLength = Number(field("Content-Length"));
  if (!Number.isInteger(contentLength)) throw new Error(`record at ${offset}: no Content-Length`);
  const blockStart = headEnd + 4;
  const block = data.subarray(blockStart, blockStart + contentLength);
  if (block.length !== contentLength) throw new Error(`record at ${offset}: block shorter than Content-Length`);
  const tail = data.subarray(blockStart + contentLength);
  if (tail.toString("latin1") !== "\r\n\r\n") throw new Error(`record at ${offset}: the block is not followed by exactly CRLF CRLF`);
  for (const required of ["WARC-Record-ID", "WARC-Date", "WARC-Type"]) {
    if (!field(required)) throw new Error(`record at ${offset}: no ${required}`);
  }
  return { offset, length, version, fields, block, field, type: field("WARC-Type")! };
}

/** Every record of a `.warc.gz` file, each from its own gzip member. */
export function readWarcGz(file: Buffer): WarcRecordRead[] {
  const records: WarcRecordRead[] = [];
  let offset = 0;
  while (offset < file.length) {
    const member = readGzipMember(file, offset);
    records.push(parseWarcRecord(member.data, offset, member.length));
    offset += member.length;
  }
  return records;
}

/** Splits an `application/http` block into start line, header lines and payload. */
export function parseHttpBlock(block: Buffer): HttpMessageRead {
  const end = block.indexOf("\r\n\r\n");
  if (end < 0) throw new Error("HTTP block without an end of headers");
  const lines = block.subarray(0, end).toString("latin1").split("\r\n");
  const startLine = lines.shift()!;
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(":");
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  return { startLine, headers, payload: block.subarray(end + 4) };
}

export function sha256Label(bytes: Buffer): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Block digest and (for responses) payload digest recomputed; the mismatches, by record. */
export function digestProblems(records: WarcRecordRead[]): string[] {
  const problems: string[] = [];
  for (const record of records) {
    const id = `${record.type} ${record.field("WARC-Target-URI") ?? ""}`;
    const block = record.field("WARC-Block-Digest");
    if (block && block !== sha256Label(record.block)) problems.push(`${id}: block digest`);
    if (record.type === "response" && record.field("Content-Type")?.startsWith("application/http")) {
      const payload = record.field("WARC-Payload-Digest");
      if (!payload) problems.push(`${id}: no payload digest`);
      else if (payload !== sha256Label(parseHttpBlock(record.block).payload)) problems.push(`${id}: payload digest`);
    }
  }
  return problems;
}

/** One entry of a ZIP file, read from its central directory (APPNOTE 6.3), not through a ZIP library. */
export interface ZipEntryRead {
  name: string;
  /** 0 = STORE, 8 = DEFLATE. */
  method: number;
  size: number;
  /** Where the entry's bytes start in the ZIP (after its local header). */
  dataOffset: number;
  data: Buffer;
}

export function readZipEntries(zip: Buffer): ZipEntryRead[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error("no end of central directory");
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const entries: ZipEntryRead[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const method = zip.readUInt16LE(p + 10);
    const compressed = zip.readUInt32LE(p + 20);
    const size = zip.readUInt32LE(p + 24);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLength).toString("utf8");
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header of ${name}`);
    const dataOffset = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataOffset, dataOffset + compressed);
    const data = method === 0 ? raw : zlib.inflateRawSync(raw);
    if (zip.readUInt32LE(p + 16) !== zlib.crc32(data)) throw new Error(`CRC-32 mismatch in ${name}`);
    entries.push({ name, method, size, dataOffset, data });
    p += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
