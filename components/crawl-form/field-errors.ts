import type { CrawlConfigInput, FieldErrors } from "@/lib/crawl-config";
import { PARAM_CHOICES, PARAM_GROUPS, PARAM_TOGGLES } from "./param-fields";

/** Every field the form shows, by its settings path (the API's `fields` keys), with its visible label. */
export const FIELD_LABELS: Record<string, string> = {
  rootUrl: "Root URL",
  name: "Name",
  targetMimeTypes: "Target MIME types",
  "budget.requests": "Request budget",
  "budget.bytes": "Byte limit",
  "budget.seconds": "Time limit",
  "blocklist.urlPatterns": "URL patterns",
  "blocklist.extensions": "File extensions",
  "blocklist.mimeTypes": "MIME types",
  "politeness.delayMs": "Politeness delay (ms)",
  "politeness.obeyRobots": "Obey robots.txt",
  "archive.keepWarc": "Keep a web archive (WARC)",
  allowPrivateNetwork: "Allow private network addresses",
  strategy: "Strategy",
  seed: "Seed",
  // The account forms' fields (Settings → Users, Account), which share Field and its error text.
  currentPassword: "Current password",
  newPassword: "New password",
  repeatPassword: "Repeated password",
  resetPassword: "New password",
  ...Object.fromEntries([...PARAM_TOGGLES, ...PARAM_CHOICES].map((param) => [`params.${param.key}`, param.label])),
  ...Object.fromEntries(PARAM_GROUPS.flatMap((group) => group.fields.map((field) => [`params.${field.key}`, field.label]))),
};

/** The DOM id of a field's input: `budget.requests` → `field-budget-requests`. */
export function fieldId(field: string): string {
  return `field-${field.replace(/\./g, "-")}`;
}

export function isAdvancedField(field: string): boolean {
  return field.startsWith("params.") || field === "seed";
}

/** zod's generic range messages, reworded to follow a label: "Too big: expected number to be <=1" → "must be at most 1". */
export function humanizeMessage(message: string): string {
  const range = /^Too (big|small): expected (?:number|array|string) to (?:be|have) ([<>]=?)(\S+)/.exec(message);
  if (range) {
    const [, , op, limit] = range;
    const words = { "<=": "at most", ">=": "at least", "<": "less than", ">": "greater than" }[op ?? ""] ?? op;
    return `must be ${words} ${limit}`;
  }
  return message;
}

/**
 * "Root URL must use http or https, not ftp"; messages that are sentences of their own keep a
 * colon. `label` is the one the field shows; without it, the form's label for that settings key.
 */
export function errorText(field: string, message: string, shownLabel?: string): string {
  const label = shownLabel ?? FIELD_LABELS[field] ?? field;
  const text = humanizeMessage(message);
  return /^[a-z]/.test(text) ? `${label} ${text}` : `${label}: ${text}`;
}

/**
 * Maps the API's 400 `fields` onto form fields. An array item's error (`blocklist.extensions.3`)
 * lands on its list, naming the offending item; settings the form does not show stay in `other`.
 */
export function mapServerFieldErrors(fields: FieldErrors, settings: CrawlConfigInput): { byField: FieldErrors; other: string[] } {
  const byField: FieldErrors = {};
  const other: string[] = [];
  for (const [path, message] of Object.entries(fields)) {
    const parts = path.split(".");
    const indexAt = parts.findIndex((part) => /^\d+$/.test(part));
    const field = indexAt === -1 ? path : parts.slice(0, indexAt).join(".");
    if (!(field in FIELD_LABELS)) {
      other.push(`${path} ${humanizeMessage(message)}`);
      continue;
    }
    if (indexAt === -1) {
      byField[field] ??= message;
      continue;
    }
    const item = valueAt(settings, parts.slice(0, indexAt + 1));
    const itemMessage = `“${typeof item === "string" ? item : parts[indexAt]}” ${humanizeMessage(message)}`;
    byField[field] = byField[field] ? `${byField[field]}; ${itemMessage}` : itemMessage;
  }
  return { byField, other };
}

function valueAt(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
