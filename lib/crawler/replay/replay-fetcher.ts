import fs from "node:fs";
import { STATUS_CODES } from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { pipeline } from "node:stream/promises";
import { decodePackedBody, type StoredPageBody } from "../../store/page-bodies";
import type { Db } from "../../store/prisma-client";
import type { FetchErrorCode } from "../fetch/errors";
import { emptyFetchResult, type BodyDisposition, type FetchRequest, type FetchResult, type Fetcher, type ResponseHead } from "../fetch/types";
import { errorCode, type ReplayIndex } from "./replay-index";

/**
 * Error code of a replayed request the stored crawl cannot answer. Not (yet) a member of
 * `FetchErrorCode`: the network layer never produces it.
 */
export const NOT_ARCHIVED = "not-archived" as string as FetchErrorCode;
export const NOT_ARCHIVED_MESSAGE = "not in the stored crawl";

/** Errors a retry could fix, as the network layer classifies them (lib/crawler/fetch/errors.ts). */
const RETRYABLE_CODES = new Set(["connect-timeout", "headers-timeout", "body-timeout", "connection-reset", "connection-refused", "network-error"]);

export interface ReplayFetcherOptions {
  db: Db;
  /** FORAGE_DATA_DIR: stored pages and target files are relative to it. */
  dataDir: string;
  /** Index of the source crawl (`ReplayIndex.build`). */
  index: ReplayIndex;
}

export interface ReplayFetcherStats {
  /** Requests answered from the stored crawl. */
  answered: number;
  /** Requests answered "not-archived" (the source never fetched the URL, or kept no body for it). */
  notArchived: number;
}

/** A stored attempt with where its HTML body (page pack) and its target file are, if any. */
interface StoredRow {
  status: number | null;
  mime: string | null;
  headers: string | null;
  outcome: string;
  error: string | null;
  redirectTo: string | null;
  bytes: number;
  bodySha256: string | null;
  bodyPath: string | null;
  bodyOffset: number | null;
  bodyCompressedBytes: number | null;
  targetPath: string | null;
  targetMime: string | null;
}

type Body = { kind: "buffer"; data: Buffer } | { kind: "file"; absolutePath: string; size: number };

/**
 * A Fetcher that answers from a stored crawl instead of the network (the paper's local mode):
 * status, headers, MIME type and Location from the final stored attempt of the URL, HTML bodies
 * from the page packs, target bodies from the stored target files (streamed into the caller's
 * sink). A HEAD is answered from the stored HEAD, else from the stored GET's status and headers;
 * a GET the source never made (even if it HEAD-typed the URL) is "not archived": outcome
 * "error", code `not-archived`, which still costs the replay a request. robots.txt is answered
 * from the stored robots rows (with a file refusing exactly what the source was refused), 404
 * when the source never fetched it. Never touches the network, never throws.
 *
 * Volume: `wireBytes + headerBytes` equals the stored row's `bytes`, so byte budgets and the
 * volume curve replay exactly. `Retry-After` is not replayed (a replay never waits for a site).
 */
export class ReplayFetcher implements Fetcher {
  readonly stats: ReplayFetcherStats = { answered: 0, notArchived: 0 };
  private readonly db: Db;
  private readonly dataDir: string;
  private readonly index: ReplayIndex;
  /** Page pack (relative path) → open file descriptor. */
  private readonly packs = new Map<string, number>();

  constructor(options: ReplayFetcherOptions) {
    this.db = options.db;
    this.dataDir = options.dataDir;
    this.index = options.index;
  }

  async fetch(request: FetchRequest): Promise<FetchResult> {
    const started = performance.now();
    const result = emptyFetchResult(request);
    try {
      if (request.signal?.aborted) return fail(result, "aborted", "Aborted by the caller", false, started);
      const answered = isRobotsFetch(request) ? await this.answerRobots(request, result) : await this.answer(request, result);
      if (result.outcome === "error" && result.error?.code === NOT_ARCHIVED) this.stats.notArchived += 1;
      else if (answered) this.stats.answered += 1;
      return finish(result, started);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (request.signal?.aborted) return fail(result, "aborted", "Aborted by the caller", false, started);
      this.stats.notArchived += 1;
      return fail(result, NOT_ARCHIVED, `stored response unreadable: ${message}`, false, started);
    }
  }

