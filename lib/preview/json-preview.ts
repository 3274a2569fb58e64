import type { PreviewLimits } from "./preview-limits";
import { PreviewError, type JsonPreview, type JsonType } from "./preview-types";

/** A JSON document's top-level structure: its type, size, and first keys or items summarised. */
export function jsonPreview(bytes: Buffer, limits: PreviewLimits): JsonPreview {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8").replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new PreviewError(`not valid JSON: ${(error as Error).message.slice(0, 200)}`);
  }
  const type = typeOf(value);
  if (Array.isArray(value)) {
    return { kind: "json", type, size: value.length, entries: value.slice(0, limits.maxJsonEntries).map((item, i) => ({ key: String(i), type: typeOf(item), summary: summary(item) })) };
  }
  if (type === "object") {
    const keys = Object.keys(value as object);
    const record = value as Record<string, unknown>;
    return { kind: "json", type, size: keys.length, entries: keys.slice(0, limits.maxJsonEntries).map((key) => ({ key, type: typeOf(record[key]), summary: summary(record[key]) })) };
  }
  return { kind: "json", type, size: null, entries: [{ key: "", type, summary: summary(value) }] };
}

function typeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value as JsonType;
}

/** One line about a value: an array's length and item type, an object's first keys, a scalar cut short. */
function summary(value: unknown): string {
  if (Array.isArray(value)) {
    const types = [...new Set(value.slice(0, 100).map(typeOf))];
    return `${value.length} item${value.length === 1 ? "" : "s"}${types.length ? ` (${types.join(", ")})` : ""}`;
  }
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    return `${keys.length} key${keys.length === 1 ? "" : "s"}${keys.length ? `: ${keys.slice(0, 8).join(", ")}${keys.length > 8 ? ", …" : ""}` : ""}`;
  }
  const text = JSON.stringify(value) ?? "";
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
