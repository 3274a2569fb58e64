import { z } from "zod";
import { InvalidRequestError } from "../errors";
import { zodFieldErrors } from "../field-errors";

/**
 * Query-string parsing. Query values are strings, so numbers go through `intParam`, which
 * accepts only plain digits: `z.coerce.number()` would turn "" into 0 and "1e3" into 1000.
 */
export function intParam(min: number, max: number) {
  return z
    .string()
    .regex(/^-?\d{1,16}$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
}

/** `limit` with an endpoint's default and ceiling. */
export function limitParam(defaultLimit: number, maxLimit = 1000) {
  return intParam(1, maxLimit).default(defaultLimit);
}

/**
 * Largest row id and counter: Prisma's `Int` is a 32-bit column. A cursor of 16 digits (the old
 * regex) could be past 2^53, where `Number` rounds it (9007199254740993 read as …992), and past
 * 2^31, where Prisma refuses it in a `where` (found by test/fuzz/api-bodies.fuzz.ts).
 */
export const MAX_ROW_ID = 2_147_483_647;

/** An opaque page cursor: the last row id of the previous page (a positive integer as text). */
export const cursorParam = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, "must be a cursor returned by a previous page")
  .transform(Number)
  .pipe(z.number().max(MAX_ROW_ID, "must be a cursor returned by a previous page"))
  .optional();

/** `?cursor=&limit=` of every paged list. */
export function pagingParams(defaultLimit = 100, maxLimit = 1000) {
  return { cursor: cursorParam, limit: limitParam(defaultLimit, maxLimit) };
}

/**
 * Parses the query string with a strict object schema: unknown parameters and repeated ones
 * are 400 errors (a typo such as `?limt=5` silently ignored would be a confusing bug).
 */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  const params = new URL(request.url).searchParams;
  // Maps, then Object.fromEntries (own properties): with `{}` and `key in values`, `?constructor=1`
  // was "given more than once" and `?__proto__=1` vanished past the strict schema (fuzz target).
  const values = new Map<string, string>();
  const repeated = new Map<string, string>();
  for (const [key, value] of params) {
    if (values.has(key)) repeated.set(key, "is given more than once");
    values.set(key, value);
  }
  if (repeated.size > 0) throw new InvalidRequestError(Object.fromEntries(repeated), "Invalid query");
  const parsed = schema.safeParse(Object.fromEntries(values));
  if (!parsed.success) throw new InvalidRequestError(zodFieldErrors(parsed.error, "is not a known parameter"), "Invalid query");
  return parsed.data;
}
