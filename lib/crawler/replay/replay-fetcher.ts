import fs from "node:fs";
import { STATUS_CODES } from "node:http";
import { performance } from "node:perf_hooks";
import { pipeline } from "node:stream/promises";
import type { FetchErrorCode } from "../fetch/errors";
import { emptyFetchResult, type BodyDisposition, type FetchRequest, type FetchResult, type Fetcher, type ResponseHead } from "../fetch/types";
import { errorCode, type ReplayIndex } from "./replay-index";
import type { ReplaySource, StoredAttempt } from "./replay-source";

/**
 * Error code of a replayed request the stored crawl cannot answer. Not (yet) a member of
 * `FetchErrorCode`: the network layer never produces it.
 */
export const NOT_ARCHIVED = "not-archived" as string as FetchErrorCode;
export const NOT_ARCHIVED_MESSAGE = "not in the stored crawl";

/** Errors a retry could fix, as the network layer classifies them (lib/crawler/fetch/errors.ts). */
const RETRYABLE_CODES = new Set(["connect-timeout", "headers-timeout", "body-timeout", "connection-reset", "connection-refused", "network-error"]);

export interface ReplayFetcherOptions {
  /** The stored crawl: attempts, page bodies, target files. Its owner closes it. */
  source: ReplaySource;
  /** Index of the same crawl (`ReplayIndex.build`). */
  index: ReplayIndex;
}

export interface ReplayFetcherStats {
  /** Requests answered from the stored crawl. */
  answered: number;
  /** Requests answered "not-archived" (the source never fetched the URL, or kept no body for it). */
  notArchived: number;
}

type Body = { kind: "buffer"; data: Buffer } | { kind: "file"; absolutePath: string; size: number };

/**
 * A Fetcher that answers from a stored crawl instead of the network (the paper's local mode):
 * status, headers, MIME type and Location from the final stored attempt of the URL, HTML bodies
 * and target files from its ReplaySource (target files streamed into the caller's sink). A HEAD is answered from the stored HEAD, else from the stored GET's status and headers;
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
  private readonly source: ReplaySource;
  private readonly index: ReplayIndex;

  constructor(options: ReplayFetcherOptions) {
    this.source = options.source;
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
    const row = await this.source.attempt(rowId);
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
    const row = rowId === undefined ? null : await this.source.attempt(rowId);
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

  private describe(request: FetchRequest, row: StoredAttempt): ResponseHead {
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
  private async body(getRow: number, bodyRow: number, row: StoredAttempt, is2xx: boolean, mime: string): Promise<Body | null> {
    let page = row.page;
    if (!page && bodyRow && bodyRow !== getRow) page = (await this.source.attempt(bodyRow))?.page ?? null;
    if (page) return { kind: "buffer", data: this.source.pageBody(page) };
    if (row.target && row.target.mime === mime) {
      const file = this.source.targetFile(row.target.storagePath);
      if (file) return { kind: "file", ...file };
    }
    if (!is2xx) return { kind: "buffer", data: Buffer.alloc(0) };
    return null;
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

function resolveLocation(head: ResponseHead, row: StoredAttempt): string | null {
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
