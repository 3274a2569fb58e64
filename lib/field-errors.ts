import type { z } from "zod";

/** Field path → message, e.g. `{ "budget.requests": "must be at least 1" }`: the `fields` of a refusal. */
export type FieldErrors = Record<string, string>;

/**
 * Zod issues → field messages, the one mapping every validator of outside input uses (API
 * bodies and queries, crawl settings, harvests, accounts). One message per field, the first,
 * because a form shows one message under each input; an unknown key gets `unknownKeyMessage`
 * ("is not a known field", "is not a known setting"…); an issue without a path is "(body)".
 */
export function zodFieldErrors(error: z.ZodError, unknownKeyMessage: string): FieldErrors {
  // A Map, then own properties: on `{}`, `fields.constructor ??= …` kept Object's constructor and
  // `fields.__proto__ = …` set nothing, so `{"constructor": 1}` got a 400 naming no field (fuzz target).
  const fields = new Map<string, string>();
  const add = (field: string, message: string) => void (fields.has(field) || fields.set(field, message));
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) add([...issue.path, key].join("."), unknownKeyMessage);
      continue;
    }
    add(issue.path.map(String).join(".") || "(body)", issue.message.replace(/^Invalid input: expected (\w+), received (\w+)$/, "must be a $1, got $2"));
  }
  return Object.fromEntries(fields);
}

/** `"Invalid settings: budget.requests must be at least 1; name is required"`. */
export function describeFieldErrors(prefix: string, fields: FieldErrors): string {
  return `${prefix}: ${Object.entries(fields)
    .map(([field, message]) => `${field} ${message}`)
    .join("; ")}`;
}
