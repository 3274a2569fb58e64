/**
 * robots.txt paths and patterns, compared as RFC 9309 §2.2.2 and §2.2.3 say: both sides are
 * brought to one percent-encoded form first, then a rule matches when the URL's path (with its
 * query) starts with the rule's pattern, `*` standing for any run of characters and a final
 * `$` for the end of the path.
 *
 * The one form: escapes of unreserved characters (`%7E` → `~`, `%62` → `b`) decoded, other
 * escapes upper-cased (`%aa` → `%AA`), non-ASCII characters and characters a URI cannot hold
 * raw (space, `"`, `<`, `{`…) encoded as UTF-8 escapes, a `%` that starts no escape encoded as
 * `%25`. Reserved characters keep their form (`/` and `%2F` differ, RFC 3986 §2.2). In a URL,
 * `*` and `$` are plain characters and become `%2A` / `%24`, which is how a rule names them
 * literally (§2.2.3: `Disallow: /path/file-with-a-%2A.html`).
 */

const HEX = /^[0-9A-Fa-f]{2}$/;
const UNRESERVED = /^[A-Za-z0-9\-._~]$/;
/** Printable ASCII a URI never holds raw (RFC 3986 §2): encoded on both sides alike. */
const UNSAFE_ASCII = new Set([" ", '"', "<", ">", "\\", "^", "`", "{", "|", "}"]);

export interface RobotsPattern {
  /** The pattern between its `*` wildcards, normalised. */
  parts: string[];
  /** Ends with `$`: the path must end where the pattern does. */
  anchored: boolean;
  /** Octets of the normalised pattern, `*` and `$` included: the longest match wins (§2.2.2). */
  length: number;
}

/** The path and query of a URL in the one form rules are compared with. */
export function robotsPathOf(url: string | URL): string {
  const parsed = typeof url === "string" ? new URL(url) : url;
  return normalizeRobotsText(parsed.pathname + parsed.search, false) || "/";
}

/** A rule's value (after `Allow:` / `Disallow:`) as a pattern; null for an empty value. */
export function compileRobotsPattern(value: string): RobotsPattern | null {
  if (value === "") return null;
  const anchored = value.endsWith("$");
  const body = anchored ? value.slice(0, -1) : value;
  const normalized = normalizeRobotsText(body, true);
  return { parts: normalized.split("*"), anchored, length: normalized.length + (anchored ? 1 : 0) };
}

/**
 * Whether `path` (from `robotsPathOf`) matches. Each wildcard takes the leftmost place its next
 * part fits, which is enough for a prefix match; an anchored last part must end the path. Linear
 * in the path's length per part, so a hostile robots.txt cannot make matching backtrack.
 */
export function matchesRobotsPattern(pattern: RobotsPattern, path: string): boolean {
  const { parts, anchored } = pattern;
  const first = parts[0]!;
  if (!path.startsWith(first)) return false;
  let position = first.length;
  if (parts.length === 1) return !anchored || path.length === position;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = path.indexOf(parts[i]!, position);
    if (found < 0) return false;
    position = found + parts[i]!.length;
  }
  const last = parts[parts.length - 1]!;
  if (anchored) return path.length - last.length >= position && path.endsWith(last);
  return path.indexOf(last, position) >= 0;
}

/** The normalisation described above; in a pattern `*` stays a wildcard. */
function normalizeRobotsText(text: string, isPattern: boolean): string {
  let out = "";
  const chars = Array.from(text);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (ch === "%") {
      const hex = (chars[i + 1] ?? "") + (chars[i + 2] ?? "");
      if (HEX.test(hex)) {
        const decoded = String.fromCharCode(parseInt(hex, 16));
        out += UNRESERVED.test(decoded) ? decoded : `%${hex.toUpperCase()}`;
        i += 2;
      } else {
        out += "%25";
      }
    } else if (ch === "*") {
      out += isPattern ? "*" : "%2A";
    } else if (ch === "$") {
      out += "%24"; // a final `$` of a pattern was taken off before
    } else if (ch.codePointAt(0)! <= 0x20 || ch.codePointAt(0)! >= 0x7f || UNSAFE_ASCII.has(ch)) {
      for (const byte of Buffer.from(ch, "utf8")) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
    } else {
      out += ch;
    }
  }
  return out;
}
