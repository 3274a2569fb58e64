/**
 * The text of an HTML page as a browser decodes it, so that links and anchor texts of pages
 * that are not UTF-8 come out right. A simplified WHATWG encoding sniff, in its order:
 *
 * 1. a byte-order mark (UTF-8, UTF-16LE, UTF-16BE);
 * 2. the `charset` parameter of the Content-Type header;
 * 3. `<meta charset="…">` or `<meta http-equiv="Content-Type" content="…; charset=…">` within
 *    the first 1024 bytes (a `<meta>` naming UTF-16 means UTF-8: the bytes were readable as ASCII);
 * 4. UTF-8.
 *
 * Labels go through TextDecoder, which knows the WHATWG names and aliases (`latin1` and
 * `iso-8859-1` are windows-1252, `gb2312` is GBK, …); an unknown label falls through to the
 * next step. Why it matters: an href with `é` on a windows-1252 page read as UTF-8 becomes
 * U+FFFD, and the crawler would request `%EF%BF%BD` where a browser requests `%C3%A9`.
 */
import { isAscii } from "node:buffer";

const PRESCAN_BYTES = 1024;

/** One decoder per encoding name (TextDecoder with `fatal: false` keeps no state between calls). */
const decoders = new Map<string, TextDecoder>();

/** The page's text and the WHATWG name of the encoding it was read with (links' queries need it). */
export interface DecodedHtml {
  readonly text: string;
  readonly encoding: string;
  /**
   * `text` holds a UTF-8 page's bytes, one char per byte (read as latin1), and has bytes over
   * 0x7F: whatever is cut from it must go through {@link textOfUtf8Bytes} (links.ts does).
   *
   * Why: a UTF-8 page with a single `©` or `—` decodes to a two-byte JavaScript string, and so
   * does every href, class name and anchor text sliced from it; V8 then hashes, compares and
   * copies twice the bytes, and compares them with the link table's one-byte URLs char by char:
   * a visible share of the engine's time on such pages. Markup is ASCII, and UTF-8 never uses
   * bytes under 0x80 inside a multi-byte character, so the tokenizer finds the same tags, and
   * every value it cuts holds whole characters.
   */
  readonly utf8Bytes: boolean;
}

/** The page's text alone, as a plain string (see {@link decodeHtmlPage}). */
export function decodeHtml(body: Buffer, contentType: string | undefined): string {
  const page = decodeHtmlPage(body, contentType);
  return page.utf8Bytes ? textOfUtf8Bytes(page.text) : page.text;
}

/** The page's text and the encoding it was read with, by the sniff above. */
export function decodeHtmlPage(body: Buffer, contentType: string | undefined): DecodedHtml {
  const bom = bomEncoding(body);
  if (bom) return { text: decoderFor(bom)!.decode(body), encoding: bom, utf8Bytes: false };
  const encoding = decoderLabel(charsetParameter(contentType)) ?? metaEncoding(body) ?? "utf-8";
  // ASCII reads the same in latin1 and UTF-8: only other bytes make `text` a byte string.
  if (encoding === "utf-8") return { text: body.toString("latin1"), encoding, utf8Bytes: !isAscii(body) };
  if (encoding === "windows-1252") return { text: decodeWindows1252(body), encoding, utf8Bytes: false };
  return { text: decoderFor(encoding)!.decode(body), encoding, utf8Bytes: false };
}

const NON_ASCII = /[^\x00-\x7f]/;

/** The text of a value cut from a {@link DecodedHtml.utf8Bytes} string (invalid bytes → U+FFFD, as `toString("utf8")`). */
export function textOfUtf8Bytes(value: string): string {
  return NON_ASCII.test(value) ? Buffer.from(value, "latin1").toString("utf8") : value;
}

/**
 * windows-1252 (what `latin1` and `iso-8859-1` mean on the web) is Latin-1 except for 0x80–0x9F,
 * where it has € ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ. Node 20's TextDecoder reads
 * those bytes as C1 control characters (ISO-8859-1 proper), so the table is applied here.
 */
const WINDOWS_1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

export function decodeWindows1252(body: Uint8Array): string {
  return Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("latin1").replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!);
}

function bomEncoding(body: Buffer): string | undefined {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return "utf-8";
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
  return undefined;
}

/** `text/html; charset="ISO-8859-1"` → `ISO-8859-1`. */
export function charsetParameter(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  return /;\s*charset\s*=\s*"?([^";,\s]+)/i.exec(contentType)?.[1];
}

function metaEncoding(body: Buffer): string | undefined {
  // latin1 maps each byte to one char, so the ASCII markup reads the same whatever the encoding.
  const head = body.toString("latin1", 0, Math.min(body.length, PRESCAN_BYTES));
  for (const meta of head.matchAll(/<meta\b[^>]*>/gi)) {
    const label = /charset\s*=\s*["']?\s*([^"'\s;/>]+)/i.exec(meta[0])?.[1];
    const encoding = decoderLabel(label);
    if (encoding) return encoding.startsWith("utf-16") ? "utf-8" : encoding;
  }
  return undefined;
}

/** The WHATWG encoding name of a label, or undefined when TextDecoder does not know it. */
function decoderLabel(label: string | undefined): string | undefined {
  if (!label) return undefined;
  return decoderFor(label.toLowerCase())?.encoding;
}

export function decoderFor(label: string): TextDecoder | undefined {
  let decoder = decoders.get(label);
  if (decoder === undefined) {
    try {
      decoder = new TextDecoder(label);
    } catch {
      return undefined; // RangeError: not an encoding label
    }
    decoders.set(label, decoder);
  }
  return decoder;
}
