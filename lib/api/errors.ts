/**
 * Errors the API answers with, one class per policy: the class carries the HTTP status and
 * the machine-readable `code` of docs/API.md, so `toErrorResponse` needs no lookup table.
 * They live in lib/ (not app/) because lib/store commands throw them: "resume a finished
 * crawl" is a domain rule, and the worker and CLI see the same message the dashboard shows.
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ApiRequestError";
  }
}

/** 404 `not_found`: unknown crawl or target, or an id that is not a positive integer. */
export class NotFoundError extends ApiRequestError {
  constructor(what: string, message = `${what} not found`) {
    super(404, "not_found", message);
    this.name = "NotFoundError";
  }
}

/** 409 `invalid_state`: the action does not apply to the crawl's current status; the message says why. */
export class InvalidStateError extends ApiRequestError {
  constructor(message: string) {
    super(409, "invalid_state", message);
    this.name = "InvalidStateError";
  }
}

/** 400 `invalid_request`: `fields` maps each bad field path (`budget.requests`) to a message. */
export class InvalidRequestError extends ApiRequestError {
  constructor(fields: Record<string, string>, prefix = "Invalid request") {
    super(400, "invalid_request", `${prefix}: ${describeFields(fields)}`, fields);
    this.name = "InvalidRequestError";
  }
}

/** 400 `invalid_json`: the body could not be parsed as JSON. */
export class InvalidJsonError extends ApiRequestError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(400, "invalid_json", `The request body is not valid JSON: ${detail}`, undefined, options);
    this.name = "InvalidJsonError";
  }
}

function describeFields(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([field, message]) => `${field} ${message}`)
    .join("; ");
}

/** 401 `unauthorized`: no valid session cookie or API token. */
export class UnauthorizedError extends ApiRequestError {
  constructor(message = "Sign in, or send an API token as `Authorization: Bearer <token>`") {
    super(401, "unauthorized", message);
    this.name = "UnauthorizedError";
  }
}

/** 403 `forbidden`: signed in, but the role may not do this (members and admin-only routes). */
export class ForbiddenError extends ApiRequestError {
  constructor(message: string, code = "forbidden") {
    super(403, code, message);
    this.name = "ForbiddenError";
  }
}

/** 421 `unknown_host`: the Host header is not this server's public origin (DNS rebinding, a wrong proxy setting). */
export class UnknownHostError extends ApiRequestError {
  constructor(host: string, expected: string) {
    super(421, "unknown_host", `This server answers as ${expected}, not "${host.slice(0, 100)}" (set FORAGE_PUBLIC_URL if it is exposed under another name)`);
    this.name = "UnknownHostError";
  }
}

/** 413 `payload_too_large`: the body passed the limit while it was being read. */
export class PayloadTooLargeError extends ApiRequestError {
  constructor(limitBytes: number) {
    super(413, "payload_too_large", `The request body is larger than ${limitBytes} bytes`);
    this.name = "PayloadTooLargeError";
  }
}

/** 415 `unsupported_media_type`: state-changing routes read JSON only. */
export class UnsupportedMediaTypeError extends ApiRequestError {
  constructor(contentType: string | null) {
    super(415, "unsupported_media_type", `Send the body as Content-Type: application/json${contentType ? `, not ${contentType.slice(0, 100)}` : ""}`);
    this.name = "UnsupportedMediaTypeError";
  }
}

/** 429 `too_many_requests`: too many failed sign-ins; `retryAfterSeconds` goes into Retry-After. */
export class TooManyRequestsError extends ApiRequestError {
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(429, "too_many_requests", message);
    this.name = "TooManyRequestsError";
  }
}

/** 503 `busy`: the server is at its limit for this kind of work (password hashing); `retryAfterSeconds` goes into Retry-After. */
export class ServiceBusyError extends ApiRequestError {
  constructor(message: string, readonly retryAfterSeconds: number, options?: { cause?: unknown }) {
    super(503, "busy", message, undefined, options);
    this.name = "ServiceBusyError";
  }
}
