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
