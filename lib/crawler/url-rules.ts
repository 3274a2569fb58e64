/**
 * URL rules of the crawl: normalisation, website boundary, robot-trap filters,
 * extension blocklist and user URL patterns (docs/ALGORITHM.md, "Website boundary",
 * "Links and tag paths", "Download and filters").
 *
 * The predicates run on every extracted link (hundreds per page, a 1 ms CPU budget per
 * page), so they read the parts of an already-normalised href with string operations
 * instead of re-parsing it: four `new URL` parses per link would eat a large part of the
 * budget. Anything that does not look like a WHATWG-serialised
 * http(s) URL falls back to `new URL`.
 */
import { compileRegexPattern, MAX_PROGRAM_SIZE, programsTooLarge } from "./url-pattern-safety";

/** Thrown by {@link compileUrlPatterns} for a pattern that is invalid or that the linear-time engine cannot run. */
export class UrlPatternError extends Error {
  override readonly name = "UrlPatternError";
  constructor(
    /** The offending pattern, as the user typed it. */
    readonly pattern: string,
    options?: { cause?: unknown; reason?: string },
  ) {
    super(`Invalid URL pattern ${JSON.stringify(pattern)}${options?.reason ? `: ${options.reason}` : ""}`, options);
  }
}

interface UrlParts {
  readonly protocol: string; // "http:" | "https:" | other
  readonly hostname: string;
  readonly port: string; // "" for the scheme's default port
  readonly pathname: string;
  readonly search: string; // without the "?"
}

/**
 * Splits a WHATWG-serialised href (what {@link normalizeUrl} returns) without parsing:
 * `scheme://[userinfo@]host[:port]/path[?query][#fragment]`. Returns null when the
 * string is not in that canonical shape (upper case in the authority, no path…).
 */
