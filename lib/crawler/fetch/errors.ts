/**
 * Typed errors of the network layer. Each class *is* the retry policy: `retryable` is
 * fixed by the class, so `shouldRetry` never inspects messages or error codes
 * (cf. crawlee `packages/core/src/errors.ts`). `toFetchError` is the one place where
 * Node / undici errors are mapped onto these classes.
 */
import { describeRange } from "./address-ranges";

/** Stable codes reported in `FetchResult.error.code` and stored with the request row. */
export type FetchErrorCode =
  | "connect-timeout"
  | "headers-timeout"
  | "body-timeout"
  | "connection-reset"
  | "connection-refused"
  | "network-error"
  | "dns-not-found"
  | "private-network-refused"
  | "unsupported-scheme"
  | "invalid-url"
  | "protocol-error"
  | "decode-error"
  | "sink-error"
  | "deadline-exceeded"
  | "decompression-bomb"
  | "too-many-codings"
  | "url-too-long"
  | "too-large"
  | "aborted";

export abstract class FetchError extends Error {
  abstract readonly code: FetchErrorCode;
  /** Whether another attempt of the same request may succeed. Fixed per class. */
  abstract readonly retryable: boolean;
}

/** Transient failures: a new attempt (after a back-off) may succeed. */
export abstract class RetryableFetchError extends FetchError {
  readonly retryable = true;
}

/** Permanent for this URL: retrying would only spend budget. */
export abstract class NonRetryableFetchError extends FetchError {
  readonly retryable = false;
}

