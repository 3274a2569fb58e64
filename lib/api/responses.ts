import { CrawlConfigError } from "../crawl-config";
import { DomainError, ServiceBusyError, TooManyRequestsError, type DomainErrorKind } from "../errors";
import { ApiRequestError } from "./errors";

/**
 * The API's one error shape, `{ error: { code, message, status, fields? } }`, and the mapping
 * from typed errors to HTTP statuses. Route handlers call `toErrorResponse(error)` and nothing else.
 */

/** The status and `code` (docs/API.md) each kind of domain refusal is answered with. */
const DOMAIN_ERROR_ANSWERS: Record<DomainErrorKind, { status: number; code: string }> = {
  "invalid-request": { status: 400, code: "invalid_request" },
  "not-found": { status: 404, code: "not_found" },
  "invalid-state": { status: 409, code: "invalid_state" },
  "too-many-attempts": { status: 429, code: "too_many_requests" },
  busy: { status: 503, code: "busy" },
};

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body, bigintReplacer), {
    ...init,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...init.headers },
  });
}

/** 204 for DELETE. */
export function noContentResponse(): Response {
  return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
}

export function toErrorResponse(error: unknown): Response {
  if (error instanceof DomainError) {
    const { status, code } = DOMAIN_ERROR_ANSWERS[error.kind];
    const headers = error instanceof TooManyRequestsError || error instanceof ServiceBusyError ? { "retry-after": String(error.retryAfterSeconds) } : undefined;
    return errorBody(status, code, error.message, error.fields, headers);
  }
  if (error instanceof ApiRequestError) return errorBody(error.status, error.code, error.message);
  // Crawl settings are validated in lib/crawler/crawl-config.ts, which knows nothing about HTTP.
  if (error instanceof CrawlConfigError) {
    return errorBody(400, "invalid_request", error.message, error.fields);
  }
  if (error instanceof Error && error.name === "DatabaseNotReadyError") {
    return errorBody(503, "database_not_ready", error.message);
  }
  console.error(error);
  return errorBody(500, "internal", "Internal error: see the server log");
}

function errorBody(status: number, code: string, message: string, fields?: Record<string, string>, headers?: Record<string, string>): Response {
  return jsonResponse({ error: { code, message, status, ...(fields ? { fields } : {}) } }, { status, headers });
}

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? Number(value) : value;
}
