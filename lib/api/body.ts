import type { z } from "zod";
import { InvalidRequestError } from "../errors";
import { zodFieldErrors } from "../field-errors";
import { InvalidJsonError, PayloadTooLargeError, UnsupportedMediaTypeError } from "./errors";

/** Largest JSON body we read; crawl settings are a few kilobytes. @default 1 MiB */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * Reads the body as JSON. It must be sent as `application/json` (415 otherwise: a cross-site
 * form or no-cors fetch cannot send that type without a preflight) and is cut off at
 * MAX_JSON_BODY_BYTES while it streams in (413), never read whole first. A missing or malformed
 * body is a 400 `invalid_json`, never a 500: the message names the problem so a curl user can fix
 * the request.
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const contentType = request.headers.get("content-type");
  if (contentType === null || !/^application\/json\s*(;|$)/i.test(contentType.trim())) throw new UnsupportedMediaTypeError(contentType);
  const text = await readTextWithin(request, MAX_JSON_BODY_BYTES);
  if (text.trim() === "") throw new InvalidJsonError("the body is empty; send a JSON object");
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InvalidJsonError(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** `readJsonBody` then `schema`; validation failures are a 400 `invalid_request` with `fields`. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const parsed = schema.safeParse(await readJsonBody(request));
  if (!parsed.success) throw new InvalidRequestError(zodFieldErrors(parsed.error, "is not a known field"));
  return parsed.data;
}

/** The body as UTF-8 text, refused as soon as it passes `limitBytes` (a declared Content-Length too). */
async function readTextWithin(request: Request, limitBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limitBytes) throw new PayloadTooLargeError(limitBytes);
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limitBytes) {
      await reader.cancel().catch(() => {});
      throw new PayloadTooLargeError(limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}
