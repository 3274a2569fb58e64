/**
 * What an operator log line must never carry: credentials and secrets, whatever field they sit
 * in. Fields are matched by name (at any depth), and text is scrubbed of the secrets Forage
 * issues (API tokens start with "forage_") and of bearer credentials, so that an error message
 * quoting a header or a token does not leak it either.
 */
export const REDACTED = "[redacted]";

/** Field names whose values are secrets: authorization, cookie, set-cookie, password, token, secret (and names containing them: webhookSecret, tokenHash…). */
const SECRET_FIELD = /authorization|cookie|passw(or)?d|secret|token|api[-_]?key|credential/i;

/** A Forage API token, a bearer credential, a session cookie value and URL user-info ("https://user:pass@…"). */
const SECRET_TEXT: ReadonlyArray<[RegExp, string]> = [
  [/forage_[A-Za-z0-9_-]{16,}/g, `forage_${REDACTED}`],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  [/(forage_session(?:_secure)?|__Host-forage_session)=[^;\s,]+/g, `$1=${REDACTED}`],
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi, `$1${REDACTED}@`],
  [/([?&](?:token|secret|password|key|signature)=)[^&\s#]+/gi, `$1${REDACTED}`],
];

/** Deep enough for any structure Forage logs; deeper parts are cut rather than walked. */
const MAX_DEPTH = 6;

export function isSecretField(name: string): boolean {
  return SECRET_FIELD.test(name);
}

export function scrubSecretText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_TEXT) out = out.replace(pattern, replacement);
  return out;
}

/** A copy of `value` with secret fields replaced and strings scrubbed; Errors become { type, message, stack }. */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrubSecretText(value);
  if (value === null || typeof value !== "object") return value;
  if (depth >= MAX_DEPTH) return "[too deep]";
  if (value instanceof Error) {
    return redactSecrets({ type: value.name, message: value.message, ...(value.stack ? { stack: value.stack } : {}) }, depth);
  }
  if (value instanceof Date) return value;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = isSecretField(key) ? REDACTED : redactSecrets(item, depth + 1);
  }
  return out;
}