  /** Fills `result` for a page, target or HEAD request; false when nothing was archived. */
  private async answer(request: FetchRequest, result: FetchResult): Promise<boolean> {
    const entry = this.index.lookup(request.url);
    const rowId = request.method === "HEAD" ? entry?.head || entry?.get : entry?.get;
    if (!entry || !rowId) return notArchived(result, NOT_ARCHIVED_MESSAGE);
    const row = await this.row(rowId);
    if (!row) return notArchived(result, NOT_ARCHIVED_MESSAGE);
    const head = this.describe(request, row);
    Object.assign(result, { status: head.status, headers: head.headers, mime: head.mime, location: resolveLocation(head, row) });
    // Volume as stored: a GET (or a HEAD answered from its own HEAD row) costs the row's bytes;
    // a HEAD answered from a GET costs only that GET's headers.
    const ownRow = request.method === "GET" || rowId === entry.head;
    const headerBytes = estimateHeaderBytes(head.status, head.headers);
    result.headerBytes = ownRow ? Math.min(headerBytes, row.bytes) : headerBytes;
    result.wireBytes = ownRow ? row.bytes - result.headerBytes : 0;
    if (row.outcome === "error") {
      const code = errorCode(row.error) || "network-error";
      const message = row.error?.slice(code.length + 1).trim() || "stored error";
      result.error = { code: code as FetchErrorCode, message, retryable: RETRYABLE_CODES.has(code) };
      result.outcome = "error";
      return true;
    }

    const is2xx = head.status >= 200 && head.status < 300;
    if (is2xx && request.blockedMimePrefixes.some((prefix) => head.mime.startsWith(prefix))) {
      result.outcome = "blocked-mime";
      return true;
    }
    if (request.method === "HEAD") return true;
    const overflow = request.overflow ?? "abort";
    if (overflow === "abort" && head.contentLength !== null && head.contentLength > request.maxBodyBytes) {
      result.outcome = "too-large";
      return true;
    }
    const disposition: BodyDisposition = request.wantBody ? request.wantBody(head.mime, head) : true;
    if (disposition === false) return true;
    if (row.outcome === "too-large") {
      result.outcome = "too-large";
      return true;
    }
    const body = await this.body(entry.get, entry.body, row, is2xx, head.mime);
    if (!body) return notArchived(result, "response body not in the stored crawl");
    return this.deliver(request, head, body, disposition, result);
  }

  /** robots.txt: the stored fetch's status with a file refusing what the source was refused; 404 when never fetched. */
  private async answerRobots(request: FetchRequest, result: FetchResult): Promise<boolean> {
    const rowId = this.index.robotsRow(request.url);
    const row = rowId === undefined ? null : await this.row(rowId);
    if (!row) {
      Object.assign(result, { status: 404, headers: { "content-type": "text/plain" }, mime: "text/plain", body: Buffer.alloc(0) });
      return false;
    }
    if (row.outcome === "error") {
      const code = errorCode(row.error) || "network-error";
      result.outcome = "error";
      result.error = { code: code as FetchErrorCode, message: row.error?.slice(code.length + 1).trim() || "stored error", retryable: false };
      return true;
    }
    const head = this.describe(request, row);
    Object.assign(result, { status: head.status, headers: head.headers, mime: head.mime, location: resolveLocation(head, row) });
    result.headerBytes = estimateHeaderBytes(head.status, head.headers);
    result.wireBytes = Math.max(0, row.bytes - result.headerBytes);
    if (head.status >= 200 && head.status < 300) {
      const text = Buffer.from(this.index.robotsTxt(request.url), "utf8");
      const disposition = request.wantBody ? request.wantBody(head.mime, head) : true;
      if (disposition !== false) return this.deliver(request, head, { kind: "buffer", data: text }, disposition, result);
    }
    return true;
  }

