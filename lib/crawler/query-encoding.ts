import { decoderFor, decodeWindows1252 } from "./html-decoding";

/**
 * The query of a link on a page that is not UTF-8, percent-encoded in the page's encoding, as the
 * URL standard has browsers do it: on a windows-1252 page `?theme=Économie` is requested as
 * `?theme=%C9conomie`, on a Shift_JIS page `?q=統計` as `?q=%93%9D%8Cv`. The path is always UTF-8,
 * and `new URL` would encode the query as UTF-8 too (`%C3%89conomie`), which a legacy server
 * reads as two other characters: a search or a table export answers nothing, or a 404.
 *
 * Returns the href with the non-ASCII characters of its query (between the first `?` and the
 * `#`) replaced by their percent-encoded bytes; ASCII and existing `%XX` escapes are left as
 * they are, so `new URL` keeps them. A character the encoding cannot represent becomes
 * `%26%23<code point>%3B` (`&#…;`), as browsers send it. UTF-8 and UTF-16 pages keep UTF-8.
 *
 * Encoders are built once per encoding from TextDecoder, which knows the WHATWG decoders: every
 * byte (single-byte encodings) or lead/trail byte pair (Shift_JIS, EUC-JP, EUC-KR, GBK, gb18030,
 * Big5) is decoded and the table reversed. Characters that only three- or four-byte sequences
 * or ISO-2022-JP escapes reach are sent as `&#…;`.
 */
export function encodeQueryFor(href: string, encoding: string): string {
  if (UNICODE_ENCODINGS.has(encoding)) return href;
  const queryAt = href.indexOf("?");
  if (queryAt < 0) return href;
  let end = href.indexOf("#", queryAt);
  if (end < 0) end = href.length;
  const query = href.slice(queryAt, end);
  if (!NON_ASCII.test(query)) return href;
  const table = encoderFor(encoding);
  let encoded = "";
  for (const char of query) {
    if (char.charCodeAt(0) < 0x80) encoded += char;
    else encoded += table.get(char) ?? `%26%23${char.codePointAt(0)}%3B`;
  }
  return href.slice(0, queryAt) + encoded + href.slice(end);
}

const UNICODE_ENCODINGS = new Set(["utf-8", "utf-16le", "utf-16be"]);
const NON_ASCII = /[^\x00-\x7f]/;
/** Lead bytes 0x81–0xFE and trail bytes 0x40–0xFE cover the double-byte part of every CJK encoding TextDecoder knows. */
const DOUBLE_BYTE = new Set(["shift_jis", "euc-jp", "euc-kr", "gbk", "gb18030", "big5"]);

/** Character → its percent-encoded bytes, per encoding. */
const encoders = new Map<string, ReadonlyMap<string, string>>();

function encoderFor(encoding: string): ReadonlyMap<string, string> {
  let table = encoders.get(encoding);
  if (table === undefined) {
    table = buildEncoder(encoding);
    encoders.set(encoding, table);
  }
  return table;
}

function buildEncoder(encoding: string): Map<string, string> {
  const table = new Map<string, string>();
  const decode = encoding === "windows-1252" ? decodeWindows1252 : (bytes: Uint8Array) => decoderFor(encoding)?.decode(bytes) ?? "\ufffd";
  const add = (bytes: number[]) => {
    const char = decode(Uint8Array.from(bytes));
    // One character (a surrogate pair counts as one), not a replacement, first spelling wins.
    if (char.includes("\ufffd") || [...char].length !== 1 || char.charCodeAt(0) < 0x80 || table.has(char)) return;
    table.set(char, bytes.map(percentEncodedByte).join(""));
  };
  for (let b = 0x80; b <= 0xff; b++) add([b]);
  if (DOUBLE_BYTE.has(encoding)) {
    for (let lead = 0x81; lead <= 0xfe; lead++) for (let trail = 0x40; trail <= 0xfe; trail++) add([lead, trail]);
  }
  return table;
}

/**
 * A byte as the URL standard writes it into a query: ASCII outside the special-query
 * percent-encode set as itself (Shift_JIS trail bytes 0x40–0x7E are letters and signs:
 * 計 is `%8Cv`), everything else as `%XX`.
 */
function percentEncodedByte(byte: number): string {
  if (byte > 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x23 && byte !== 0x27 && byte !== 0x3c && byte !== 0x3e) return String.fromCharCode(byte);
  return "%" + byte.toString(16).toUpperCase().padStart(2, "0");
}
