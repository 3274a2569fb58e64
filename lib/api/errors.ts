/**
 * Refusals of the HTTP layer itself (a body that is not JSON, no session, a foreign Host…), one
 * class per policy: the class carries the HTTP status and the machine-readable `code` of
 * docs/API.md. The domain's refusals (not found, invalid state, bad input) are lib/errors.ts;
 * lib/api/responses.ts answers both.
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ApiRequestError";
  }
}

/** 400 `invalid_json`: the body could not be parsed as JSON. */
export class InvalidJsonError extends ApiRequestError {
  constructor(detail: string, options?: { cause?: unknown }) {
    super(400, "invalid_json", `The request body is not valid JSON: ${detail}`, options);
    this.name = "InvalidJsonError";
  }
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
