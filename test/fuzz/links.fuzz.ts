/**
 * HTML link extraction (links.ts, link-resolver.ts, page-links-async.ts, html-decoding.ts,
 * link-text.ts) on hostile pages: every link is an absolute, normalised http(s) URL within the
 * page limits, the sliced async parse equals the one-call parse, the links and anchor texts of a
 * generated page equal what the URL standard (`new URL`) and HTML's entity decoding (the
 * `entities` package htmlparser2 decodes with) give, and the page decoder reads any bytes.
 */
import { decodeHTML, decodeHTMLAttribute } from "entities";
import fc from "fast-check";
import { MAX_URL_CHARS, PAGE_LIMITS } from "../../lib/crawler/defaults";
import { decodeHtml, decodeHtmlPage } from "../../lib/crawler/html-decoding";
import { cleanText, decode, refreshUrl } from "../../lib/crawler/link-text";
import { extractPageLinks } from "../../lib/crawler/links";
import { extractPageLinksAsync } from "../../lib/crawler/page-links-async";
import { anyBytes, anyText, baseUrl, tokensOf } from "./arbitraries";
import { fuzzTarget } from "./fuzz-kit";
import type { FuzzTarget } from "./fuzz-target";

const HTML_PIECES = [
  "<a href=", "<A HREF='", "<area href=", "<iframe src=", "<frame src=", "<frameset>", "<base href=", "<meta http-equiv=refresh content=", "<meta charset=",
  "'0; url=/next'", '"', "'", ">", "/>", "</a>", "</A>", "<p>", "</p>", "<li>", "<ul>", "</ul>", "<div class='x y'>", "<div id=main>", "</div>", "<table><tr><td>", "</td>",
  "<script>", "</script>", "<style>", "<!--", "-->", "<![CDATA[", "]]>", "<svg>", "<math>", "<template>", "<textarea>", "<title>", "<!DOCTYPE html>", "<html>", "<body>",
  "/x", "../y", "?a=1&amp;b=2", "&amp;", "&lt;", "&#x26;", "&#0;", "&#xD800;", "&copy", "#frag", "javascript:alert(1)", "http://other.example/", "//cdn.example/z", "mailto:a@b",
  " ", "\n", "\t", "text", "é", "統", "\u0000", "\ufffd", ";jsessionid=ABC", "?PHPSESSID=1", "=", "<", "&",
];
const hostileHtml = fc.oneof({ weight: 4, arbitrary: tokensOf(HTML_PIECES, 120) }, { weight: 1, arbitrary: anyText(600) });
const ENCODING_LABELS = [undefined, "text/html", "text/html; charset=utf-8", "text/html; charset=ISO-8859-1", "text/html; charset=shift_jis", "text/html;charset=\"gbk\"", "text/html; charset=utf-16le", "text/html; charset=bogus", "text/html; charset=x-user-defined"];

interface Page {
  bytes: Uint8Array;
  contentType: string | undefined;
  pageUrl: string;
  refreshHeader: string | undefined;
  stableClassNames: boolean;
}
const page: fc.Arbitrary<Page> = fc.record({
  bytes: fc.oneof({ weight: 4, arbitrary: hostileHtml.map((html) => new Uint8Array(Buffer.from(html, "utf8"))) }, { weight: 1, arbitrary: anyBytes(400) }),
  contentType: fc.constantFrom(...ENCODING_LABELS),
  pageUrl: baseUrl,
  refreshHeader: fc.option(fc.oneof(fc.constantFrom("0; url=/moved", "5;URL='http://x.example/'", "1, /n"), anyText(20)), { nil: undefined }),
  stableClassNames: fc.boolean(),
});

