/**
 * Whether a user URL pattern is safe to run on every link of a crawl. A `re:` pattern is a
 * JavaScript regular expression, run by V8's backtracking engine on URLs a hostile site
 * chooses: `re:(a+)+$` on `/aaaa…a!` takes exponential time and would freeze the worker. So
 * patterns are checked where they enter (API, CLI, live edits: lib/crawl-config.ts) with
 * safe-regex2, which refuses nested repetition (star height > 1) and more than 25 repeated
 * parts. RE2 would guarantee linear time but is a native module and lacks lookarounds and
 * back-references users may rely on; safe-regex2 is a heuristic: ambiguous alternations
 * under one repetition (`(a|a)*`) still pass. Globs (`*` only) are matched without
 * backtracking (url-rules.ts) and need no check.
 */
import safeRegex from "safe-regex2";

/** safe-regex2's default: more repeated parts than this is refused. */
export const MAX_REPETITIONS = 25;

export const NESTED_REPETITION = "may take exponential time (nested repetition); rewrite it without a repeated group";

/**
 * Why `pattern` may not be used, as a field message ("is not a valid regular expression: …"),
 * or null when it may. Only `re:` patterns can fail.
 */
export function urlPatternProblem(pattern: string): string | null {
  const trimmed = pattern.trim();
  if (!trimmed.startsWith("re:")) return null;
  const source = trimmed.slice(3);
  if (source === "") return "is an empty regular expression: write one after re:";
  try {
    new RegExp(source);
  } catch (error) {
    return `is not a valid regular expression: ${syntaxReason(error)}`;
  }
  // safe-regex2's parser (ret) does not know lookbehinds; their content is checked as a group.
  const checkable = lookbehindsAsGroups(source);
  if (!safeRegex(checkable, { limit: Number.POSITIVE_INFINITY })) return NESTED_REPETITION;
  if (!safeRegex(checkable, { limit: MAX_REPETITIONS })) {
    return `may take exponential time (more than ${MAX_REPETITIONS} repeated parts); simplify it`;
  }
  return null;
}

/** V8's "Invalid regular expression: /(a/: Unterminated group" → "Unterminated group". */
function syntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /^Invalid regular expression: \/.*\/[a-z]*: (.*)$/s.exec(message);
  return match ? match[1]! : message;
}

/** `(?<=x)` and `(?<!x)` → `(?:x)`, outside character classes and escapes. */
function lookbehindsAsGroups(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      out += source.slice(i, i + 2);
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
      out += c;
    } else if (c === "[") {
      inClass = true;
      out += c;
    } else if (source.startsWith("(?<=", i) || source.startsWith("(?<!", i)) {
      out += "(?:";
      i += 3;
    } else {
      out += c;
    }
  }
  return out;
}
