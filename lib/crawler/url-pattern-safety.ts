/**
 * `re:` URL patterns run on every link of a crawl, on URLs a hostile site chooses. V8's
 * backtracking engine can take exponential time on them (`re:a(a|a)*$` on `/aaaa…a!` never
 * returns and freezes every crawl of the worker; a heuristic check such as safe-regex2, which
 * refuses nested repetition, lets that ambiguous alternation through), so user
 * patterns run on RE2 (re2js, pure JavaScript): time linear in the URL for every pattern it
 * accepts. Users still write JavaScript syntax (url-pattern-syntax.ts rewrites it); what RE2
 * cannot run (lookaheads, back-references, repeat counts over 1000) is refused where patterns
 * enter (API, CLI, form, live edits: crawl-config.ts) with a field message. Globs (`*`
 * only) are matched without any regex (url-rules.ts) and need no check.
 *
 * Linear is not cheap enough on its own: where RE2's DFA gives up, a match costs the URL's length
 * times the compiled program's size, and `.{1000}` repeated sixty times is a 60 000-instruction
 * program that takes seconds on an 8 KB URL (and compiling costs in proportion too). So the
 * programs of a crawl's patterns may hold {@link MAX_PROGRAM_SIZE} instructions in all: every
 * URL is checked against every pattern, the worst case of one check stays in the tens of
 * milliseconds, while ordinary patterns take 20 to 50 each.
 */
import { RE2JS } from "re2js";
import { toRe2Source, UnsupportedSyntax } from "./url-pattern-syntax";

/** A compiled `re:` pattern: true when it matches anywhere in the URL. */
export type RegexTest = (url: string) => boolean;

/** The prefix of a case-insensitive `re:` pattern: `re:(?i)\.pdf$`. */
export const IGNORE_CASE = "(?i)";

/** Instructions the RE2 programs of one crawl's `re:` patterns may hold in all. */
export const MAX_PROGRAM_SIZE = 5_000;

/** A `re:` pattern compiled for RE2 with its program size, or why it cannot be. */
type Compiled = { test: RegexTest; size: number; problem?: undefined } | { test?: undefined; size?: undefined; problem: string };

/**
 * Compiles the pattern after `re:` (JavaScript syntax, optionally led by `(?i)`) to a linear-time
 * test, or the field message saying why it cannot run ("is not a valid regular expression: …",
 * "uses a lookahead…").
 */
export function compileRegexPattern(pattern: string): Compiled {
  // A leading (?i) is the one flag a pattern can carry (a JavaScript pattern's flags sit after its
  // closing slash, which a `re:` pattern has not): case-insensitive, as JavaScript's "i" flag.
  const ignoreCase = pattern.startsWith(IGNORE_CASE);
  const source = ignoreCase ? pattern.slice(IGNORE_CASE.length) : pattern;
  if (source === "") return { problem: "is an empty regular expression: write one after re:" };
  try {
    // The pattern language is JavaScript's: what V8 refuses is refused with V8's reason.
    new RegExp(source, ignoreCase ? "i" : "");
  } catch (error) {
    return { problem: `is not a valid regular expression: ${syntaxReason(error)}` };
  }
  try {
    const re2 = toRe2Source(source);
    const compiled = RE2JS.compile(re2.source, (re2.lookbehinds ? RE2JS.LOOKBEHINDS : 0) | (ignoreCase ? RE2JS.CASE_INSENSITIVE : 0));
    const size = compiled.programSize();
    if (size > MAX_PROGRAM_SIZE) return { problem: `is too large (a program of ${size} instructions, at most ${MAX_PROGRAM_SIZE}), ${LIMITS}` };
    return { test: (url) => compiled.test(url), size };
  } catch (error) {
    if (error instanceof UnsupportedSyntax) return { problem: error.message };
    return { problem: re2Reason(error) };
  }
}

/**
 * Why `pattern` may not be used, as a field message, or null when it may. Only `re:` patterns
 * can fail.
 */
export function urlPatternProblem(pattern: string): string | null {
  const trimmed = pattern.trim();
  if (!trimmed.startsWith("re:")) return null;
  return compileRegexPattern(trimmed.slice(3)).problem ?? null;
}

/** What is wrong with a crawl's pattern list: each bad pattern by index, and the list when its programs are too large together. */
export interface UrlPatternListProblems {
  readonly patterns: ReadonlyMap<number, string>;
  readonly list: string | null;
}

/** Checks every pattern of a list (each compiled once) and their total program size. */
export function urlPatternListProblems(patterns: readonly string[]): UrlPatternListProblems {
  const problems = new Map<number, string>();
  let total = 0;
  patterns.forEach((pattern, index) => {
    const trimmed = pattern.trim();
    if (!trimmed.startsWith("re:")) return;
    const compiled = compileRegexPattern(trimmed.slice(3));
    if (compiled.problem !== undefined) problems.set(index, compiled.problem);
    else total += compiled.size;
  });
  const list = total > MAX_PROGRAM_SIZE ? programsTooLarge(total) : null;
  return { patterns: problems, list };
}

/** The list message when the patterns' programs hold `total` instructions. */
export function programsTooLarge(total: number): string {
  return (
    `hold re: patterns too large together (programs of ${total} instructions, at most ${MAX_PROGRAM_SIZE}): every URL is ` +
    "checked against each of them; merge or simplify them, or use * globs, which cost nothing of it"
  );
}

/** V8's "Invalid regular expression: /(a/: Unterminated group" → "Unterminated group". */
function syntaxReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const match = /^Invalid regular expression: \/.*\/[a-z]*: (.*)$/s.exec(message);
  return match ? match[1]! : message;
}

/** RE2's refusal of a pattern JavaScript accepts, in the user's terms. */
function re2Reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const detail = message.replace(/^error parsing regexp: /, "");
  if (detail.startsWith("invalid repeat count")) {
    return `repeats a part more than 1000 times, nested repeats multiplied (${detail.replace(/^invalid repeat count: /, "")}), ${LIMITS}`;
  }
  if (detail.startsWith("expression too large") || detail.startsWith("expression nests too deeply")) {
    return `is too large (${detail}), ${LIMITS}`;
  }
  return `cannot be run by Forage's linear-time pattern engine (${detail})`;
}

const LIMITS = "more than Forage's linear-time pattern engine accepts; simplify it";