function splitCanonical(href: string): UrlParts | null {
  let protocol: string;
  let start: number;
  if (href.startsWith("https://")) {
    protocol = "https:";
    start = 8;
  } else if (href.startsWith("http://")) {
    protocol = "http:";
    start = 7;
  } else {
    return null;
  }
  const slash = href.indexOf("/", start);
  if (slash < 0) return null;
  let authority = href.slice(start, slash);
  if (/[A-Z?#\\\s]/.test(authority)) return null;
  const at = authority.lastIndexOf("@");
  if (at >= 0) authority = authority.slice(at + 1);
  let hostname = authority;
  let port = "";
  const colon = authority.lastIndexOf(":");
  if (colon >= 0 && colon > authority.lastIndexOf("]")) {
    hostname = authority.slice(0, colon);
    port = authority.slice(colon + 1);
  }
  if (hostname === "") return null;
  let end = href.indexOf("#", slash);
  if (end < 0) end = href.length;
  const q = href.indexOf("?", slash);
  const pathEnd = q >= 0 && q < end ? q : end;
  return {
    protocol,
    hostname,
    port,
    pathname: href.slice(slash, pathEnd),
    search: pathEnd < end ? href.slice(pathEnd + 1, end) : "",
  };
}

function urlParts(url: string | URL): UrlParts | null {
  if (typeof url === "string") {
    const fast = splitCanonical(url);
    if (fast) return fast;
    try {
      url = new URL(url);
    } catch {
      return null;
    }
  }
  return {
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port,
    pathname: url.pathname,
    search: url.search.slice(1),
  };
}

const SCHEME_RE = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;

/**
 * `new URL(href.trim(), base)` without its fragment, or null when it does not parse or
 * is not http(s) (`javascript:`, `mailto:`, `tel:`, `data:`…). Scheme and host come out
 * lower-cased and default ports dropped (the WHATWG serialiser does both).
 */
export function normalizeUrl(href: string, base: string | URL): string | null {
  const trimmed = href.trim();
  const scheme = SCHEME_RE.exec(trimmed);
  if (scheme) {
    const s = scheme[1]!.toLowerCase();
    // Cheap early exit: skips the URL parser for the many mailto:/javascript: links.
    if (s !== "http" && s !== "https") return null;
  }
  let resolved: string;
  try {
    resolved = new URL(trimmed, base).href;
  } catch {
    return null;
  }
  if (!resolved.startsWith("http://") && !resolved.startsWith("https://")) return null;
  // '#' can only be the fragment delimiter in a serialised URL (path and query encode it).
  const hash = resolved.indexOf("#");
  return hash < 0 ? resolved : resolved.slice(0, hash);
}

/** Cheap pre-check: could the URL carry a session id at all? */
const SESSION_HINT = /sessionid|sessid|sid=|cfid=|cftoken=/i;
/** Query keys that are always a session (Java, PHP, ASP, ColdFusion), lower-cased. */
const SESSION_KEYS = /^(?:jsessionid|phpsessid|aspsessionid[a-z]{8}|cfid|cftoken)$/;
const HEX32 = /^[0-9a-f]{32}$/i;

/**
 * A link without the session id a server writes into links for clients it thinks keep no cookies
 * (`/page;jsessionid=0A1B…?x=1`, `?PHPSESSID=…`, `?sid=<32 hex>`, `ASPSESSIONIDxxxxxxxx`,
 * `CFID`/`CFTOKEN`), as Heritrix's canonicalisation strips them. Other 32-hex parameters stay:
 * a download link's `?s=<hash>` may be the token that makes it work. Where such a server hands out
 * a new id with every page (the crawl's cookie jar does not always stop it: some write ids into
 * links whatever the client sends), every link of the site is new again on each page: an endless
 * duplicate trap. Applied to links read from pages, not to redirect targets (a server that
 * redirects to add its id would otherwise redirect to the URL just requested).
 */
export function stripSessionIds(url: string): string {
  // Ids sit after ';' or in the query: most links have neither, and two scans cost less than the regex.
  if ((url.indexOf(";") < 0 && url.indexOf("?") < 0) || !SESSION_HINT.test(url)) return url;
  const queryAt = url.indexOf("?");
  let path = queryAt < 0 ? url : url.slice(0, queryAt);
  path = path.replace(/;jsessionid=[^/;?]*/gi, "");
  if (queryAt < 0) return path;
  const kept = url
    .slice(queryAt + 1)
    .split("&")
    .filter((pair) => {
      const eq = pair.indexOf("=");
      const key = (eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
      if (SESSION_KEYS.test(key)) return false;
      // `sid` only with a 32-hex value (phpBB; Heritrix's rule): `sid=42` may be a real parameter.
      return !(key === "sid" && HEX32.test(pair.slice(eq + 1)));
    });
  return kept.length === 0 ? path : `${path}?${kept.join("&")}`;
}

/**
 * The website boundary of a crawl, as plain JSON.
 * `port` is null for ordinary host names (any port is in the site) and the effective
 * port for IP addresses and `localhost`, where different ports are different services.
 */
export interface SiteKey {
  readonly host: string;
  readonly port: string | null;
}

function stripWww(hostname: string): string {
  let h = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  // Guard against `www.com`-like roots: stripping would leave a bare TLD and put the
  // whole TLD in the site.
  if (h.startsWith("www.") && h.indexOf(".", 4) > 0) h = h.slice(4);
  return h;
}

function isLocalHost(hostname: string): boolean {
  return (
    hostname.startsWith("[") ||
    /^\d+\.\d+\.\d+\.\d+$/.test(hostname) ||
    hostname === "localhost" ||
    hostname.endsWith(".localhost")
  );
}

function effectivePort(parts: UrlParts): string {
  return parts.port !== "" ? parts.port : parts.protocol === "https:" ? "443" : "80";
}

/** Boundary of the site rooted at `rootUrl`; throws `TypeError` if it is not an http(s) URL. */
export function siteKey(rootUrl: string): SiteKey {
  let parts: UrlParts | null = null;
  try {
    parts = urlParts(new URL(rootUrl.trim()));
  } catch {
    // reported below
  }
  if (!parts || (parts.protocol !== "http:" && parts.protocol !== "https:")) {
    throw new TypeError(`Root URL must be an absolute http(s) URL: ${rootUrl}`);
  }
  return isLocalHost(parts.hostname)
    ? { host: parts.hostname, port: effectivePort(parts) }
    : { host: stripWww(parts.hostname), port: null };
}

/**
 * Whether `url` belongs to the site: http(s), and its host with one leading `www.`
 * removed equals the root's or is a subdomain of it (`www.a.b.com` accepts `a.b.com`
 * and `x.a.b.com`, rejects `b.com`). For IP/localhost roots the port must match too,
 * otherwise a crawl of a local simulator on 127.0.0.1:PORT would wander into every
 * other local service.
 */
export function isInSite(url: string | URL, key: SiteKey): boolean {
  const parts = urlParts(url);
  if (!parts || (parts.protocol !== "http:" && parts.protocol !== "https:")) return false;
  if (key.port !== null && effectivePort(parts) !== key.port) return false;
  const host = key.port !== null ? parts.hostname : stripWww(parts.hostname);
  return host === key.host || (host.length > key.host.length && host.endsWith("." + key.host));
}

const utf8 = new TextDecoder("utf-8");

/** Python's `unquote`: decodes every valid %XX run as UTF-8 (U+FFFD for bad bytes). */
function percentDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      const bytes = new Uint8Array(run.length / 3);
      for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
      return utf8.decode(bytes);
    });
  }
}

