/**
 * What `forage import` reads from an archive's WARC streams, without a database: which
 * responses answered HEADs, the first HTML page, and each HTTP response as a request row with
 * its decoded body. Every stream goes through `BoundedWarcParser`, so a malformed archive ends
 * in an ImportError, never in unbounded memory or a hang; a record that is merely unusable (no
 * status, a URL that does not parse, headers warcio cannot list) is skipped.
 */
import type { WARCRecord } from "warcio";
import type { RequestRow } from "../crawler/engine/types";
import { effectiveMime } from "../crawler/fetch/effective-mime";
import { parseMime } from "../crawler/fetch/http-fetcher";
import { ARCHIVE_LIMITS, type ArchiveLimits } from "./archive-limits";
import type { ArchiveSource } from "./archive-sources";
import { BodyOverLimitError, BoundedWarcParser } from "./bounded-warc-parser";

export type RequestMethods = Map<string, "GET" | "HEAD">;

/** One archived HTTP response: its request row (seq 0) and, for a GET response, its decoded body (null when too large). */
export interface ArchivedResponse {
  request: RequestRow;
  body: Buffer | null;
}

/**
 * Calls `visit` for each record of each source, in order; a record `visit` leaves unread is
 * skipped. Stops early when `visit` returns true.
 */
async function eachRecord(sources: ArchiveSource[], limits: ArchiveLimits, visit: (record: WARCRecord, parser: BoundedWarcParser) => Promise<boolean | void>): Promise<void> {
  for (const source of sources) {
    const stream = await source.open();
    try {
      const parser = new BoundedWarcParser(stream, source.name, limits);
      for await (const record of parser) {
        if (await visit(record, parser)) return;
        await record.skipFully();
      }
    } finally {
      stream.destroy();
    }
  }
}

/** Response record id → the method of its request record ("HEAD" or "GET"), paired by WARC-Concurrent-To either way. */
export async function requestMethods(sources: ArchiveSource[], limits: ArchiveLimits = ARCHIVE_LIMITS): Promise<RequestMethods> {
  const methods: RequestMethods = new Map();
  const requestMethod = new Map<string, "GET" | "HEAD">();
  const responseLinks: [string, string[]][] = [];
  await eachRecord(sources, limits, async (record) => {
    const id = record.warcHeaders.headers.get("WARC-Record-ID") ?? "";
    const concurrent = [record.warcConcurrentTo ?? []].flat();
    if (record.warcType === "request") {
      const method = record.httpHeaders?.method === "HEAD" ? "HEAD" : "GET";
      requestMethod.set(id, method);
      for (const other of concurrent) methods.set(other, method);
    } else if (record.warcType === "response" || record.warcType === "revisit") {
      if (concurrent.length > 0) responseLinks.push([id, concurrent]);
    }
  });
  for (const [id, links] of responseLinks) {
    const method = links.map((link) => requestMethod.get(link)).find((m) => m !== undefined);
    if (method && !methods.has(id)) methods.set(id, method);
  }
  return methods;
}

/** The URL of the first response answering 200 with an HTML page, or null. */
export async function firstHtmlPage(sources: ArchiveSource[], limits: ArchiveLimits = ARCHIVE_LIMITS): Promise<string | null> {
  let found: string | null = null;
  await eachRecord(sources, limits, async (record) => {
    const info = record.warcType === "response" ? record.getResponseInfo() : null;
    const headers = httpHeaderList(record);
    if (info && headers && Number(info.status) === 200 && parseMime(headerValue(headers, "content-type") ?? "") === "text/html" && record.warcTargetURI && URL.canParse(record.warcTargetURI)) {
      found = record.warcTargetURI;
      return true;
    }
    return false;
  });
  return found;
}

/**
 * Each HTTP response of the archive (null for any other record, or one that cannot be read),
 * bodies decoded up to `maxBodyBytes` (past it, the row is "too-large" and the body null).
 */
export async function* archivedResponses(sources: ArchiveSource[], methods: RequestMethods, maxBodyBytes: number, limits: ArchiveLimits = ARCHIVE_LIMITS): AsyncGenerator<ArchivedResponse | null> {
  for (const source of sources) {
    const stream = await source.open();
    try {
      const parser = new BoundedWarcParser(stream, source.name, limits);
      for await (const record of parser) {
        const type = record.warcType;
        if ((type !== "response" && type !== "revisit") || !record.httpHeaders || !record.warcTargetURI) {
          yield null;
        } else {
          const id = record.warcHeaders.headers.get("WARC-Record-ID") ?? "";
          yield await responseRow(record, parser, methods.get(id) ?? "GET", maxBodyBytes);
        }
        await record.skipFully();
      }
    } finally {
      stream.destroy();
    }
  }
}