export class TimeoutError extends RetryableFetchError {
  override name = "TimeoutError";
  constructor(
    readonly code: "connect-timeout" | "headers-timeout" | "body-timeout",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

export class NetworkError extends RetryableFetchError {
  override name = "NetworkError";
  constructor(
    readonly code: "connection-reset" | "connection-refused" | "network-error",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** NXDOMAIN: the name does not exist; a temporary DNS failure (EAI_AGAIN) is a NetworkError. */
export class DnsNotFoundError extends NonRetryableFetchError {
  override name = "DnsNotFoundError";
  readonly code = "dns-not-found";
}

/**
 * The host resolved to (or is) an address the crawl's network policy refuses: a cloud-metadata
 * address (always), or a non-public one outside the server's private networks. Raised before
 * any packet is sent to that address. The message is what the request log shows.
 */
export class PrivateNetworkRefusedError extends NonRetryableFetchError {
  override name = "PrivateNetworkRefusedError";
  readonly code = "private-network-refused";
  constructor(
    readonly host: string,
    readonly address: string,
    /** ipaddr.js range name ("loopback", "private", "linkLocal"…) or "cloudMetadata". */
    readonly range: string,
  ) {
    const who = host === address || host === `[${address}]` ? address : `${address} (${host})`;
    super(
      range === "cloudMetadata"
        ? `refused: ${who} is a cloud-metadata address`
        : `refused: ${who} is ${describeRange(range)} not in the server's network policy`,
    );
  }
}

export class UnsupportedSchemeError extends NonRetryableFetchError {
  override name = "UnsupportedSchemeError";
  readonly code = "unsupported-scheme";
}

export class InvalidUrlError extends NonRetryableFetchError {
  override name = "InvalidUrlError";
  readonly code = "invalid-url";
}

/** The server's response is not valid HTTP/1.1 (llhttp `HPE_*`): it will not fix itself on a retry. */
export class ProtocolError extends NonRetryableFetchError {
  override name = "ProtocolError";
  readonly code = "protocol-error";
}

/** Corrupt gzip / deflate / br stream: the same bytes would come back on a retry. */
export class DecodeError extends NonRetryableFetchError {
  override name = "DecodeError";
  readonly code = "decode-error";
}

/**
 * The request's total deadline (headers and body together) passed. Idle timeouts cannot catch a
 * server that drips one byte every few seconds: each byte restarts them. Not retried: the same
 * server would drip again and cost another deadline.
 */
export class DeadlineError extends NonRetryableFetchError {
  override name = "DeadlineError";
  readonly code = "deadline-exceeded";
  constructor(readonly deadlineMs: number) {
    super(`deadline: ${formatSeconds(deadlineMs)} exceeded (headers and body)`);
  }
}

/** The decoded body grew far faster than the bytes received: a gzip / brotli bomb. */
export class DecompressionBombError extends NonRetryableFetchError {
  override name = "DecompressionBombError";
  readonly code = "decompression-bomb";
}

/** More content codings than the fetcher decodes (`gzip, gzip, gzip`): each one multiplies a bomb. */
export class TooManyCodingsError extends NonRetryableFetchError {
  override name = "TooManyCodingsError";
  readonly code = "too-many-codings";
}

/** A URL longer than the fetcher sends: refused before any connection. */
export class UrlTooLongError extends NonRetryableFetchError {
  override name = "UrlTooLongError";
  readonly code = "url-too-long";
}

/** The caller's sink (stream mode) failed, e.g. disk full: not the site's fault. */
export class SinkError extends NonRetryableFetchError {
  override name = "SinkError";
  readonly code = "sink-error";
}

/** The caller aborted (pause, stop, shutdown): never retried. */
export class FetchAbortedError extends NonRetryableFetchError {
  override name = "FetchAbortedError";
  readonly code = "aborted";
}

/** "3 s", "2.5 s", "120 s". */
function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

const NETWORK_CODES: Record<string, "connection-reset" | "connection-refused" | "network-error"> = {
  ECONNRESET: "connection-reset",
  EPIPE: "connection-reset",
  UND_ERR_SOCKET: "connection-reset",
  UND_ERR_CLOSED: "connection-reset",
  ECONNREFUSED: "connection-refused",
  ETIMEDOUT: "network-error",
  EHOSTUNREACH: "network-error",
  ENETUNREACH: "network-error",
  EAI_AGAIN: "network-error",
};

/**
 * Maps anything thrown while fetching onto a FetchError. Unknown errors become a
 * retryable NetworkError: a crawler meets many odd socket failures, and a bounded number
 * of retries is cheaper than losing a page to an unclassified one.
 */
export function toFetchError(err: unknown, signal?: AbortSignal): FetchError {
  if (err instanceof FetchError) return err;
  const e = err as { code?: string; name?: string; message?: string; cause?: unknown; errors?: unknown[] };
  // Node's happy-eyeballs connect wraps per-address failures in an AggregateError.
  if (e?.errors?.length) {
    const inner = e.errors.find((x) => x instanceof FetchError) ?? e.errors[0];
    return toFetchError(inner, signal);
  }
  if (e?.cause instanceof FetchError) return e.cause;
  const message = String(e?.message ?? err);
  if (signal?.aborted || e?.name === "AbortError" || e?.code === "UND_ERR_ABORTED" || e?.code === "ABORT_ERR") {
    return new FetchAbortedError(signal?.aborted ? "Aborted by the caller" : message, { cause: err });
  }
  switch (e?.code) {
    case "UND_ERR_CONNECT_TIMEOUT":
      return new TimeoutError("connect-timeout", message, { cause: err });
    case "UND_ERR_HEADERS_TIMEOUT":
      return new TimeoutError("headers-timeout", message, { cause: err });
    case "UND_ERR_BODY_TIMEOUT":
      return new TimeoutError("body-timeout", message, { cause: err });
    case "ENOTFOUND":
      return new DnsNotFoundError(message, { cause: err });
  }
  const code = e?.code ?? "";
  // Headers over undici's maxHeaderSize (16 KiB): a 200 000-character Location, say. The same server would send them again.
  if (code === "UND_ERR_HEADERS_OVERFLOW") return new ProtocolError(`${message}: response headers over 16 KiB`, { cause: err });
  if (code.startsWith("HPE_") || e?.name === "HTTPParserError") return new ProtocolError(message, { cause: err });
  if (code === "ERR_INVALID_URL" || code === "UND_ERR_INVALID_ARG") return new InvalidUrlError(message, { cause: err });
  return new NetworkError(NETWORK_CODES[e?.code ?? ""] ?? "network-error", message, { cause: err });
}