/** Options of {@link isTrapUrl}; defaults from the kit. */
export interface TrapOptions {
  /** @default 350 */
  readonly extraLengthChars?: number;
  /** @default 3 */
  readonly repeatCount?: number;
}

/**
 * Robot-trap filters of the kit: a URL longer than the root URL + 350 characters, or in
 * which one path segment or query key/value occurs 3+ times after percent-decoding until
 * stable (`/a/b/a/b/a/`, `?p=x&q=x&r=x`, `%252F`-nested repeats). Segments and query
 * atoms are counted together, as in the kit; empty atoms (`//`, trailing `/`) are
 * skipped, where the kit counted them and so rejected `/a//b//c//`.
 */
export function isTrapUrl(url: string, rootUrl: string, options: TrapOptions = {}): boolean {
  const extra = options.extraLengthChars ?? 350;
  const repeat = options.repeatCount ?? 3;
  if (url.length > rootUrl.length + extra) return true;
  let decoded = url;
  // 10 rounds bound adversarial %25252525… nesting; real URLs settle in one or two.
  for (let i = 0; i < 10 && decoded.includes("%"); i++) {
    const next = percentDecode(decoded);
    if (next === decoded) break;
    decoded = next;
  }
  const hash = decoded.indexOf("#");
  if (hash >= 0) decoded = decoded.slice(0, hash);
  const schemeEnd = decoded.indexOf("://");
  const pathStart = decoded.indexOf("/", schemeEnd < 0 ? 0 : schemeEnd + 3);
  if (pathStart < 0) return false;
  const q = decoded.indexOf("?", pathStart);
  const path = q < 0 ? decoded.slice(pathStart) : decoded.slice(pathStart, q);
  const atoms = path.split("/");
  if (q >= 0) {
    for (const pair of decoded.slice(q + 1).split("&")) atoms.push(...pair.split("="));
  }
  if (atoms.length < repeat) return false;
  const counts = new Map<string, number>();
  for (const atom of atoms) {
    if (atom === "") continue;
    const c = (counts.get(atom) ?? 0) + 1;
    if (c >= repeat) return true;
    counts.set(atom, c);
  }
  return false;
}

const extensionSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** Lower-cased set of dotted extensions (`.jpg`), cached per array for repeated calls. */
function extensionSet(extensions: ReadonlySet<string> | readonly string[]): ReadonlySet<string> {
  if (!Array.isArray(extensions)) return extensions as ReadonlySet<string>;
  const list = extensions as readonly string[];
  let set = extensionSets.get(list);
  if (!set) {
    set = new Set(list.map((e) => (e.startsWith(".") ? e : "." + e).toLowerCase()));
    extensionSets.set(list, set);
  }
  return set;
}

