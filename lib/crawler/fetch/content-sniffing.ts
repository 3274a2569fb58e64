/**
 * What a target's first bytes say it is, and whether that agrees with the type it was counted as
 * (its effective MIME: the declared Content-Type refined by the URL's extension or the
 * Content-Disposition name, effective-mime.ts).
 *
 * Binary formats are recognised by their magic numbers (file-type); the text formats file-type
 * does not detect by a few cheap rules on the first bytes: HTML (the WHATWG sniffing tags), XML,
 * JSON, CSV/TSV (a delimiter repeated the same number of times on every complete line), else
 * plain text. Only the first {@link SNIFF_BYTES} bytes are ever looked at.
 *
 * The one verdict that rejects a target: an HTML document where the target type is not HTML. A
 * soft 404, a sign-in wall or an error page served for `/data.csv` is not the data file.
 * Every other disagreement (a CSV labelled as an Excel file) keeps the file, marked as a mismatch.
 */
import { fileTypeFromBuffer } from "file-type";

/** Bytes looked at: file-type's own reasonable detection size (OOXML names its parts in its first entries). */
export const SNIFF_BYTES = 4100;

export interface ContentVerdict {
  /** The type the first bytes show; null when they say nothing (empty, unknown binary). */
  detectedMime: string | null;
  /** Whether `detectedMime` agrees with the effective MIME; null when nothing was detected. */
  typeMatch: boolean | null;
  /** Why the body is not a target after all; null when it stays one. */
  rejection: string | null;
}

const HTML_MIMES = new Set(["text/html", "application/xhtml+xml"]);
const GENERIC_MIMES = new Set(["", "application/octet-stream", "binary/octet-stream", "application/force-download", "application/x-download", "application/download", "application/unknown", "application/x-unknown"]);
const CSV_MIMES = new Set(["text/csv", "application/csv", "text/comma-separated-values", "text/x-csv", "application/x-csv"]);
const TSV_MIMES = new Set(["text/tab-separated-values", "text/tsv"]);
/** Containers whose parts file-type names when they come first; otherwise it says `application/zip`. */
const ZIP_BASED = /^application\/(zip|x-zip-compressed|vnd\.openxmlformats-officedocument\.|vnd\.oasis\.opendocument\.|vnd\.ms-excel\.sheet\.macroenabled|epub\+zip|vnd\.google-earth\.kmz)/;
/** The OLE compound file of the old Office formats. */
const CFB_BASED = new Set(["application/vnd.ms-excel", "application/msword", "application/vnd.ms-powerpoint", "application/vnd.ms-outlook", "application/x-msi"]);
const GZIP_MIMES = new Set(["application/gzip", "application/x-gzip"]);

/** The type the first bytes of a body show, or null. `head`: at most {@link SNIFF_BYTES} bytes. */
export async function sniffMime(head: Uint8Array): Promise<string | null> {
  if (head.length === 0) return null;
  const text = textOf(head);
  if (text !== null && looksLikeHtml(text)) return "text/html";
  let found: string | undefined;
  try {
    found = (await fileTypeFromBuffer(head))?.mime;
  } catch {
    found = undefined; // a container cut at the sniffing size: its magic number alone says nothing more
  }
  if (found) return found;
  if (text === null) return null;
  return textFormatOf(text);
}

/**
 * The verdict on a streamed target: `effectiveMime` what it was counted as, `url` for the message.
 * A body that is HTML where HTML is not the target type is rejected.
 */
export async function judgeContent(head: Uint8Array, effectiveMime: string, url: string): Promise<ContentVerdict> {
  const detectedMime = await sniffMime(head);
  if (detectedMime === null) return { detectedMime, typeMatch: null, rejection: null };
  const typeMatch = typesAgree(effectiveMime, detectedMime);
  const rejection =
    detectedMime === "text/html" && !HTML_MIMES.has(effectiveMime)
      ? `an HTML page (an error page or a sign-in wall?) answered for ${describeUrl(url)} counted as ${effectiveMime || "a file without a type"}`
      : null;
  return { detectedMime, typeMatch, rejection };
}

