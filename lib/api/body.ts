import type { z } from "zod";
import { InvalidJsonError, InvalidRequestError } from "./errors";
import { toFieldErrors } from "./field-errors";

/** Largest JSON body we read; crawl settings are a few kilobytes. @default 1 MiB */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * Reads the body as JSON. A missing, oversized or malformed body is a 400 `invalid_json`, never
 * a 500: the message names the problem so a curl user can fix the request.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === "") throw new InvalidJsonError("the body is empty; send a JSON object");
  if (Buffer.byteLength(text) > MAX_JSON_BODY_BYTES) {
    throw new InvalidJsonError(`the body is larger than ${MAX_JSON_BODY_BYTES} bytes`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InvalidJsonError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** `readJsonBody` then `schema`; validation failures are a 400 `invalid_request` with `fields`. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const parsed = schema.safeParse(await readJsonBody(request));
  if (!parsed.success) throw new InvalidRequestError(toFieldErrors(parsed.error, "is not a known field"));
  return parsed.data;
}
