import type { z } from "zod";

/**
 * Zod issues → `{ "field.path": "message" }`, the `fields` of a 400 answer. One message per
 * field (the first), because a form shows one message under each input.
 */
export function toFieldErrors(error: z.ZodError, unknownKeyMessage: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) fields[[...issue.path, key].join(".")] ??= unknownKeyMessage;
      continue;
    }
    const field = issue.path.join(".") || "(body)";
    fields[field] ??= issue.message.replace(/^Invalid input: expected (\w+), received (\w+)$/, "must be a $1, got $2");
  }
  return fields;
}
