/**
 * Sitemaps (lib/crawler/sitemap-parser.ts): XML urlsets and indexes, gzip, plain text. A sitemap
 * written by a generator (escapes, CDATA, namespaces, comments, extra elements, gzip) and parsed
 * back yields exactly the generated URLs and lastmods, in the documented order; hostile bytes
 * give a result, never an exception.
 */
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { MAX_SITEMAP_URLS, parseSitemap, sitemapText } from "../../lib/crawler/sitemap-parser";
import { anyBytes, anyText, tokensOf } from "./arbitraries";
import { fuzzTarget } from "./fuzz-kit";
import type { FuzzTarget } from "./fuzz-target";

interface Entry {
  url: string;
  lastmod: string | null;
}

/** URLs with the characters XML must escape, non-ASCII and spaces inside. */
const sitemapUrl = fc
  .tuple(fc.constantFrom("http://", "https://", "HTTP://"), fc.webAuthority(), fc.string({ unit: fc.constantFrom(..."/ab09-_.~%&<>'\"=?;é統"), maxLength: 20 }))
  .map(([scheme, host, rest]) => `${scheme}${host}/${rest}`);
const lastmod = fc.option(
  fc.oneof(
    fc.date({ min: new Date("1995-01-01T00:00:00Z"), max: new Date("2040-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString()),
    fc.date({ min: new Date("1995-01-01T00:00:00Z"), max: new Date("2040-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
    fc.constantFrom("yesterday", "2024-13-45", "2024-02-30T25:00:00+01:00"),
  ),
  { nil: null },
);

/** How one text is written into XML: escaped with names, decimal or hex references, or in CDATA. */
type Escape = "named" | "decimal" | "hex" | "cdata";
function xmlText(text: string, escape: Escape): string {
  if (escape === "cdata" && !text.includes("]]>")) return `<![CDATA[${text}]]>`;
  return text.replace(/[&<>'"]/g, (c) => (escape === "decimal" ? `&#${c.charCodeAt(0)};` : escape === "hex" ? `&#x${c.charCodeAt(0).toString(16)};` : { "&": "&amp;", "<": "&lt;", ">": "&gt;", "'": "&apos;", '"': "&quot;" }[c]!));
}

interface Style {
  escape: Escape;
  declaration: boolean;
  prefix: "" | "sm:";
  padding: string;
  extras: boolean;
  gzip: boolean;
}
const style: fc.Arbitrary<Style> = fc.record({
  escape: fc.constantFrom<Escape>("named", "decimal", "hex", "cdata"),
  declaration: fc.boolean(),
  prefix: fc.constantFrom<"" | "sm:">("", "sm:"),
  padding: fc.constantFrom("", " ", "\n  ", "\r\n\t"),
  extras: fc.boolean(),
  gzip: fc.boolean(),
});

function writeXml(kind: "urlset" | "index", entries: Entry[], s: Style): string {
  const root = kind === "urlset" ? "urlset" : "sitemapindex";
  const item = kind === "urlset" ? "url" : "sitemap";
  const p = s.prefix;
  const ns = p === "" ? 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"' : 'xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"';
  const extraNs = s.extras ? ' xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" xmlns:xhtml="http://www.w3.org/1999/xhtml"' : "";
  const items = entries.map((e) => {
    const parts = [`<${p}loc>${s.padding}${xmlText(e.url, s.escape)}${s.padding}</${p}loc>`];
    if (e.lastmod !== null) parts.push(`<${p}lastmod>${xmlText(e.lastmod, s.escape)}</${p}lastmod>`);
    if (s.extras) parts.push(`<!-- an <url> in a comment -->`, `<${p}priority>0.5</${p}priority>`, `<xhtml:link rel="alternate" hreflang="de" href="http://example.org/de"/>`, `<image:image><image:loc>http://example.org/i.png</image:loc></image:image>`);
    return `<${p}${item}>${s.padding}${parts.join(s.padding)}${s.padding}</${p}${item}>`;
  });
  return `${s.declaration ? '<?xml version="1.0" encoding="UTF-8"?>\n' : ""}<${p}${root} ${ns}${extraNs}>${s.padding}${items.join(s.padding)}${s.padding}</${p}${root}>`;
}

/** The documented order: newest lastmod first (Date.parse), entries without a readable one last, document order among equals. */
function documentedOrder(entries: Entry[]): Entry[] {
  const time = (e: Entry) => (e.lastmod === null || Number.isNaN(Date.parse(e.lastmod)) ? -Infinity : Date.parse(e.lastmod));
  return entries.map((e, i) => ({ e, i })).sort((a, b) => (time(b.e) === time(a.e) ? a.i - b.i : time(b.e) > time(a.e) ? 1 : -1)).map(({ e }) => e);
}

const roundTrip = fuzzTarget({
  name: "sitemap written and parsed back",
  ciRuns: 600,
  memoryBoundMiB: 64,
  property: () =>
    fc.asyncProperty(fc.constantFrom<"urlset" | "index" | "text">("urlset", "index", "text"), fc.array(fc.record({ url: sitemapUrl, lastmod }), { maxLength: 12 }), style, async (kind, generated, s) => {
      const entries = kind === "text" ? generated.map((e) => ({ url: e.url.replace(/\s/g, "%20"), lastmod: null })) : generated;
      const written = kind === "text" ? entries.map((e) => e.url).join(s.padding.includes("\r") ? "\r\n" : "\n") : writeXml(kind, entries, s);
      const bytes = Buffer.from(written, "utf8");
      const read = await sitemapText(s.gzip ? gzipSync(bytes) : bytes);
      if (read === null || read.truncated || read.text !== written) throw new Error("sitemapText did not give the text back");
      const parsed = parseSitemap(read.text);
      if (entries.length === 0) return; // an empty file is `invalid` for text and XML alike; nothing to compare
      const expected = kind === "text" ? entries : documentedOrder(entries);
      const expectedKind = kind === "index" ? "index" : "urlset";
      if (parsed.kind !== expectedKind || parsed.truncated || JSON.stringify(parsed.entries) !== JSON.stringify(expected)) {
        throw new Error(`${kind} parsed as ${parsed.kind}:\n${JSON.stringify(parsed.entries)}\nexpected\n${JSON.stringify(expected)}\nfrom\n${written}`);
      }
    }),
});

const XML_PIECES = ["<urlset>", "</urlset>", "<sitemapindex>", "<url>", "</url>", "<sitemap>", "<loc>", "</loc>", "<lastmod>", "http://a.example/", "https://b/", "&amp;", "&#0;", "&#x110000;", "&bogus;", "&#", "<![CDATA[", "]]>", "<!--", "-->", "<?xml ?>", "<!DOCTYPE x [<!ENTITY a 'b'>]>", "<", ">", "/>", "=", '"', " ", "\n", "x:", "xmlns=", "2024-01-01", "\u0000", "\ufffe"];

const hostile = fuzzTarget({
  name: "sitemap reader on hostile bytes",
  ciRuns: 800,
  memoryBoundMiB: 96,
  property: () =>
    fc.asyncProperty(fc.oneof(anyBytes(400), tokensOf(XML_PIECES, 60).map((t) => new Uint8Array(Buffer.from(t)))), fc.nat(3), async (raw, how) => {
      // As sent, gzip-compressed, or a gzip stream cut short (a truncated download).
      let body = Buffer.from(raw);
      if (how === 1) body = gzipSync(body);
      if (how === 2) body = gzipSync(body).subarray(0, Math.max(2, body.length >> 1));
      const read = await sitemapText(body);
      if (read === null) return;
      const parsed = parseSitemap(read.text);
      if (!["urlset", "index", "invalid"].includes(parsed.kind)) throw new Error(`kind ${parsed.kind}`);
      if (parsed.entries.length > MAX_SITEMAP_URLS) throw new Error("over the protocol's cap");
      for (const e of parsed.entries) {
        if (typeof e.url !== "string" || !/^https?:\/\//i.test(e.url)) throw new Error(`entry ${JSON.stringify(e)}`);
        if (e.lastmod !== null && typeof e.lastmod !== "string") throw new Error(`lastmod ${JSON.stringify(e.lastmod)}`);
      }
    }),
});

export const fuzzTargets: FuzzTarget[] = [roundTrip, hostile];
