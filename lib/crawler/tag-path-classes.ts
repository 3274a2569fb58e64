/**
 * Per-page names in tag paths. Many sites put the page's own identity into the classes and ids of
 * its elements: WordPress `postid-123`, Drupal `page-node-45`, CSS modules and CSS-in-JS hashes
 * (`styles_card__3xK9a`, `css-1x2y3z`). Kept as they are, every page gets tag paths of its own:
 * links that play the same part on every page never share an action, and each new page adds new
 * n-grams to the vocabulary and a new entry to the grouper's memo, without bound.
 *
 * The rule, per word of a class or id (a run of letters and digits between `-`, `_`, `:`, …):
 * - a number of two digits or more is an identifier → `N` (`postid-123` → `postid-N`); a single
 *   digit is kept, since it names a layout (`col-md-6`, `h2`, `mt-3`) and has only ten values;
 * - a word that switches between letters and digits twice or more looks like a hash → `H`
 *   (`3xK9a`, `1x2y3z`, `a1b2c3`);
 * - otherwise its runs of two digits or more → `N` (`item42` → `itemN`).
 * A class list keeps its order and separators; nothing else of the tag path changes.
 */

const HAS_TWO_DIGITS_OR_MIXED = /\d\d|\d[A-Za-z]|[A-Za-z]\d/;
const WORD = /[A-Za-z0-9]+/g;

function stableWord(word: string): string {
  if (/^\d+$/.test(word)) return word.length >= 2 ? "N" : word;
  let switches = 0;
  for (let i = 1; i < word.length; i++) {
    if (isDigit(word.charCodeAt(i)) !== isDigit(word.charCodeAt(i - 1))) switches++;
  }
  if (switches >= 2) return "H";
  return word.replace(/\d{2,}/g, "N");
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** A class attribute's value (or an id) with per-page numbers and hashes replaced, see above. */
export function stableClassNames(value: string): string {
  // Most class lists hold no digit next to a digit or a letter: they are returned as they are.
  if (!HAS_TWO_DIGITS_OR_MIXED.test(value)) return value;
  return value.replace(WORD, stableWord);
}