function checkLinks(links: ReturnType<typeof extractPageLinks>): void {
  const seen = new Set<string>();
  for (const link of links.links) {
    if (!/^https?:\/\//.test(link.url) || link.url.includes("#") || link.url.length > MAX_URL_CHARS) throw new Error(`bad URL ${link.url}`);
    if (new URL(link.url).href !== link.url) throw new Error(`not normalised: ${link.url}`);
    if (seen.has(link.url)) throw new Error(`duplicate ${link.url}`);
    seen.add(link.url);
    if (link.anchorText.length > 120 || link.anchorText !== link.anchorText.trim()) throw new Error(`anchor text ${JSON.stringify(link.anchorText)}`);
    if (!link.tagPath.startsWith("/html") || link.tagPath.length > PAGE_LIMITS.maxTagPathChars) throw new Error(`tag path ${link.tagPath}`);
    if (!["a", "area", "frame", "iframe", "meta"].includes(link.tag)) throw new Error(`tag ${link.tag}`);
  }
  if (links.links.length > PAGE_LIMITS.maxLinksPerPage + 1) throw new Error(`${links.links.length} links`);
}

const hostile = fuzzTarget({
  name: "link extraction on hostile pages (sync and sliced async agree)",
  ciRuns: 600,
  memoryBoundMiB: 96,
  property: () =>
    fc.asyncProperty(page, fc.integer({ min: 1, max: 64 }), async (p, sliceChars) => {
      const decoded = decodeHtmlPage(Buffer.from(p.bytes), p.contentType);
      const context = { encoding: decoded.encoding, utf8Bytes: decoded.utf8Bytes, refreshHeader: p.refreshHeader, stableClassNames: p.stableClassNames };
      const links = extractPageLinks(decoded.text, p.pageUrl, context);
      checkLinks(links);
      const sliced = await extractPageLinksAsync(decoded.text, p.pageUrl, context, sliceChars);
      if (JSON.stringify(sliced) !== JSON.stringify(links)) throw new Error(`slices of ${sliceChars} chars give other links:\n${JSON.stringify(sliced)}\n${JSON.stringify(links)}`);
    }),
});

// ---- a generated page's links against the URL standard and HTML's entity decoding ----

/** Hrefs without characters String.trim and the URL parser disagree on (no-break space, BOM…) and without session ids. */
const HREF_PIECES = ["/", "a", "b", "..", ".", "%2e", "?", "q=1", "&", "#", "x", "é", "統", " ", "\n", "\t", ":", "//", "\\", "http://h.example/", "HTTPS://H.example:443/", "javascript:", "mailto:", "'", '"', "<", ">", "=", "`", "%", "~"];
const TEXT_PIECES = ["word", " ", "  ", "\n", "\t", "&amp;", "&lt;", "&copy;", "&#233;", "&#x1F600;", "&bogus;", "&", "é", "統", "<", ">", "'"];

interface GeneratedLink {
  href: string;
  text: string;
  quote: "'" | '"' | "";
}
const generatedLink: fc.Arbitrary<GeneratedLink> = fc.record({
  href: tokensOf(HREF_PIECES, 8).filter((h) => !/[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/.test(h)),
  text: fc.array(fc.constantFrom(...TEXT_PIECES), { maxLength: 40 }).map((parts) => parts.join("")),
  quote: fc.constantFrom<"'" | '"' | "">("'", '"', ""),
});

/** An attribute value as an author escapes it for its quoting. */
function attribute(value: string, quote: GeneratedLink["quote"]): string {
  const escaped = value.replace(/&/g, "&amp;");
  if (quote === '"') return `"${escaped.replace(/"/g, "&quot;")}"`;
  if (quote === "'") return `'${escaped.replace(/'/g, "&#39;")}'`;
  // Unquoted: every character that would end or break the value escaped; an empty value quoted.
  return escaped === "" ? '""' : escaped.replace(/[\s"'=<>`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

function referenceResolve(href: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.hash = "";
  return url.href.replace(/#$/, "");
}

/** The anchor text: entities decoded, whitespace collapsed, trimmed, cut to 120 characters. */
function referenceText(text: string): string {
  const collapsed = decodeHTML(text).replace(/\s+/g, " ").trim();
  return collapsed.length > 120 ? collapsed.slice(0, 120).trimEnd() : collapsed;
}

const generated = fuzzTarget({
  name: "links of a generated page vs new URL and HTML entity decoding",
  ciRuns: 250,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(
      fc.constantFrom("http://site.example/dir/page.html", "https://www.site.example/a/b/?x=1", "http://127.0.0.1:8080/"),
      fc.array(generatedLink, { maxLength: 12 }),
      fc.array(fc.constantFrom("<div class='menu'>", "<ul><li>", "<p>", "<table><tr><td>", "<section id=s1>"), { maxLength: 12 }),
      (pageUrl, links, wrappers) => {
        const body = links.map((l, i) => `${wrappers[i] ?? ""}<a href=${attribute(l.href, l.quote)}>${l.text.replace(/</g, "&lt;")}</a>\n`).join("");
        const html = `<!DOCTYPE html><html><head><title>t</title></head><body>${body}</body></html>`;
        const decoded = decodeHtmlPage(Buffer.from(html, "utf8"), "text/html; charset=utf-8");
        const got = extractPageLinks(decoded.text, pageUrl, { encoding: decoded.encoding, utf8Bytes: decoded.utf8Bytes }).links;
        const expected: { url: string; anchorText: string }[] = [];
        const seen = new Set<string>();
        for (const l of links) {
          const url = referenceResolve(l.href, pageUrl);
          if (url === null || seen.has(url)) continue;
          seen.add(url);
          expected.push({ url, anchorText: referenceText(l.text.replace(/</g, "&lt;")) });
        }
        const actual = got.map((l) => ({ url: l.url, anchorText: l.anchorText }));
        if (JSON.stringify(actual) !== JSON.stringify(expected)) throw new Error(`page\n${html}\ngave\n${JSON.stringify(actual)}\nexpected\n${JSON.stringify(expected)}`);
      },
    ),
});

// ---- entity decoding, refreshes and the page decoder ----

const ENTITY_PIECES = ["&", "&amp;", "&amp", "&lt", "&copy", "&copy=2", "&#", "&#x", "&#65;", "&#x41;", "&#0;", "&#xD800;", "&#x110000;", "&#99999999999;", "&notit;", "&notin;", "&AElig", "=", "x", ";", '"', " "];

const text = fuzzTarget({
  name: "entities, refresh URLs and page decoding on hostile text",
  ciRuns: 1200,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(tokensOf(ENTITY_PIECES, 20), anyText(60), anyBytes(300), fc.constantFrom(...ENCODING_LABELS), (entities, content, bytes, contentType) => {
      if (decode(entities, false) !== decodeHTML(entities)) throw new Error(`text ${JSON.stringify(entities)}: ${JSON.stringify(decode(entities, false))} ≠ ${JSON.stringify(decodeHTML(entities))}`);
      if (decode(entities, true) !== decodeHTMLAttribute(entities)) throw new Error(`attribute ${JSON.stringify(entities)}: ${JSON.stringify(decode(entities, true))} ≠ ${JSON.stringify(decodeHTMLAttribute(entities))}`);
      const cleaned = cleanText(content, false);
      if (cleaned.length > 120 || /\s\s/.test(cleaned)) throw new Error(`cleanText ${JSON.stringify(cleaned)}`);
      const refresh = refreshUrl(content);
      if (refresh === "") throw new Error("refreshUrl gave an empty URL");
      const body = Buffer.from(bytes);
      const decoded = decodeHtmlPage(body, contentType);
      if (new TextDecoder(decoded.encoding).encoding !== decoded.encoding) throw new Error(`encoding ${decoded.encoding}`);
      const plain = decodeHtml(body, contentType);
      if (decoded.encoding === "utf-8" && plain !== new TextDecoder("utf-8").decode(body)) throw new Error("a UTF-8 page decoded otherwise than TextDecoder");
    }),
});

export const fuzzTargets: FuzzTarget[] = [hostile, generated, text];
