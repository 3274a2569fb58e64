import { describeFieldErrors, type FieldErrors } from "./field-errors";

/**
 * The domain's refusals: what lib/store, lib/auth, lib/harvest, lib/export and lib/archive throw
 * when a rule says no ("resume a finished crawl", "unknown harvest", "weak password"). They know
 * nothing of HTTP: the API answers each `kind` with its status and code (lib/api/responses.ts),
 * the CLI turns them into usage errors, and the worker and CLI show the message the dashboard shows.
 */
export type DomainErrorKind = "not-found" | "invalid-state" | "invalid-request" | "too-many-attempts" | "busy";

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;

  constructor(
    message: string,
    readonly fields?: FieldErrors,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Unknown crawl, target, harvest, user…, or an id that cannot name one. */
export class NotFoundError extends DomainError {
  readonly kind = "not-found";

  constructor(what: string, message = `${what} not found`) {
    super(message);
    this.name = "NotFoundError";
  }
}

/** The action does not apply in the current state (a finished crawl, the last admin); the message says why. */
export class InvalidStateError extends DomainError {
  readonly kind = "invalid-state";

  constructor(message: string) {
    super(message);
    this.name = "InvalidStateError";
  }
}

/** Bad input: `fields` maps each bad field path (`budget.requests`) to a message. */
export class InvalidRequestError extends DomainError {
  readonly kind = "invalid-request";
  declare readonly fields: FieldErrors;

  constructor(fields: FieldErrors, prefix = "Invalid request") {
    super(describeFieldErrors(prefix, fields), fields);
    this.name = "InvalidRequestError";
  }
}

/** Too many attempts (sign-ins, current-password guesses): try again after `retryAfterSeconds`. */
export class TooManyRequestsError extends DomainError {
  readonly kind = "too-many-attempts";

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
    this.name = "TooManyRequestsError";
  }
}

/** The server is at its limit for this kind of work (password hashing): try again after `retryAfterSeconds`. */
export class ServiceBusyError extends DomainError {
  readonly kind = "busy";

  constructor(message: string, readonly retryAfterSeconds: number, options?: { cause?: unknown }) {
    super(message, undefined, options);
    this.name = "ServiceBusyError";
  }
}