/** Whether a body detected as `detected` is plausibly a file of type `expected`. */
export function typesAgree(expected: string, detected: string): boolean {
  if (expected === detected) return true;
  if (detected === "text/html") return HTML_MIMES.has(expected);
  // A generic type promises nothing: any specific content fits it.
  if (GENERIC_MIMES.has(expected)) return true;
  const detectedText = detected.startsWith("text/") || isJson(detected) || isXml(detected);
  if (expected === "text/plain") return detectedText;
  if (CSV_MIMES.has(expected) || TSV_MIMES.has(expected) || expected === "application/yaml" || expected === "text/yaml") {
    // A one-column CSV has no delimiter to see: plain text is a CSV too.
    return detected === "text/plain" || (CSV_MIMES.has(detected) && CSV_MIMES.has(expected)) || (TSV_MIMES.has(detected) && TSV_MIMES.has(expected));
  }
  if (isJson(expected)) return isJson(detected);
  if (isXml(expected)) return isXml(detected);
  if (ZIP_BASED.test(expected)) return detected === "application/zip" || ZIP_BASED.test(detected);
  if (CFB_BASED.has(expected)) return detected === "application/x-cfb" || CFB_BASED.has(detected);
  if (GZIP_MIMES.has(expected)) return GZIP_MIMES.has(detected);
  return false;
}

function isJson(mime: string): boolean {
  return mime === "application/json" || mime === "text/json" || mime.endsWith("+json");
}

function isXml(mime: string): boolean {
  return mime === "application/xml" || mime === "text/xml" || mime.endsWith("+xml");
}

function describeUrl(url: string): string {
  const path = url.replace(/[?#].*$/, "");
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `a .${name.slice(dot + 1).toLowerCase()} URL` : "a URL without an extension";
}

/**
 * The head as text when it looks like text (no NUL byte, few control characters), else null.
 * Latin-1 keeps one char per byte: the rules below only read ASCII.
 */
function textOf(head: Uint8Array): string | null {
  if (head.length >= 2 && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) {
    return new TextDecoder(head[0] === 0xff ? "utf-16le" : "utf-16be").decode(head.subarray(2));
  }
  let controls = 0;
  for (let i = 0; i < head.length; i++) {
    const byte = head[i]!;
    if (byte === 0) return null;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c && byte !== 0x1b) controls += 1;
  }
  if (controls * 20 > head.length) return null;
  const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  return Buffer.from(head.buffer, head.byteOffset + start, head.length - start).toString("latin1");
}

/** WHATWG MIME sniffing's HTML tags (a tag name followed by a space or `>`), after comments, an XML declaration and a doctype. */
const HTML_START = /^(?:<!doctype\s+html|<(?:html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|meta|link|form)[\s/>])/i;

function looksLikeHtml(text: string): boolean {
  const start = skipPreamble(text, true);
  return HTML_START.test(start);
}

/** The text after leading whitespace, comments, an XML declaration (and, for `keepDoctype` false, a doctype). */
function skipPreamble(text: string, keepDoctype: boolean): string {
  let rest = text.trimStart();
  for (let i = 0; i < 32; i++) {
    if (rest.startsWith("<!--")) {
      const end = rest.indexOf("-->");
      if (end < 0) return "";
      rest = rest.slice(end + 3).trimStart();
    } else if (rest.startsWith("<?")) {
      const end = rest.indexOf("?>");
      if (end < 0) return "";
      rest = rest.slice(end + 2).trimStart();
    } else if (!keepDoctype && /^<!doctype/i.test(rest)) {
      const end = rest.indexOf(">");
      if (end < 0) return "";
      rest = rest.slice(end + 1).trimStart();
    } else break;
  }
  return rest;
}

/** JSON, XML, CSV, TSV or plain text, judged from the head of a text body. */
function textFormatOf(text: string): string {
  const trimmed = text.trimStart();
  if (/^(?:\{\s*(?:"|\}|$)|\[\s*(?:[[{"\-\d\]]|true|false|null|$))/.test(trimmed)) return "application/json";
  if (/^<(?:\?xml|[A-Za-z_][\w.:-]*[\s/>])/.test(trimmed) || /^<!--/.test(trimmed)) return "application/xml";
  return delimitedFormatOf(text) ?? "text/plain";
}

/**
 * CSV or TSV when the complete lines of the head (at least two) hold the same, non-zero number of
 * one delimiter outside quotes (a header row and its records).
 */
function delimitedFormatOf(text: string): string | null {
  const lines = text.split(/\r\n|\n|\r/);
  if (text.length >= SNIFF_BYTES - 4) lines.pop(); // the last line may be cut by the head
  const complete = lines.filter((line) => line.length > 0).slice(0, 20);
  if (complete.length < 2) return null;
  for (const delimiter of [",", "\t", ";", "|"]) {
    const first = countOutsideQuotes(complete[0]!, delimiter);
    if (first === 0) continue;
    if (complete.every((line) => countOutsideQuotes(line, delimiter) === first)) return delimiter === "\t" ? "text/tab-separated-values" : "text/csv";
  }
  return null;
}

function countOutsideQuotes(line: string, delimiter: string): number {
  let count = 0;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (char === '"') quoted = !quoted;
    else if (char === delimiter && !quoted) count += 1;
  }
  return count;
}
