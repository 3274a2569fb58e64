/**
 * One HTTP request, as the crawler counts it. Built on undici `request` with our own Agent
 * (see network-safety.ts). Redirects are *not* followed: the engine follows them itself so
 * that every hop is one counted request with its own row.
 */
import { performance } from "node:perf_hooks";
import { type Agent, request } from "undici";
import { z } from "zod";
import { MAX_URL_CHARS } from "../defaults";
import { contentCodings, drainOrDrop, readBody } from "./body";
import { noteBodySha256 } from "./body-digest";
import { effectiveMime } from "./effective-mime";
import { DeadlineError, type FetchError, SinkError, toFetchError, UrlTooLongError } from "./errors";
import { openRecording, type TruncationReason } from "./exchange-recorder";
import type { NetworkPolicy } from "./network-policy";
import { agentOptionsSchema, assertFetchableUrl, createAgent, networkPolicyOf } from "./network-safety";
import { emptyFetchResult, type BodyDisposition, type FetchRequest, type FetchResult, type Fetcher, type ResponseHead } from "./types";

export const DEFAULT_USER_AGENT = "Forage/0.1 (+https://github.com/forage-crawler/forage; data-acquisition crawler)";

export const httpFetcherOptionsSchema = agentOptionsSchema.extend({
  /** Sent on every request; names Forage and a contact URL. @default DEFAULT_USER_AGENT */
  userAgent: z.string().trim().min(1).default(DEFAULT_USER_AGENT),
  /** Total time of one request, headers and body, unless the request sets its own `deadlineMs`. @default 120000 */
  requestDeadlineMs: z.number().int().positive().default(120_000),
});
/**
 * `allowPrivateNetwork` and `privateNetworks` (the network policy, network-policy.ts), `connectTimeoutMs` (@default 10000), `headersTimeoutMs`
 * (@default 30000), `bodyTimeoutMs` (idle time between chunks, @default 30000),
 * `keepAliveTimeoutMs` (@default 4000), `userAgent` (@default DEFAULT_USER_AGENT),
 * `requestDeadlineMs` (headers + body, @default 120000).
 * undici checks header/body timeouts on a ~0.5 s tick: a value under 1 s fires late.
 */
export type HttpFetcherOptions = z.input<typeof httpFetcherOptionsSchema>;

const ACCEPT_ENCODING = "gzip, deflate, br";

/**
 * The crawler's Fetcher. It owns a connection pool checked against one network policy: share
 * it only between crawls with the same policy, and `close()` it on shutdown.
 */
export class HttpFetcher implements Fetcher {
  readonly userAgent: string;
  readonly networkPolicy: NetworkPolicy;
  readonly requestDeadlineMs: number;
  private readonly agent: Agent;
  /**
   * HEAD requests get their own pool: undici closes a connection after a HEAD (it cannot tell
   * whether a broken server sends a body), and on a shared pool that made nearly every later
   * GET open a new connection (80 requests → 79 connections; a TLS handshake each on https).
   */
  private readonly headAgent: Agent;
  /**
   * `host:port` → the address of the latest connection to it (for the archive's WARC-IP-Address).
   * undici does not say which socket served a request; with one connection per host at a time
   * (the crawl's politeness) the latest one is it.
   */
  private readonly addresses = new Map<string, string>();

  constructor(options: HttpFetcherOptions = {}) {
    const { userAgent, requestDeadlineMs, ...agentOptions } = httpFetcherOptionsSchema.parse(options);
    this.userAgent = userAgent;
    this.requestDeadlineMs = requestDeadlineMs;
    this.networkPolicy = networkPolicyOf(agentOptions);
    const remember = (hostPort: string, address: string): void => {
      if (this.addresses.size >= 10_000) this.addresses.clear();
      this.addresses.set(hostPort, address);
    };
    this.agent = createAgent(agentOptions, remember);
    this.headAgent = createAgent(agentOptions, remember);
  }

