/**
 * A `re:` URL pattern is written as a JavaScript regular expression (no flags: a leading `(?i)`
 * is handled by url-pattern-safety.ts) and run by RE2
 * (re2js), whose matching time is linear in the URL whatever the pattern. This file rewrites the
 * JavaScript source into RE2 syntax with the same meaning, or names what RE2 cannot run.
 *
 * The source has already been accepted by `new RegExp(source)` (V8, without the `u` flag), so
 * only valid JavaScript reaches here; the rewrite follows that grammar (Annex B included):
 * - groups become non-capturing `(?:…)`: a pattern only answers "does the URL match", and RE2
 *   allows no capture inside a lookbehind; named groups `(?<n>…)` are accepted that way;
 * - lookbehinds `(?<=…)`, `(?<!…)` are kept: re2js runs them in linear time (its LOOKBEHINDS
 *   flag, set only for patterns that use one, as they leave the faster DFA path);
 * - lookaheads and back-references have no linear-time equivalent: refused;
 * - escapes that mean something else in RE2 are spelled out: `\cX`, `\uHHHH`, `\0`, `[\b]`,
 *   identity escapes of letters (`\a` is "a" in JavaScript, a bell in RE2), `[]`, `[^]`, and a
 *   `[` inside a class (RE2 reads `[[:alpha:]]` as a POSIX class, JavaScript as `[`, `:`…).
 * What still differs cannot occur in a normalised URL (ASCII only, no whitespace): `\s` and `.`
 * on line separators and Unicode spaces, and astral characters (code points in RE2, halves in
 * JavaScript).
 */

/** RE2 source of a JavaScript pattern, and whether it needs re2js's lookbehind support. */
export interface Re2Source {
  readonly source: string;
  readonly lookbehinds: boolean;
}

/** Why a pattern cannot run in linear time, as the end of a field message. */
export class UnsupportedSyntax extends Error {
  override readonly name = "UnsupportedSyntax";
}

const LINEAR = "which Forage's linear-time pattern engine cannot run";
const HEX = /^[0-9a-fA-F]$/;
const LETTER = /^[a-zA-Z]$/;
/** Escapes with the same meaning in both engines (outside a class; `b`/`B` handled apart). */
const SHARED_ESCAPES = new Set(["d", "D", "w", "W", "s", "S", "t", "n", "r", "f", "v"]);

/**
 * The RE2 source for a JavaScript `source` that `new RegExp(source)` accepts.
 * @throws UnsupportedSyntax naming the construct (lookahead, back-reference, legacy octal escape).
 */
export function toRe2Source(source: string): Re2Source {
  const hasNamedGroups = /\(\?<(?![=!])/.test(source);
  let out = "";
  let inClass = false;
  let lookbehinds = false;
  let i = 0;
  const hex = (code: number) => `\\x{${code.toString(16)}}`;
  while (i < source.length) {
    const c = source[i]!;
    if (c === "\\") {
      const n = source[i + 1] ?? "";
      i += 2;
      if (n >= "0" && n <= "9") {
        if (n === "0" && !/[0-9]/.test(source[i] ?? "")) {
          out += "\\x00";
          continue;
        }
        if (!inClass) throw new UnsupportedSyntax(`uses a back-reference (\\${n}), ${LINEAR}; repeat the part itself instead`);
        throw new UnsupportedSyntax(`uses a legacy octal escape (\\${n}) inside [...]; write the character as \\xHH`);
      }
      if (n === "k" && hasNamedGroups && !inClass) {
        throw new UnsupportedSyntax(`uses a named back-reference (\\k<…>), ${LINEAR}; repeat the part itself instead`);
      }
      if (n === "c") {
        const letter = source[i] ?? "";
        if (LETTER.test(letter)) {
          out += hex(letter.charCodeAt(0) % 32);
          i += 1;
        } else {
          out += "\\\\c"; // Annex B: a backslash and a "c"
        }
        continue;
      }
      if (n === "x" && HEX.test(source[i] ?? "") && HEX.test(source[i + 1] ?? "")) {
        out += `\\x${source.slice(i, i + 2)}`;
        i += 2;
        continue;
      }
      if (n === "u" && [0, 1, 2, 3].every((k) => HEX.test(source[i + k] ?? ""))) {
        out += hex(parseInt(source.slice(i, i + 4), 16));
        i += 4;
        continue;
      }
      if (n === "b" || n === "B") {
        out += inClass ? (n === "b" ? "\\x08" : "B") : `\\${n}`;
        continue;
      }
      if (SHARED_ESCAPES.has(n)) out += `\\${n}`;
      else if (LETTER.test(n)) out += n; // identity escape: the letter itself
      else if (n.charCodeAt(0) < 128) out += `\\${n}`; // punctuation: RE2 takes it escaped
      else out += n;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c === "[" ? "\\[" : c;
      i += 1;
      continue;
    }
    if (c === "[") {
      if (source.startsWith("[]", i)) {
        out += "[^\\x00-\\x{10FFFF}]"; // matches nothing
        i += 2;
      } else if (source.startsWith("[^]", i)) {
        out += "[\\x00-\\x{10FFFF}]"; // any character
        i += 3;
      } else {
        inClass = true;
        out += "[";
        i += 1;
        if (source[i] === "^") {
          out += "^";
          i += 1;
        }
      }
      continue;
    }
    if (c === "(") {
      if (source.startsWith("(?=", i)) throw new UnsupportedSyntax(`uses a lookahead (?=…), ${LINEAR}; match the text itself instead`);
      if (source.startsWith("(?!", i)) throw new UnsupportedSyntax(`uses a negative lookahead (?!…), ${LINEAR}; add a glob or a second pattern instead`);
      if (source.startsWith("(?<=", i) || source.startsWith("(?<!", i)) {
        lookbehinds = true;
        out += source.slice(i, i + 4);
        i += 4;
      } else if (source.startsWith("(?:", i)) {
        out += "(?:";
        i += 3;
      } else if (source.startsWith("(?<", i)) {
        out += "(?:";
        i = source.indexOf(">", i) + 1;
      } else {
        out += "(?:";
        i += 1;
      }
      continue;
    }
    out += c;
    i += 1;
  }
  return { source: out, lookbehinds };
}
