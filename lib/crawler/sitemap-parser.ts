/**
 * Sitemaps (sitemaps.org protocol 0.9): a `<urlset>` of `<url><loc>…</loc><lastmod>…</lastmod></url>`,
 * a `<sitemapindex>` of `<sitemap><loc>` naming other sitemap files, either of them gzip-compressed
 * (`.xml.gz`), or a plain text file of one URL a line. The protocol caps a file at 50,000 URLs and
 * 50 MB (52,428,800 bytes) uncompressed; larger files are cut there. Parsed with fast-xml-parser;
 * a document declaring a DOCTYPE (entities: the "billion laughs") is refused, sitemaps never need one.
 */
import { promisify } from "node:util";
import zlib from "node:zlib";
import { XMLParser } from "fast-xml-parser";

/** URLs read from one sitemap file at most (the protocol's limit). */
export const MAX_SITEMAP_URLS = 50_000;
/** Uncompressed size of one sitemap file at most (the protocol's limit). */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

export interface SitemapEntry {
  readonly url: string;
  /** W3C datetime as written, or null. */
  readonly lastmod: string | null;
}

export interface ParsedSitemap {
  /** `urlset` lists pages and files; `index` lists further sitemap files; `invalid` could not be read. */
  readonly kind: "urlset" | "index" | "invalid";
  /** Newest `lastmod` first, entries without one last, document order among equals. */
  readonly entries: SitemapEntry[];
  /** True when the file held more than {@link MAX_SITEMAP_URLS} entries or bytes over the cap. */
  readonly truncated: boolean;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  processEntities: true,
  isArray: (name) => name === "url" || name === "sitemap",
});

/**
 * The text of a sitemap body: gunzipped when it is gzip (by its magic bytes), cut at
 * {@link MAX_SITEMAP_BYTES}; null when the gzip stream is corrupt or cut short.
 *
 * Asynchronous on purpose: on Node 20 every `gunzipSync` that throws (a corrupt or truncated
 * .xml.gz, which any site can serve) keeps about 18 KB of heap and zlib memory for the life of the
 * process; `zlib.gunzip` frees it. 100,000 hostile bodies held 416 MiB with the synchronous call
 * (found by test/fuzz/sitemap.fuzz.ts; a worker runs many crawls, each reading sitemaps).
 */
export async function sitemapText(body: Buffer): Promise<{ text: string; truncated: boolean } | null> {
  let bytes = body;
  if (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b) {
    try {
      bytes = await gunzip(body, { maxOutputLength: MAX_SITEMAP_BYTES });
    } catch (error) {
      // ERR_BUFFER_TOO_LARGE: a decompression bomb or a file over the cap; nothing is kept.
      if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return { text: "", truncated: true };
      return null;
    }
  }
  const truncated = bytes.length > MAX_SITEMAP_BYTES;
  return { text: bytes.subarray(0, MAX_SITEMAP_BYTES).toString("utf8"), truncated };
}

const gunzip = promisify(zlib.gunzip);

export function parseSitemap(text: string): ParsedSitemap {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("<")) return plainTextSitemap(trimmed);
  if (/<!DOCTYPE|<!ENTITY/i.test(trimmed.slice(0, 4096))) return { kind: "invalid", entries: [], truncated: false };
  let document: Record<string, unknown>;
  try {
    document = parser.parse(withNumericReferencesNamed(trimmed)) as Record<string, unknown>;
  } catch {
    return { kind: "invalid", entries: [], truncated: false };
  }
  const urlset = document.urlset as { url?: unknown[] } | undefined;
  const index = document.sitemapindex as { sitemap?: unknown[] } | undefined;
  const items = urlset ? (urlset.url ?? []) : index ? (index.sitemap ?? []) : null;
  if (!items) return { kind: "invalid", entries: [], truncated: false };
  const entries: SitemapEntry[] = [];
  for (const item of items) {
    if (entries.length >= MAX_SITEMAP_URLS) break;
    const { loc, lastmod } = (item ?? {}) as { loc?: unknown; lastmod?: unknown };
    if (typeof loc !== "string" || !/^https?:\/\//i.test(loc)) continue;
    entries.push({ url: loc, lastmod: typeof lastmod === "string" && lastmod ? lastmod : null });
  }
  return { kind: urlset ? "urlset" : "index", entries: newestFirst(entries), truncated: items.length > MAX_SITEMAP_URLS };
}

/**
 * XML character references (`&#233;`, `&#x3e;`) turned into the character, or into its named
 * entity for the five XML escapes (`&#38;` → `&amp;`), outside CDATA sections and comments.
 * fast-xml-parser decodes named entities but, unless `htmlEntities` is on, only a few fixed
 * spellings of numeric ones (`&#62;`, not `&#x3e;` nor `&#233;`): a `<loc>` written
 * `http://example.org/?a=1&#x26;b=2` or `/caf&#233;` was read with the reference left in, and the
 * crawler requested a URL the site never listed (found by test/fuzz/sitemap.fuzz.ts).
 * `htmlEntities` would decode them after `&amp;`, so `&amp;#38;` would become `&` instead of `&#38;`.
 */
function withNumericReferencesNamed(xml: string): string {
  if (!xml.includes("&#")) return xml;
  // One left-to-right scan; a section's end is found with indexOf from its start, so a hostile
  // file of unterminated `<![CDATA[` is read once, not once per opening (no lazy `[\s\S]*?`).
  const token = /&#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}));|<!\[CDATA\[|<!--/g;
  let out = "";
  let copied = 0;
  for (let match = token.exec(xml); match !== null; match = token.exec(xml)) {
    const [text, hex, decimal] = match;
    if (hex === undefined && decimal === undefined) {
      // A CDATA section or a comment: kept as written; unterminated, the rest is (the parser refuses it).
      const close = xml.indexOf(text === "<!--" ? "-->" : "]]>", token.lastIndex);
      if (close < 0) break;
      token.lastIndex = close + 3;
      continue;
    }
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(decimal!, 10);
    // XML 1.0 Char: no NUL, no surrogates, nothing past U+10FFFF; such a reference stays as written.
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) continue;
    out += xml.slice(copied, match.index) + (XML_ESCAPES[code] ?? String.fromCodePoint(code));
    copied = token.lastIndex;
  }
  return out + xml.slice(copied);
}

const XML_ESCAPES: Record<number, string> = { 0x26: "&amp;", 0x3c: "&lt;", 0x3e: "&gt;", 0x22: "&quot;", 0x27: "&apos;" };

/** A text sitemap: one absolute URL a line (the protocol's alternative format). */
function plainTextSitemap(text: string): ParsedSitemap {
  const entries: SitemapEntry[] = [];
  let lines = 0;
  for (const line of text.split(/\r?\n/)) {
    const url = line.trim();
    if (!/^https?:\/\/\S+$/i.test(url)) continue;
    lines += 1;
    if (entries.length < MAX_SITEMAP_URLS) entries.push({ url, lastmod: null });
  }
  return { kind: entries.length > 0 ? "urlset" : "invalid", entries, truncated: lines > MAX_SITEMAP_URLS };
}

function newestFirst(entries: SitemapEntry[]): SitemapEntry[] {
  const time = (entry: SitemapEntry) => {
    const ms = entry.lastmod === null ? NaN : Date.parse(entry.lastmod);
    return Number.isNaN(ms) ? -Infinity : ms;
  };
  return entries
    .map((entry, order) => ({ entry, order, ms: time(entry) }))
    .sort((a, b) => b.ms - a.ms || a.order - b.order)
    .map(({ entry }) => entry);
}
