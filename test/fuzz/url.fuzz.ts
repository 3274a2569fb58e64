/**
 * URL normalisation and scope, the readers of every href a hostile page or redirect hands the
 * crawler: href resolution (fast string path and `new URL`), the site boundary, the string fast
 * paths of url-rules against parsed URLs, session-id stripping, URL shapes and the encoding of
 * queries on legacy-encoded pages. References: the WHATWG URL standard through `new URL`, the
 * contracts' own words, TextDecoder for the legacy encodings.
 */
import fc from "fast-check";
import { hrefResolver } from "../../lib/crawler/href-resolver";
import { encodeQueryFor } from "../../lib/crawler/query-encoding";
import { urlShape } from "../../lib/crawler/url-shape";
import { hasBlockedExtension, isInSite, isTrapUrl, normalizeUrl, siteKey, stripSessionIds } from "../../lib/crawler/url-rules";
import { anyText, baseUrl, tokensOf } from "./arbitraries";
import { fuzzTarget } from "./fuzz-kit";
import type { FuzzTarget } from "./fuzz-target";

/** Pieces of hrefs that take the URL parser's special branches: dot segments, escapes, schemes, authorities, whitespace. */
const HREF_PIECES = [
  "/", "/", "a", "b", "..", ".", "%2e", "%2E", "%2e%2e", "?", "#", "~", ":", "//", "\\", " ", "\t", "\n", "%", "%41", "%zz",
  "é", "統", "'", '"', "<", ">", "@", ";", "=", "&", "+", "|", "^", "`", "{", "[", "]", "\u00a0", "\ufeff", "\u0000",
  "http:", "HTTPS://", "https://x.example", "//other.example", "javascript:", "mailto:", "data:", "ftp://", "www.", "index.html", "x.PDF", "?q=1&r=2",
];
const href = fc.oneof(tokensOf(HREF_PIECES, 12), anyText(40), fc.webUrl({ withFragments: true, withQueryParameters: true }));

/** `new URL(href.trim(), base)` as normalizeUrl's contract states it: http(s) only, no fragment. */
function referenceResolve(value: string, base: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  url.hash = "";
  // `hash = ""` leaves a bare "#" off, as the serialiser does for an empty fragment.
  return url.href.endsWith("#") ? url.href.slice(0, -1) : url.href;
}

function parses(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

const hrefResolution = fuzzTarget({
  name: "href resolution vs new URL",
  ciRuns: 1200,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(baseUrl, fc.array(href, { minLength: 1, maxLength: 8 }), (base, hrefs) => {
      const parsed = parses(base);
      for (const value of hrefs) {
        const expected = referenceResolve(value, base);
        const viaNormalize = normalizeUrl(value, base);
        if (viaNormalize !== expected) throw new Error(`normalizeUrl(${JSON.stringify(value)}, ${base}) = ${viaNormalize}, URL standard: ${expected}`);
        if (parsed === null) continue;
        const fast = hrefResolver(parsed)(value);
        if (fast !== expected) throw new Error(`hrefResolver(${base})(${JSON.stringify(value)}) = ${fast}, URL standard: ${expected}`);
        // Normalised URLs are fixed points: resolving one again changes nothing.
        if (expected !== null && normalizeUrl(expected, expected) !== expected) throw new Error(`not idempotent: ${expected}`);
      }
    }),
});

/** The site boundary as isInSite's contract states it, computed on parsed URLs. */
function referenceInSite(url: URL, root: URL): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  const bare = (host: string) => (host.endsWith(".") ? host.slice(0, -1) : host);
  const local = (host: string) => host.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(host) || host === "localhost" || host.endsWith(".localhost");
  const port = (u: URL) => u.port || (u.protocol === "https:" ? "443" : "80");
  const withoutWww = (host: string) => {
    const h = bare(host);
    return h.startsWith("www.") && h.indexOf(".", 4) > 0 ? h.slice(4) : h;
  };
  if (local(root.hostname)) {
    if (port(url) !== port(root)) return false;
    return url.hostname === root.hostname || url.hostname.endsWith("." + root.hostname);
  }
  const site = withoutWww(root.hostname);
  const host = withoutWww(url.hostname);
  return host === site || host.endsWith("." + site);
}

const EXTENSIONS = [".pdf", ".jpg", ".tar.gz", ".gz", ".html"];

