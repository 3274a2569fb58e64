/** Text of links: refresh URLs, HTML entities on demand, anchor texts. */
import { Tokenizer } from "htmlparser2";
import { textOfUtf8Bytes } from "./html-decoding";
import { noop } from "./html-tree-rules";

export const MAX_ANCHOR_CHARS = 120;

/**
 * The URL of a refresh's `content` ("5; url='/next'", "0;URL=/next", "0, /next"), following
 * HTML's "shared declarative refresh steps"; null when it only reloads the page.
 */
export function refreshUrl(content: string): string | null {
  const match = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(content);
  let url = match?.[1]?.trim() ?? "";
  const quote = url[0];
  if (quote === "'" || quote === '"') {
    const end = url.indexOf(quote, 1);
    url = url.slice(1, end < 0 ? undefined : end);
  }
  return url === "" ? null : url;
}

/**
 * Entity decoding on demand. The main pass runs with `decodeEntities: false`, so the
 * tokenizer jumps through text to the next `<` instead of checking every character for
 * `&`, a large part of tokenizing. The few kept values containing `&` (`?a=1&amp;b=2`,
 * anchor texts) go through this second tokenizer: decoding stays htmlparser2's own,
 * HTML5-exact (`?a=1&copy=2` stays literal in an attribute).
 */
export const decode = (() => {
  let buffer = "";
  let out = "";
  const append = (start: number, end: number): void => void (out += buffer.slice(start, end));
  const appendCodePoint = (codepoint: number): void => void (out += String.fromCodePoint(codepoint));
  const callbacks = {
    onattribdata: append, onattribentity: appendCodePoint, ontext: append, ontextentity: appendCodePoint,
    onattribend: noop, onattribname: noop, oncdata: noop, onclosetag: noop, oncomment: noop, ondeclaration: noop,
    onend: noop, onopentagend: noop, onopentagname: noop, onprocessinginstruction: noop, onselfclosingtag: noop,
  };
  return (value: string, inAttribute: boolean): string => {
    if (!value.includes("&")) return value;
    out = "";
    buffer = inAttribute ? '<a b="' + value.replace(/"/g, "&quot;") + '">' : value;
    // A new tokenizer per value: `Tokenizer.reset()` (htmlparser2 10) leaves `isSpecial` set after
    // a value that opened `<style>` or `<title>`, and the next value's `<` then crashed in
    // `stateInSpecialTag` (TypeError, reading `currentSequence.length`): one page's anchor text
    // made link extraction of a later page throw (found by test/fuzz/links.fuzz.ts).
    const tokenizer = new Tokenizer({ decodeEntities: true }, callbacks);
    tokenizer.write(buffer);
    tokenizer.end();
    return out;
  };
})();

/** `utf8Bytes`: the text was cut from a UTF-8 byte string (an `a`'s content; the alt and title attributes are decoded already). */
export function cleanText(text: string, utf8Bytes: boolean): string {
  if (text === "") return text;
  let collapsed = decode(utf8Bytes ? textOfUtf8Bytes(text) : text, false).trim();
  if (/\s\s|[^\S ]/.test(collapsed)) collapsed = collapsed.replace(/\s+/g, " ");
  return collapsed.length > MAX_ANCHOR_CHARS ? collapsed.slice(0, MAX_ANCHOR_CHARS).trimEnd() : collapsed;
}