  /** Performs exactly one request. Never throws: failures are outcome "error". */
  async fetch(req: FetchRequest): Promise<FetchResult> {
    const deadlineMs = req.deadlineMs ?? this.requestDeadlineMs;
    // One controller ends the request on the deadline or on the caller's abort. Not
    // AbortSignal.any: the crawl's signal lives for millions of requests and would collect them.
    const ending = new AbortController();
    let deadlineHit = false;
    const timer = setTimeout(() => {
      deadlineHit = true;
      ending.abort(new DeadlineError(deadlineMs));
    }, deadlineMs);
    const onCallerAbort = (): void => ending.abort(req.signal!.reason);
    if (req.signal?.aborted) ending.abort(req.signal.reason);
    else req.signal?.addEventListener("abort", onCallerAbort, { once: true });
    try {
      const result = await this.fetchOnce(req, ending.signal);
      // Whatever a deadline abort surfaced as (undici's abort error, a cut pipeline), it is the deadline.
      if (deadlineHit && !req.signal?.aborted && result.outcome === "error" && result.error?.code !== "deadline-exceeded") {
        const error = new DeadlineError(deadlineMs);
        result.error = { code: error.code, message: error.message, retryable: error.retryable };
      }
      return result;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  private async fetchOnce(req: FetchRequest, signal: AbortSignal): Promise<FetchResult> {
    const started = performance.now();
    const result = emptyFetchResult(req);
    const finish = (error?: FetchError): FetchResult => {
      if (error) {
        result.outcome = "error";
        result.body = null;
        result.error = { code: error.code, message: error.message, retryable: error.retryable };
      }
      result.durationMs = Math.round((performance.now() - started) * 100) / 100;
      return result;
    };

    let response: Awaited<ReturnType<typeof request>>;
    let sentHeaders: Record<string, string> = {};
    let target: URL;
    const requestedAt = new Date();
    try {
      if (req.url.length > MAX_URL_CHARS) {
        throw new UrlTooLongError(`URL of ${req.url.length} characters, over the ${MAX_URL_CHARS}-character limit: ${req.url.slice(0, 80)}…`);
      }
      const url = (target = assertFetchableUrl(req.url, this.networkPolicy));
      sentHeaders = { ...req.headers, "user-agent": this.userAgent, "accept-encoding": ACCEPT_ENCODING, accept: "*/*" };
      response = await request(url, {
        method: req.method,
        dispatcher: req.method === "HEAD" ? this.headAgent : this.agent,
        signal,
        headers: sentHeaders,
        // The header list as received (case, order, repeats) for the web archive; parsed below.
        responseHeaders: "raw",
      });
    } catch (err) {
      return finish(toFetchError(err, signal));
    }

    const rawHeaders = headerPairs(response.headers as unknown as string[]);
    const head = describeResponse(req, response.statusCode, rawHeaders);
    const recording = openRecording(req.recorder, () => ({
      method: req.method,
      url: req.url,
      requestHeaders: [["host", target.host], ...Object.entries(sentHeaders)],
      requestedAt,
      httpVersion: "HTTP/1.1",
      status: response.statusCode,
      statusText: response.statusText ?? "",
      responseHeaders: rawHeaders,
      remoteAddress: this.addressOf(target),
      facts: req.facts,
    }));
    const body = response.body;
    const onWireChunk = (chunk: Buffer): void => recording.chunk(chunk);
    const dropBody = async (contentLength: number | null): Promise<number> => {
      const drained = await drainOrDrop(body, contentLength, undefined, onWireChunk);
      recording.end({ truncated: drained.complete ? null : "unspecified" });
      return drained.wireBytes;
    };
    Object.assign(result, {
      status: head.status,
      headers: head.headers,
      mime: head.mime,
      location: resolveLocation(head.headers.location, req.url),
      headerBytes: estimateHeaderBytes(head.status, response.statusText, head.headers),
    });
    const is2xx = head.status >= 200 && head.status < 300;

    // Blocked types (images, audio, video) cost a request but must not cost their bytes.
    if (is2xx && req.blockedMimePrefixes.some((p) => head.mime.startsWith(p))) {
      result.outcome = "blocked-mime";
      result.wireBytes = await dropBody(req.method === "HEAD" ? 0 : null);
      return finish();
    }
    if (req.method === "HEAD") {
      await dropBody(0);
      return finish();
    }
    const overflow = req.overflow ?? "abort";
    if (overflow === "abort" && head.contentLength !== null && head.contentLength > req.maxBodyBytes) {
      result.outcome = "too-large";
      result.error = { code: "too-large", message: `Content-Length ${head.contentLength} over the ${req.maxBodyBytes}-byte limit`, retryable: false };
      await dropBody(null);
      return finish();
    }
    const disposition: BodyDisposition = req.wantBody ? req.wantBody(head.mime, head) : true;
    if (disposition === false) {
      result.wireBytes = await dropBody(head.contentLength);
      return finish();
    }
    let sink = null;
    if (disposition === "stream") {
      try {
        if (!req.openSink) throw new Error('wantBody returned "stream" but no openSink was given');
        sink = req.openSink(head);
      } catch (err) {
        await dropBody(null);
        return finish(new SinkError(`Cannot open sink: ${(err as Error).message}`, { cause: err }));
      }
    }
    const limit = sink ? (req.maxStreamedBytes ?? req.maxBodyBytes) : (req.maxBufferedBytes ?? req.maxBodyBytes);
    const limitNote = `the ${limit}-byte limit for ${sink ? "a streamed file" : "a buffered page"}`;
    if (overflow === "abort" && head.contentLength !== null && head.contentLength > limit) {
      result.outcome = "too-large";
      result.error = { code: "too-large", message: `Content-Length ${head.contentLength} over ${limitNote}`, retryable: false };
      result.streamed = sink !== null;
      sink?.destroy();
      await dropBody(null);
      return finish();
    }
    const read = await readBody(body, {
      contentEncoding: head.headers["content-encoding"],
      maxBodyBytes: limit,
      overflow,
      sink,
      signal,
      onWireChunk,
    });
    const truncation = truncationOf(read, signal);
    const archived = recording.end({ truncated: truncation });
    if (archived) result.archived = archived;
    // A whole body sent without content coding is the recorded payload: its digest is the body's.
    if (read.body && truncation === null && contentCodings(head.headers["content-encoding"]).length === 0 && read.body.length === read.wireBytes) {
      const sha256 = recording.payloadSha256?.();
      if (sha256) noteBodySha256(read.body, sha256);
    }
    Object.assign(result, {
      body: read.body,
      bodyBytes: read.bodyBytes,
      wireBytes: read.wireBytes,
      truncated: read.truncated,
      streamed: sink !== null,
    });
    if (read.tooLarge) {
      result.outcome = "too-large";
      result.body = null;
      result.error = { code: "too-large", message: `decoded body over ${limitNote}`, retryable: false };
    }
    return finish(read.error);
  }

  private addressOf(parsed: URL): string | undefined {
    const host = parsed.hostname.replace(/^\[|\]$/g, "");
    return this.addresses.get(`${host}:${parsed.port || (parsed.protocol === "https:" ? 443 : 80)}`);
  }

  /** Closes pooled connections; waits for requests in flight. */
  async close(): Promise<void> {
    await Promise.all([this.agent.close(), this.headAgent.close()]);
  }
}

/** undici's raw header list (`name, value, name, value…`) as pairs. */
function headerPairs(raw: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) pairs.push([String(raw[i]), String(raw[i + 1])]);
  return pairs;
}

/** Why a read body is incomplete, for the archive; null when it was read to its end. */
function truncationOf(read: { truncated: boolean; tooLarge: boolean; error?: FetchError }, signal: AbortSignal): TruncationReason | null {
  if (read.truncated || read.tooLarge) return "length";
  if (!read.error) return null;
  if (read.error.code === "deadline-exceeded" || signal.reason instanceof DeadlineError) return "time";
  if (read.error.code === "decompression-bomb") return "length";
  return "disconnect";
}

function describeResponse(req: FetchRequest, status: number, raw: [string, string][]): ResponseHead {
  const headers: Record<string, string> = {};
  for (const [name, value] of raw) {
    const lower = name.toLowerCase();
    const before = headers[lower];
    // Set-Cookie lines cannot be comma-joined (their dates hold commas): one per line (cookie-jar.ts).
    headers[lower] = before === undefined ? value : `${before}${lower === "set-cookie" ? "\n" : ", "}${value}`;
  }
  const length = headers["content-length"];
  const contentLength = length !== undefined && /^\d+$/.test(length.trim()) ? Number(length) : null;
  let mime = parseMime(headers["content-type"]);
  if (status >= 200 && status < 300) mime = effectiveMime(mime, req.url, headers["content-disposition"]);
  return { url: req.url, method: req.method, status, headers, mime, contentLength };
}

/** Content-Type before `;`, lower-cased, trimmed; "" when absent. */
export function parseMime(contentType: string | undefined): string {
  if (!contentType) return "";
  return (contentType.split(";", 1)[0] ?? "").trim().toLowerCase();
}

/** A `Location` header resolved against the request URL; null when absent or not a URL. */
export function resolveLocation(location: string | undefined, base: string): string | null {
  if (!location) return null;
  try {
    return new URL(location.trim(), base).href;
  } catch {
    return null;
  }
}

/** Status line + `name: value\r\n` per header + blank line; what the server sent, within a few bytes. */
function estimateHeaderBytes(status: number, statusText: string | undefined, headers: Record<string, string>): number {
  let bytes = `HTTP/1.1 ${status} ${statusText ?? ""}\r\n`.length + 2;
  for (const [name, value] of Object.entries(headers)) bytes += name.length + value.length + 4;
  return bytes;
}
