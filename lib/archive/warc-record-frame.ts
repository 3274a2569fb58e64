/**
 * WARC records framed without warcio: the exchange recorder writes thousands of records a minute,
 * and warcio's `WARCRecord.create` + `WARCSerializer` (a header map per record, an async generator
 * that walks and buffers the payload a second time) cost more CPU per exchange than the framing
 * itself. The bytes are those warcio writes for the same fields: `WARC/1.1`, one `Name: value`
 * line per field in the order given, `Content-Length` last, a blank line, the block (an HTTP head
 * and its payload, or a `application/warc-fields` block), then two CRLFs. warcio still reads every
 * record and writes each file's `warcinfo`.
 */
import { createHash } from "node:crypto";

export const WARC_VERSION = "WARC/1.1";
export const REVISIT_PROFILE = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest";
export const CRLF_CRLF = Buffer.from("\r\n\r\n");

/**
 * One record ready to be written: its bytes are `head`, the `body` chunks, then {@link CRLF_CRLF}.
 * `body` is the payload in memory, or a reader of it (a payload spilled to a temporary file).
 */
export interface FramedRecord {
  head: Buffer;
  body: readonly Uint8Array[] | (() => AsyncIterable<Uint8Array>);
  bodyBytes: number;
  /** The payload is already compressed (zip, xlsx, a gzip-encoded body): its gzip member stores it. */
  stored: boolean;
}

/** `statusline`, the header lines in the order given, and the blank line that ends an HTTP head. */
export function httpHeadBlock(statusline: string, headers: readonly (readonly [string, string])[]): Buffer {
  let text = statusline + "\r\n";
  for (const [name, value] of headers) text += `${name}: ${value}\r\n`;
  return Buffer.from(text + "\r\n");
}

/**
 * The record's head: version line, `fields`, `Content-Length` (the block: `httpHead` plus
 * `payloadBytes`), the blank line, then the HTTP head when there is one.
 */
export function frameRecord(fields: readonly (readonly [string, string])[], httpHead: Buffer | null, payloadBytes: number): Buffer {
  let text = WARC_VERSION + "\r\n";
  for (const [name, value] of fields) text += `${name}: ${value}\r\n`;
  text += `Content-Length: ${(httpHead?.length ?? 0) + payloadBytes}\r\n\r\n`;
  const warcHead = Buffer.from(text);
  return httpHead ? Buffer.concat([warcHead, httpHead], warcHead.length + httpHead.length) : warcHead;
}

/** A record whose whole block is in memory (request, revisit, metadata): framed, its block digest computed here. */
export function framedWithBlock(fields: [string, string][], httpHead: Buffer | null, payload: Buffer | null): FramedRecord {
  const hash = createHash("sha256");
  if (httpHead) hash.update(httpHead);
  if (payload) hash.update(payload);
  fields.push(["WARC-Block-Digest", `sha256:${hash.digest("hex")}`]);
  const head = frameRecord(fields, httpHead, payload?.length ?? 0);
  return { head, body: payload ? [payload] : [], bodyBytes: payload?.length ?? 0, stored: false };
}
