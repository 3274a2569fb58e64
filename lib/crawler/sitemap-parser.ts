/**
 * Sitemaps (sitemaps.org protocol 0.9): a `<urlset>` of `<url><loc>…</loc><lastmod>…</lastmod></url>`,
 * a `<sitemapindex>` of `<sitemap><loc>` naming other sitemap files, either of them gzip-compressed
 * (`.xml.gz`), or a plain text file of one URL a line. The protocol caps a file at 50,000 URLs and
 * 50 MB (52,428,800 bytes) uncompressed; larger files are cut there. Parsed with fast-xml-parser;
 * a document declaring a DOCTYPE (entities: the "billion laughs") is refused, sitemaps never need one.
 */
import { gunzipSync } from "node:zlib";
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

/** The text of a sitemap body: gunzipped when it is gzip (by its magic bytes), cut at {@link MAX_SITEMAP_BYTES}. */
export function sitemapText(body: Buffer): { text: string; truncated: boolean } | null {
  let bytes = body;
  if (body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b) {
    try {
      bytes = gunzipSync(body, { maxOutputLength: MAX_SITEMAP_BYTES });
    } catch (error) {
      // ERR_BUFFER_TOO_LARGE: a decompression bomb or a file over the cap; nothing is kept.
      if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return { text: "", truncated: true };
      return null;
    }
  }
  const truncated = bytes.length > MAX_SITEMAP_BYTES;
  return { text: bytes.subarray(0, MAX_SITEMAP_BYTES).toString("utf8"), truncated };
}

export function parseSitemap(text: string): ParsedSitemap {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith("<")) return plainTextSitemap(trimmed);
  if (/<!DOCTYPE|<!ENTITY/i.test(trimmed.slice(0, 4096))) return { kind: "invalid", entries: [], truncated: false };
  let document: Record<string, unknown>;
  try {
    document = parser.parse(trimmed) as Record<string, unknown>;
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
