/**
 * The API's one error shape, `{ error: { code, message, status, fields? } }`, and the mapping
 * from typed errors to HTTP statuses. Route handlers call `toErrorResponse(error)` and nothing else.
 */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

export class NotFoundError extends ApiRequestError {
  constructor(what: string) {
    super(404, "not_found", `${what} not found`);
  }
}

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body, bigintReplacer), {
    ...init,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...init.headers },
  });
}

export function toErrorResponse(error: unknown): Response {
  if (error instanceof ApiRequestError) {
    return jsonResponse(
      { error: { code: error.code, message: error.message, status: error.status, ...(error.fields ? { fields: error.fields } : {}) } },
      { status: error.status },
    );
  }
  if (error instanceof Error && error.name === "DatabaseNotReadyError") {
    return jsonResponse({ error: { code: "database_not_ready", message: error.message, status: 503 } }, { status: 503 });
  }
  console.error(error);
  return jsonResponse({ error: { code: "internal", message: "Internal error: see the server log", status: 500 } }, { status: 500 });
}

function bigintReplacer(_key: string, value: unknown): unknown {
  return typeof value === "bigint" ? Number(value) : value;
}
