import type { z } from "zod";

/**
 * Zod issues → `{ "field.path": "message" }`, the `fields` of a 400 answer. One message per
 * field (the first), because a form shows one message under each input.
 */
export function toFieldErrors(error: z.ZodError, unknownKeyMessage: string): Record<string, string> {
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