/**
 * Whether the last path segment ends with a blocked extension, case-insensitively
 * (`/a/PHOTO.JPG`, not `/img.jpg/view` nor `/page?file=x.jpg`: the kit matched the
 * whole URL case-sensitively, a bug). `;params` of the segment are ignored. A Set
 * argument must already hold lower-case dotted extensions.
 */
export function hasBlockedExtension(url: string | URL, extensions: ReadonlySet<string> | readonly string[]): boolean {
  const parts = urlParts(url);
  if (!parts) return false;
  const path = parts.pathname;
  let segment = path.slice(path.lastIndexOf("/") + 1);
  const semi = segment.indexOf(";");
  if (semi >= 0) segment = segment.slice(0, semi);
  const dot = segment.lastIndexOf(".");
  if (dot < 0) return false;
  return extensionSet(extensions).has(segment.slice(dot).toLowerCase());
}

/** A compiled set of user URL patterns: true when any pattern matches the URL. */
export type UrlMatcher = (url: string) => boolean;

/**
 * A glob where `*` is any run of characters, matched against the whole string without
 * backtracking: the literal parts are found left to right, each at its first place after the
 * previous one (the leftmost match leaves the most room for the rest, so this is exact). As
 * a regular expression, `*a*a*a*…b` would take polynomial time of high degree on a long URL
 * full of "a" that a hostile site can send as a redirect.
 */
function globMatcher(pattern: string): UrlMatcher {
  const parts = pattern.split("*");
  if (parts.length === 1) return (url) => url === pattern;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  const middle = parts.slice(1, -1).filter((part) => part !== "");
  const fixed = first.length + last.length;
  return (url) => {
    if (url.length < fixed || !url.startsWith(first) || !url.endsWith(last)) return false;
    const end = url.length - last.length;
    let at = first.length;
    for (const part of middle) {
      const found = url.indexOf(part, at);
      if (found < 0 || found + part.length > end) return false;
      at = found + part.length;
    }
    return true;
  };
}

/**
 * Compiles user URL patterns. A pattern is either `re:` + a regular expression in JavaScript
 * syntax, searched anywhere in the URL and run by RE2 in time linear in the URL
 * (url-pattern-safety.ts), or a glob matched against the whole absolute URL where `*` is
 * any run of characters (`/` included) and every other character is literal (`?` too, because
 * URLs contain it). Matching is case-sensitive. Blank patterns are ignored. Throws
 * {@link UrlPatternError} naming the first pattern that RE2 cannot run (settings are checked
 * at the edge already: this is the last guard). Call it once per pattern list, not per URL: the crawl engine compiles
 * again only when a live edit replaces the list.
 */
export function compileUrlPatterns(patterns: readonly string[]): UrlMatcher {
  const matchers: UrlMatcher[] = [];
  let programSize = 0;
  for (const raw of patterns) {
    const pattern = raw.trim();
    if (pattern === "") continue;
    if (pattern.startsWith("re:")) {
      const regex = compileRegexPattern(pattern.slice(3));
      if (regex.problem !== undefined) throw new UrlPatternError(raw, { reason: regex.problem });
      programSize += regex.size;
      if (programSize > MAX_PROGRAM_SIZE) throw new UrlPatternError(raw, { reason: programsTooLarge(programSize) });
      matchers.push(regex.test);
    } else {
      matchers.push(globMatcher(pattern));
    }
  }
  if (matchers.length === 0) return () => false;
  return (url) => matchers.some((matches) => matches(url));
}

/** One-off convenience around {@link compileUrlPatterns}; compile once in hot paths. */
export function matchesUrlPattern(url: string, patterns: readonly string[]): boolean {
  return compileUrlPatterns(patterns)(url);
}