const siteScope = fuzzTarget({
  name: "site boundary and URL string fast paths vs parsed URLs",
  ciRuns: 1200,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(fc.oneof(baseUrl, anyText(30)), baseUrl, href, (root, page, link) => {
      let key: ReturnType<typeof siteKey> | null = null;
      try {
        key = siteKey(root);
      } catch (error) {
        if (!(error instanceof TypeError) || !error.message.startsWith("Root URL must be")) throw error;
      }
      const rootUrl = parses(root.trim());
      if ((key === null) !== (rootUrl === null || !/^https?:$/.test(rootUrl.protocol))) throw new Error(`siteKey(${JSON.stringify(root)}) threw ${key === null}`);
      const url = normalizeUrl(link, page);
      if (url === null) return;
      const parsed = new URL(url);
      if (key !== null && rootUrl !== null) {
        const expected = referenceInSite(parsed, rootUrl);
        if (isInSite(url, key) !== expected || isInSite(parsed, key) !== expected) throw new Error(`isInSite(${url}, root ${root}) ≠ ${expected}`);
      }
      if (hasBlockedExtension(url, EXTENSIONS) !== hasBlockedExtension(parsed, EXTENSIONS)) throw new Error(`hasBlockedExtension(${url}) differs from its parsed form`);
      const stripped = stripSessionIds(url);
      if (stripSessionIds(stripped) !== stripped) throw new Error(`stripSessionIds not idempotent on ${url}`);
      if (/[?&;](jsessionid|phpsessid)=/i.test(new URL(stripped).search + new URL(stripped).pathname)) throw new Error(`session id left in ${stripped}`);
      if (!/^(\/[^?]*(\?.*)?|\?)$/s.test(urlShape(url))) throw new Error(`urlShape(${url}) = ${urlShape(url)}`);
      isTrapUrl(url, root);
    }),
});

/** Labels TextDecoder knows whose queries Forage re-encodes (stateless ones: ISO-2022-JP is sent as `&#…;`). */
const LEGACY_ENCODINGS = ["windows-1252", "iso-8859-2", "windows-1251", "koi8-r", "shift_jis", "euc-jp", "euc-kr", "gbk", "gb18030", "big5", "utf-8", "utf-16le"];
const QUERY_CHARS = "aZ09=&+/?:-._~!$'()*,;@ éÉüßœ€‚ž½ĀŁжЖ統計日本語한국어中文繁體😀\u00a0\u3000\ud800";

/** Bytes of a query: `%XX` escapes as bytes, every other character as its ASCII byte. */
function queryBytes(query: string): Uint8Array {
  const bytes: number[] = [];
  for (let i = 0; i < query.length; i++) {
    if (query[i] === "%" && /^[0-9A-F]{2}$/.test(query.slice(i + 1, i + 3))) {
      bytes.push(parseInt(query.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const code = query.charCodeAt(i);
      if (code >= 0x80) throw new Error(`non-ASCII ${JSON.stringify(query[i])} left in ${JSON.stringify(query)}`);
      bytes.push(code);
    }
  }
  return Uint8Array.from(bytes);
}

/**
 * WHATWG index-windows-1252 for 0x80–0x9F, written from the Encoding standard: Node 20's
 * TextDecoder reads those bytes as C1 controls, so it cannot be the reference there.
 */
const WINDOWS_1252_80_9F = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

function decodeIn(encoding: string, bytes: Uint8Array): string {
  if (encoding !== "windows-1252") return new TextDecoder(encoding).decode(bytes);
  return String.fromCodePoint(...[...bytes].map((b) => (b >= 0x80 && b <= 0x9f ? WINDOWS_1252_80_9F[b - 0x80]! : b)));
}

const queryEncoding = fuzzTarget({
  name: "query encoding in the page's encoding vs TextDecoder",
  ciRuns: 800,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(
      fc.constantFrom(...LEGACY_ENCODINGS),
      fc.string({ unit: fc.constantFrom(..."/abé統%"), maxLength: 10 }),
      fc.string({ unit: fc.constantFrom(...[...QUERY_CHARS]), maxLength: 16 }),
      fc.string({ unit: fc.constantFrom(..."xé#?"), maxLength: 6 }),
      (encoding, path, query, fragment) => {
        const input = `/p${path.replace(/[?#]/g, "")}?${query}${fragment ? `#${fragment}` : ""}`;
        const output = encodeQueryFor(input, encoding);
        if (encoding.startsWith("utf-")) {
          if (output !== input) throw new Error(`a Unicode page's href changed: ${output}`);
          return;
        }
        const queryAt = input.indexOf("?");
        const end = input.indexOf("#", queryAt) < 0 ? input.length : input.indexOf("#", queryAt);
        if (!output.startsWith(input.slice(0, queryAt + 1)) || !output.endsWith(input.slice(end))) throw new Error(`path or fragment changed: ${output}`);
        const encoded = output.slice(queryAt + 1, output.length - (input.length - end));
        // Decoded in the page's encoding, the bytes give the query back, unrepresentable characters as `&#N;`.
        const decoded = decodeIn(encoding, queryBytes(encoded));
        const original = input.slice(queryAt + 1, end);
        const expected = [...original].map((char) => (char.charCodeAt(0) < 0x80 ? char : decoded.includes(char) ? char : `&#${char.codePointAt(0)};`)).join("");
        if (decoded !== expected) throw new Error(`${encoding}: ${JSON.stringify(original)} → ${encoded} → ${JSON.stringify(decoded)}`);
      },
    ),
});

export const fuzzTargets: FuzzTarget[] = [hrefResolution, siteScope, queryEncoding];
