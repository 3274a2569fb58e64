import type { Writable } from "node:stream";
import type { FetchErrorCode } from "./errors";
import type { ArchivedPayload, ExchangeFacts, ExchangeRecorder } from "./exchange-recorder";

export type FetchMethod = "GET" | "HEAD";

/** What the fetcher knows once headers have arrived; passed to `wantBody` and `openSink`. */
export interface ResponseHead {
  url: string;
  method: FetchMethod;
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Content-Type before `;`, lower-cased, trimmed; "" when absent. */
  mime: string;
  /** Content-Length when the server sent a valid one. */
  contentLength: number | null;
}

/**
 * What to do with a response body:
 * - `true`: buffer it into `FetchResult.body` (pages, small files);
 * - `false`: don't read it (the connection is closed unless the body is small and
 *   announced, in which case it is drained to keep the connection alive);
 * - `"stream"`: decode it into the Writable returned by `FetchRequest.openSink`, so large
 *   target files never sit in memory.
 */
export type BodyDisposition = boolean | "stream";

export interface FetchRequest {
  method: FetchMethod;
  /** Absolute http(s) URL. */
  url: string;
  /** Aborts the request (pause, stop, shutdown); outcome "error", code "aborted". */
  signal?: AbortSignal;
  /** Limit on the *decoded* body size (bounds decompression bombs too). */
  maxBodyBytes: number;
  /** Tighter decoded limit for a buffered body (`wantBody` true: pages). @default maxBodyBytes */
  maxBufferedBytes?: number;
  /** Tighter decoded limit for a streamed body (`wantBody` "stream": target files). @default maxBodyBytes */
  maxStreamedBytes?: number;
  /**
   * Total time for the request, headers and body together; past it the request ends with outcome
   * "error", code "deadline-exceeded". Idle timeouts alone never fire on a server that drips a
   * byte every few seconds. @default the fetcher's own (HttpFetcher: 120000)
   */
  deadlineMs?: number;
  /**
   * What happens past `maxBodyBytes`: "abort" (outcome "too-large", no body) or "truncate"
   * (outcome "ok", first `maxBodyBytes` bytes kept, `truncated: true`; for robots.txt).
   * @default "abort"
   */
  overflow?: "abort" | "truncate";
  /** MIME prefixes (e.g. `image/`) whose bodies are aborted as soon as headers arrive (2xx only). */
  blockedMimePrefixes: readonly string[];
  /** Decides per response; not called for HEAD or blocked MIME types. @default () => true */
  wantBody?: (mime: string, head: ResponseHead) => BodyDisposition;
  /**
   * Required when `wantBody` may return "stream". Called once per attempt; the fetcher ends
   * the Writable on success and destroys it otherwise (outcome ≠ "ok"): the caller then
   * discards what was written (e.g. deletes the partial file).
   */
  openSink?: (head: ResponseHead) => Writable;
  /** Extra request headers (lower-case names), e.g. `if-none-match`. */
  headers?: Record<string, string>;
  /** Receives the exchange as it went over the wire (the crawl's web archive). */
  recorder?: ExchangeRecorder;
  /** Why the URL was requested, recorded beside the exchange. */
  facts?: ExchangeFacts;
}

export type FetchOutcome = "ok" | "blocked-mime" | "too-large" | "error";

/** One HTTP request (one attempt): plain data, ready to be stored as a request row. */
export interface FetchResult {
  url: string;
  method: FetchMethod;
  /** HTTP status; 0 when no response arrived (outcome "error"). */
  status: number;
  headers: Record<string, string>;
  mime: string;
  /** Location header resolved against `url`; null when absent or unparsable. */
  location: string | null;
  /** Decoded body in buffer mode with outcome "ok"; null otherwise. */
  body: Buffer | null;
  /** Decoded bytes delivered (to `body` or to the sink). */
  bodyBytes: number;
  /** Body bytes received on the wire (compressed size), including aborted bodies. */
  wireBytes: number;
  /** Approximate size of the status line and headers; counts toward the volume. */
  headerBytes: number;
  /** From sending the request to the end of the body (or the failure). */
  durationMs: number;
  outcome: FetchOutcome;
  /** True when `overflow: "truncate"` cut the body. */
  truncated: boolean;
  /** True when the body went to the caller's sink ("stream"). */
  streamed: boolean;
  /** Where the request's recorder archived the payload, when it says (a page read back from the web archive). */
  archived?: Promise<ArchivedPayload | null>;
  error?: { code: FetchErrorCode; message: string; retryable: boolean };
}

/** Anything that performs one request: HttpFetcher, or a replay / fake fetcher in tests. */
export interface Fetcher {
  /** Never throws: failures are results with outcome "error". */
  fetch(request: FetchRequest): Promise<FetchResult>;
}

/** A result with nothing received yet: what a fetcher fills in as the response arrives. */
export function emptyFetchResult(request: Pick<FetchRequest, "url" | "method">): FetchResult {
  return {
    url: request.url,
    method: request.method,
    status: 0,
    headers: {},
    mime: "",
    location: null,
    body: null,
    bodyBytes: 0,
    wireBytes: 0,
    headerBytes: 0,
    durationMs: 0,
    outcome: "ok",
    truncated: false,
    streamed: false,
  };
}
