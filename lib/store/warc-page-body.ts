/**
 * A page body read back from the crawl's web archive: the gzip member of one WARC `response`
 * record (offset and length in a `.warc.gz` file), inflated, past its WARC headers and its HTTP
 * head, with the Content-Encoding undone as the fetcher undid it. That gives the bytes the engine
 * parsed: the fetcher decodes content codings only (charsets are the link extractor's business).
 */
import zlib from "node:zlib";
import { contentCodings } from "../crawler/fetch/body";

export const WARC_GZ_SUFFIX = ".warc.gz";

/** Whether a StoredBody row points into a WARC file rather than a page pack. */
export function isWarcStoragePath(storagePath: string): boolean {
  return storagePath.endsWith(WARC_GZ_SUFFIX);
}

const HEAD_END = Buffer.from("\r\n\r\n");
/** As the fetcher: a body cut short decodes to what it holds. */
const ZLIB_LENIENT = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_LENIENT = { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

/** The decoded payload of the response record held by one gzip member. */
export function decodeWarcPageBody(member: Buffer, where = "WARC record"): Buffer {
  const record = zlib.gunzipSync(member);
  const warcHeadEnd = record.indexOf(HEAD_END);
  if (warcHeadEnd < 0) throw new Error(`${where}: no end of WARC headers`);
  const warcHeaders = parseHeaders(record.subarray(0, warcHeadEnd).toString("latin1"), "warc");
  const type = warcHeaders.get("warc-type");
  if (type !== "response") throw new Error(`${where}: a ${type ?? "typeless"} record, not a response`);
  const blockStart = warcHeadEnd + HEAD_END.length;
  const blockLength = Number(warcHeaders.get("content-length"));
  if (!Number.isInteger(blockLength) || blockStart + blockLength > record.length) throw new Error(`${where}: block shorter than its Content-Length`);
  const block = record.subarray(blockStart, blockStart + blockLength);
  const httpHeadEnd = block.indexOf(HEAD_END);
  if (httpHeadEnd < 0) throw new Error(`${where}: no end of HTTP headers`);
  const httpHeaders = parseHeaders(block.subarray(0, httpHeadEnd).toString("latin1"), "http");
  const payload = block.subarray(httpHeadEnd + HEAD_END.length);
  return decodeContent(payload, httpHeaders.get("content-encoding"));
}

/** Undoes the content codings in reverse order of application; an unknown coding keeps the payload as sent (the fetcher's rule). */
function decodeContent(payload: Buffer, contentEncoding: string | undefined): Buffer {
  const codings = contentCodings(contentEncoding).reverse();
  if (codings.some((coding) => !["gzip", "x-gzip", "deflate", "br"].includes(coding))) return payload;
  let body = payload;
  for (const coding of codings) {
    if (coding === "br") body = zlib.brotliDecompressSync(body, BROTLI_LENIENT);
    else if (coding === "deflate") body = zlib.inflateSync(body, ZLIB_LENIENT);
    else body = zlib.gunzipSync(body, ZLIB_LENIENT);
  }
  return body;
}

/** Header lines after the first (version or status line), lower-case names; repeated names joined by ", " as HTTP does. */
function parseHeaders(text: string, kind: "warc" | "http"): Map<string, string> {
  const headers = new Map<string, string>();
  const lines = text.split("\r\n");
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  if (kind === "warc" && !lines[0]?.startsWith("WARC/")) throw new Error(`not a WARC record: ${lines[0]?.slice(0, 40) ?? ""}`);
  return headers;
}