  /**
   * One stored attempt with its body's whereabouts, in one statement: raw SQL (quoted identifiers,
   * bound parameter: SQLite and PostgreSQL alike) costs a third of `findUnique` + two lookups.
   */
  private async row(id: number): Promise<StoredRow | null> {
    const rows = await this.db.$queryRaw<Array<Record<string, unknown>>>`
      SELECT r."status", r."mime", r."headers", r."outcome", r."error", r."redirectTo", r."bytes", r."bodySha256",
             b."storagePath" AS "bodyPath", b."offset" AS "bodyOffset", b."compressedBytes" AS "bodyCompressedBytes",
             t."storagePath" AS "targetPath", t."mime" AS "targetMime"
      FROM "CrawlRequest" r
      LEFT JOIN "StoredBody" b ON b."crawlId" = r."crawlId" AND b."sha256" = r."bodySha256"
      LEFT JOIN "Target" t ON t."crawlId" = r."crawlId" AND t."url" = r."url" AND r."method" = 'GET'
      WHERE r."id" = ${id}`;
    const raw = rows[0];
    if (!raw) return null;
    const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
    const int = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    return {
      status: int(raw.status),
      mime: text(raw.mime),
      headers: text(raw.headers),
      outcome: String(raw.outcome),
      error: text(raw.error),
      redirectTo: text(raw.redirectTo),
      bytes: int(raw.bytes) ?? 0,
      bodySha256: text(raw.bodySha256),
      bodyPath: text(raw.bodyPath),
      bodyOffset: int(raw.bodyOffset),
      bodyCompressedBytes: int(raw.bodyCompressedBytes),
      targetPath: text(raw.targetPath),
      targetMime: text(raw.targetMime),
    };
  }

  private describe(request: FetchRequest, row: StoredRow): ResponseHead {
    const headers = parseHeaders(row.headers);
    delete headers["retry-after"];
    if (row.mime && !headers["content-type"]) headers["content-type"] = row.mime;
    if (row.redirectTo && !headers.location) headers.location = row.redirectTo;
    const length = headers["content-length"];
    const contentLength = length !== undefined && /^\d+$/.test(length.trim()) ? Number(length) : null;
    return { url: request.url, method: request.method, status: row.status ?? 0, headers, mime: row.mime ?? "", contentLength };
  }

  /**
   * The stored body of a GET: the HTML page kept with the row (or with an earlier GET of the
   * URL), else the target file collected from that URL. Non-2xx bodies are not archived: empty.
   */
  private async body(getRow: number, bodyRow: number, row: StoredRow, is2xx: boolean, mime: string): Promise<Body | null> {
    let page: StoredRow | null = row;
    if (!row.bodyPath && bodyRow && bodyRow !== getRow) page = await this.row(bodyRow);
    if (page?.bodyPath && page.bodyOffset !== null && page.bodyCompressedBytes !== null) {
      const stored = { storagePath: page.bodyPath, offset: page.bodyOffset, compressedBytes: page.bodyCompressedBytes };
      return { kind: "buffer", data: this.readPage(stored) };
    }
    if (row.targetPath && row.targetMime === mime) {
      const absolutePath = path.join(this.dataDir, row.targetPath);
      const stat = statOrNull(absolutePath);
      if (stat?.isFile()) return { kind: "file", absolutePath, size: stat.size };
    }
    if (!is2xx) return { kind: "buffer", data: Buffer.alloc(0) };
    return null;
  }

  /**
   * One stored HTML body: the format of `PageBodyStore.read` (at `offset`, a brotli or gzip member
   * of a pack file, or the gzip member of a response record in the crawl's WARC file), with each
   * file kept open and read synchronously: opening and closing it for every page cost more than
   * the rest of the answer.
   */
  private readPage(body: Pick<StoredPageBody, "storagePath" | "offset" | "compressedBytes">): Buffer {
    let fd = this.packs.get(body.storagePath);
    if (fd === undefined) {
      fd = fs.openSync(path.join(this.dataDir, body.storagePath), "r");
      this.packs.set(body.storagePath, fd);
    }
    const buffer = Buffer.alloc(body.compressedBytes);
    const read = fs.readSync(fd, buffer, 0, body.compressedBytes, body.offset);
    if (read !== body.compressedBytes) throw new Error(`stored page file ${body.storagePath} is truncated`);
    return decodePackedBody(body.storagePath, buffer);
  }

