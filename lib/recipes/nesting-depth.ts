/**
 * How deep a document nests, found by one linear scan before a parser reads it. The RDF parsers
 * spend time that grows faster than the input on deep nesting (rdfxml-streaming-parser's work
 * per element grows with its depth; n3 spends microseconds per nested collection), and catalogs
 * nest a few levels (catalog, dataset, distribution, a format or a contact node), so a document
 * deeper than a limit is refused before parsing. Both scans stop as soon as the limit is passed.
 */

/**
 * Depth of XML elements, outside comments, CDATA, processing instructions, the doctype and quoted
 * attribute values; `limit + 1` once past `limit`. A start tag longer than `maxStartTagChars`
 * also counts as past the limit: the parser turns each of its attributes into a statement at
 * once, before any cap can stop it.
 */
export function xmlElementDepth(text: string, limit: number, maxStartTagChars = Infinity): number {
  let depth = 0;
  let deepest = 0;
  let at = text.indexOf("<");
  while (at !== -1) {
    let next: number;
    if (text.startsWith("<!--", at)) next = after(text, "-->", at + 4);
    else if (text.startsWith("<![CDATA[", at)) next = after(text, "]]>", at + 9);
    else if (text.startsWith("<?", at)) next = after(text, "?>", at + 2);
    else if (text.startsWith("<!", at)) next = afterDeclaration(text, at + 2);
    else if (text.startsWith("</", at)) {
      depth = Math.max(0, depth - 1);
      next = after(text, ">", at + 2);
    } else {
      const end = startTagEnd(text, at + 1);
      if (end === -1) return deepest;
      if (end - at > maxStartTagChars) return limit + 1;
      if (text[end - 1] !== "/") {
        depth++;
        if (depth > deepest) deepest = depth;
        if (deepest > limit) return deepest;
      }
      next = end + 1;
    }
    if (next === -1) return deepest;
    at = text.indexOf("<", next);
  }
  return deepest;
}

/** The index of the `>` ending a start tag, quotes in attribute values skipped; -1 when the text ends first. */
function startTagEnd(text: string, from: number): number {
  let quote = "";
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== "") {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ">") return i;
  }
  return -1;
}

/** Past `<!DOCTYPE … [ internal subset ] >` or another declaration. */
function afterDeclaration(text: string, from: number): number {
  const close = text.indexOf(">", from);
  const subset = text.indexOf("[", from);
  if (subset !== -1 && (close === -1 || subset < close)) {
    const subsetEnd = text.indexOf("]", subset);
    return subsetEnd === -1 ? -1 : after(text, ">", subsetEnd);
  }
  return close === -1 ? -1 : close + 1;
}

function after(text: string, marker: string, from: number): number {
  const found = text.indexOf(marker, from);
  return found === -1 ? -1 : found + marker.length;
}

/** Depth of Turtle/N3 collections `( )`, blank-node property lists `[ ]` and formulas `{ }`, outside IRIs, strings and comments; `limit + 1` once past `limit`. */
export function turtleNestingDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let i = 0;
  const length = text.length;
  while (i < length) {
    const c = text.charCodeAt(i);
    if (c === 0x3c /* < */) {
      const end = text.indexOf(">", i + 1);
      if (end === -1) return deepest;
      i = end + 1;
    } else if (c === 0x22 /* " */ || c === 0x27 /* ' */) {
      const quote = text[i]!;
      const long = text.startsWith(quote.repeat(3), i);
      const end = stringEnd(text, i + (long ? 3 : 1), long ? quote.repeat(3) : quote);
      if (end === -1) return deepest;
      i = end;
    } else if (c === 0x23 /* # */) {
      const end = text.indexOf("\n", i + 1);
      if (end === -1) return deepest;
      i = end + 1;
    } else {
      if (c === 0x28 || c === 0x5b || c === 0x7b /* ( [ { */) {
        depth++;
        if (depth > deepest) deepest = depth;
        if (deepest > limit) return deepest;
      } else if (c === 0x29 || c === 0x5d || c === 0x7d /* ) ] } */) {
        depth = Math.max(0, depth - 1);
      }
      i++;
    }
  }
  return deepest;
}

/** The index just past the closing quote(s), backslash escapes skipped; -1 when the text ends first. */
function stringEnd(text: string, from: number, closing: string): number {
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (c === closing[0] && text.startsWith(closing, i)) return i + closing.length;
  }
  return -1;
}