/** The HTTP headers as warcio lists them, or null when it cannot (a multi-valued `WARC-*` header makes its iterator throw). */
function httpHeaderList(record: WARCRecord): [string, string][] | null {
  try {
    return [...((record.httpHeaders?.headers ?? []) as Iterable<[string, string]>)];
  } catch {
    return null;
  }
}

/** A header by name, whatever its case in the archive (warcio's case-keeping map is case-sensitive). */
function headerValue(headers: [string, string][], name: string): string | undefined {
  for (const [key, value] of headers) if (key.toLowerCase() === name) return value;
  return undefined;
}

/**
 * The payload with chunking and content coding undone (warcio's content reader), read up to
 * `limit` decoded bytes; past it the rest is skipped and `tooLarge` set. The wire bytes read are
 * capped too, at twice the limit (room for chunk framing), since warcio's de-chunker holds a
 * whole chunk before handing it on.
 */
async function readDecodedBody(record: WARCRecord, parser: BoundedWarcParser, limit: number): Promise<{ body: Buffer; bytes: number; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  parser.limitBody(2 * limit);
  try {
    for await (const chunk of record.contentReader) {
      bytes += chunk.length;
      if (bytes > limit) return { body: Buffer.alloc(0), bytes, tooLarge: true };
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof BodyOverLimitError) return { body: Buffer.alloc(0), bytes: Math.max(bytes, limit + 1), tooLarge: true };
    throw error;
  } finally {
    parser.limitBody(Infinity);
  }
  return { body: Buffer.concat(chunks, bytes), bytes, tooLarge: false };
}

/** The request row of an archived response, and its decoded body for a GET (null for a revisit or HEAD). */
async function responseRow(record: WARCRecord, parser: BoundedWarcParser, method: "GET" | "HEAD", maxBodyBytes: number): Promise<ArchivedResponse | null> {
  const url = record.warcTargetURI!;
  const info = record.getResponseInfo();
  const list = httpHeaderList(record);
  if (!info || !list || !URL.canParse(url)) return null;
  const headers: Record<string, string> = {};
  let headerBytes = `HTTP/1.1 ${info.status} ${info.statusText ?? ""}\r\n`.length + 2;
  for (const [name, value] of list) {
    const lower = name.toLowerCase();
    headerBytes += name.length + value.length + 4;
    // Forage's fetcher sees neither transfer coding nor, once decoded, the content coding.
    if (lower === "transfer-encoding" || lower === "content-encoding" || lower.startsWith("x-orig-")) continue;
    headers[lower] = headers[lower] === undefined ? value : `${headers[lower]}${lower === "set-cookie" ? "\n" : ", "}${value}`;
  }
  let mime = parseMime(headers["content-type"]);
  const status = Number(info.status);
  if (!Number.isInteger(status) || status < 100 || status > 999) return null;
  if (status >= 200 && status < 300) mime = effectiveMime(mime, url, headers["content-disposition"]);
  let body: Buffer | null = null;
  let wireBytes = 0;
  let tooLarge = false;
  if (record.warcType === "response" && method === "GET") {
    const read = await readDecodedBody(record, parser, maxBodyBytes);
    tooLarge = read.tooLarge;
    body = read.tooLarge ? null : read.body;
    wireBytes = read.bytes;
  }
  if (body) headers["content-length"] = String(body.length);
  let location: string | null = null;
  if (headers.location && URL.canParse(headers.location.trim(), url)) location = new URL(headers.location.trim(), url).href;
  const isRedirect = status >= 300 && status < 400 && location !== null;
  const robots = new URL(url).pathname === "/robots.txt";
  const date = record.warcDate ? new Date(record.warcDate) : new Date();
  return {
    request: {
      seq: 0,
      kind: robots ? "robots" : "page",
      method,
      url,
      status,
      mime: mime || null,
      bytes: wireBytes + headerBytes,
      durationMs: 0,
      tagPath: null,
      groupId: null,
      depth: 0,
      referrer: null,
      isTarget: false,
      outcome: tooLarge ? "too-large" : isRedirect ? "redirect" : "ok",
      error: tooLarge ? `too-large: decoded body over the ${maxBodyBytes}-byte limit` : null,
      redirectTo: isRedirect ? location : null,
      headers: JSON.stringify(headers),
      bodySha256: null,
      startedAt: Number.isNaN(date.getTime()) ? new Date() : date,
    },
    body: record.warcType === "response" && method === "GET" ? body : null,
  };
}