  /** Closes the page packs it opened. */
  close(): void {
    for (const fd of this.packs.values()) fs.closeSync(fd);
    this.packs.clear();
  }

  /** Hands the body over as the HTTP fetcher would: buffer or sink, `maxBodyBytes` and overflow respected. */
  private async deliver(request: FetchRequest, head: ResponseHead, body: Body, disposition: BodyDisposition, result: FetchResult): Promise<boolean> {
    const size = body.kind === "buffer" ? body.data.length : body.size;
    const overflow = request.overflow ?? "abort";
    const stream = disposition === "stream";
    if (size > request.maxBodyBytes && (overflow === "abort" || stream)) {
      result.outcome = "too-large";
      return true;
    }
    if (!stream) {
      let data = body.kind === "buffer" ? body.data : await fs.promises.readFile(body.absolutePath);
      if (data.length > request.maxBodyBytes) {
        data = data.subarray(0, request.maxBodyBytes);
        result.truncated = true;
      }
      result.body = data;
      result.bodyBytes = data.length;
      return true;
    }
    if (!request.openSink) {
      fail(result, "sink-error", 'Cannot open sink: wantBody returned "stream" but no openSink was given', false);
      return true;
    }
    let sink;
    try {
      sink = request.openSink(head);
    } catch (error) {
      fail(result, "sink-error", `Cannot open sink: ${(error as Error).message}`, false);
      return true;
    }
    result.streamed = true;
    try {
      if (body.kind === "buffer") {
        await new Promise<void>((resolve, reject) => {
          sink.once("error", reject);
          sink.end(body.data, () => resolve());
        });
      } else {
        await pipeline(fs.createReadStream(body.absolutePath), sink, { signal: request.signal });
      }
      result.bodyBytes = size;
    } catch (error) {
      sink.destroy();
      if (request.signal?.aborted) fail(result, "aborted", "Aborted by the caller", false);
      else fail(result, "sink-error", `Sink failed: ${(error as Error).message}`, false);
    }
    return true;
  }
}

/** The engine's robots.txt fetches are the only ones that truncate instead of refusing big bodies. */
function isRobotsFetch(request: FetchRequest): boolean {
  return request.method === "GET" && request.overflow === "truncate";
}


function finish(result: FetchResult, started: number): FetchResult {
  result.durationMs = Math.round((performance.now() - started) * 100) / 100;
  return result;
}

function fail(result: FetchResult, code: string, message: string, retryable: boolean, started?: number): FetchResult {
  Object.assign(result, { outcome: "error", status: result.status, body: null, error: { code: code as FetchErrorCode, message, retryable } });
  return started === undefined ? result : finish(result, started);
}

/** The synthetic answer for what the source never fetched: no status, no bytes, not retried. */
function notArchived(result: FetchResult, message: string): boolean {
  Object.assign(result, { status: 0, headers: {}, mime: "", location: null, body: null, bodyBytes: 0, wireBytes: 0, headerBytes: 0, streamed: false });
  fail(result, NOT_ARCHIVED, message, false);
  return false;
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

function parseHeaders(json: string | null): Record<string, string> {
  if (!json) return {};
  try {
    const parsed: unknown = JSON.parse(json);
    if (!parsed || typeof parsed !== "object") return {};
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(parsed)) if (typeof value === "string") headers[name.toLowerCase()] = value;
    return headers;
  } catch {
    return {};
  }
}

function resolveLocation(head: ResponseHead, row: StoredRow): string | null {
  const location = head.headers.location;
  if (!location) return row.redirectTo;
  try {
    return new URL(location.trim(), head.url).href;
  } catch {
    return row.redirectTo;
  }
}

/** Same estimate as the HTTP fetcher: status line, one `name: value\r\n` per header, blank line. */
function estimateHeaderBytes(status: number, headers: Record<string, string>): number {
  let bytes = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n`.length + 2;
  for (const [name, value] of Object.entries(headers)) bytes += name.length + value.length + 4;
  return bytes;
}
