/**
 * The crawl's cookie jar (lib/crawler/fetch/cookie-jar.ts) reading Set-Cookie lines: hostile
 * lines never throw and the jar stays within its bounds; generated cookies give the Cookie header
 * a reference written from RFC 6265 (§5.1.3 domain matching, §5.1.4 paths, §5.2 attributes,
 * §5.3 storage, §5.4 order) gives, under the jar's documented simplifications; the jar's state
 * survives a checkpoint (toState / fromState).
 */
import fc from "fast-check";
import { CookieJar, MAX_COOKIE_CHARS, MAX_COOKIES, type CookieJarState } from "../../lib/crawler/fetch/cookie-jar";
import { anyText, tokensOf } from "./arbitraries";
import { fuzzTarget } from "./fuzz-kit";
import type { FuzzTarget } from "./fuzz-target";

const NOW = Date.UTC(2026, 10, 28, 9, 0, 0);
const URLS = ["http://a.example/", "https://a.example/x/y", "http://www.a.example/x", "https://b.a.example/xy/z", "http://other.example/x/", "https://A.EXAMPLE/X/y"];

interface SetCookie {
  url: string;
  name: string;
  value: string;
  domain: string | null;
  path: string | null;
  secure: boolean;
  maxAge: string | null;
  expires: string | null;
}
const setCookie: fc.Arbitrary<SetCookie> = fc.record({
  url: fc.constantFrom(...URLS),
  name: fc.constantFrom("sid", "SID", "consent", "", "a b"),
  value: fc.constantFrom("1", "2", "x=y", "", '"q"'),
  domain: fc.option(fc.constantFrom("a.example", ".a.example", "A.Example", "b.a.example", "other.example", "example", ""), { nil: null }),
  path: fc.option(fc.constantFrom("/", "/x", "/x/", "/xy", "x", ""), { nil: null }),
  secure: fc.boolean(),
  maxAge: fc.option(fc.constantFrom("0", "-1", "3600", "1e3", " 60"), { nil: null }),
  expires: fc.option(fc.constantFrom(new Date(NOW - 86_400_000).toUTCString(), new Date(NOW + 86_400_000).toUTCString(), "not a date"), { nil: null }),
});

function writeSetCookie(c: SetCookie, spaced: boolean): string {
  const sep = spaced ? "; " : ";";
  const parts = [`${c.name}=${c.value}`];
  if (c.domain !== null) parts.push(`Domain=${c.domain}`);
  if (c.path !== null) parts.push(`path=${c.path}`);
  if (c.secure) parts.push("Secure");
  if (c.maxAge !== null) parts.push(`Max-Age=${c.maxAge}`);
  if (c.expires !== null) parts.push(`expires=${c.expires}`);
  parts.push("HttpOnly", "SameSite=Lax");
  return parts.join(sep);
}

interface Stored {
  name: string;
  value: string;
  domain: string;
  hostOnly: boolean;
  path: string;
  secure: boolean;
}

/** RFC 6265 with the jar's simplifications: no public-suffix list (a Domain needs a dot), no HttpOnly/SameSite, no expiry after storage. */
class ReferenceJar {
  readonly cookies = new Map<string, Stored>();

  store(url: string, c: SetCookie): void {
    const target = new URL(url);
    const host = target.hostname;
    let domain = host;
    let hostOnly = true;
    if (c.domain !== null && c.domain !== "") {
      const d = c.domain.replace(/^\./, "").toLowerCase();
      if (!d.includes(".") || !(host === d || host.endsWith(`.${d}`))) return;
      domain = d;
      hostOnly = false;
    }
    const last = target.pathname.lastIndexOf("/");
    const path = c.path !== null && c.path.startsWith("/") ? c.path : last <= 0 ? "/" : target.pathname.slice(0, last);
    let expired = false;
    // §5.2.2: Max-Age (a valid one) wins over Expires; in the jar a later Expires is ignored once Max-Age was read.
    const maxAge = c.maxAge !== null && /^-?\d+$/.test(c.maxAge.trim()) ? Number(c.maxAge.trim()) : null;
    if (maxAge !== null) expired = maxAge <= 0;
    else if (c.expires !== null && !Number.isNaN(Date.parse(c.expires))) expired = Date.parse(c.expires) <= NOW;
    const key = `${domain} ${path} ${c.name}`;
    if (expired) {
      this.cookies.delete(key);
      return;
    }
    if (!this.cookies.has(key) && this.cookies.size >= MAX_COOKIES) return;
    this.cookies.set(key, { name: c.name, value: c.value, domain, hostOnly, path, secure: c.secure });
  }

  header(url: string): string | undefined {
    const target = new URL(url);
    const host = target.hostname;
    const matching = [...this.cookies.values()].filter((c) => {
      if (c.secure && target.protocol !== "https:") return false;
      if (c.hostOnly ? host !== c.domain : !(host === c.domain || host.endsWith(`.${c.domain}`))) return false;
      const p = target.pathname;
      return p === c.path || (p.startsWith(c.path) && (c.path.endsWith("/") || p[c.path.length] === "/"));
    });
    if (matching.length === 0) return undefined;
    return matching
      .map((c, order) => ({ c, order }))
      .sort((a, b) => b.c.path.length - a.c.path.length || a.order - b.order)
      .map(({ c }) => (c.name === "" ? c.value : `${c.name}=${c.value}`))
      .join("; ");
  }
}

const reference = fuzzTarget({
  name: "cookie jar vs an RFC 6265 reference",
  ciRuns: 600,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(fc.array(fc.tuple(setCookie, fc.boolean()), { maxLength: 12 }), (cookies) => {
      const jar = new CookieJar();
      const model = new ReferenceJar();
      for (const [c, spaced] of cookies) {
        jar.store(c.url, writeSetCookie(c, spaced), NOW);
        model.store(c.url, c);
      }
      const restored = CookieJar.fromState(JSON.parse(JSON.stringify(jar.toState())) as CookieJarState);
      for (const url of URLS) {
        const expected = model.header(url);
        if (jar.header(url) !== expected) throw new Error(`${url}: ${jar.header(url)} ≠ ${expected}`);
        if (restored.header(url) !== expected) throw new Error(`${url} after a checkpoint: ${restored.header(url)} ≠ ${expected}`);
      }
    }),
});

const LINE_PIECES = ["a=b", "=", ";", " ", "Domain=", ".", "a.example", "Path=", "/", "Secure", "Max-Age=", "-0", "99999999999999999999", "Expires=", "Thu, 01 Jan 1970 00:00:00 GMT", "\n", "\r", "\u0000", "é"];

const hostile = fuzzTarget({
  name: "cookie jar on hostile Set-Cookie lines and states",
  ciRuns: 600,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(
      fc.array(fc.tuple(fc.constantFrom(...URLS, "not a url", "http://[::1]/", "http://127.0.0.1/"), fc.oneof(anyText(100), tokensOf(LINE_PIECES, 30))), { maxLength: 10 }),
      fc.anything(),
      (lines, state) => {
        const jar = new CookieJar();
        for (const [url, line] of lines) jar.store(url, line, NOW);
        if (jar.size > MAX_COOKIES) throw new Error(`${jar.size} cookies`);
        for (const [url] of lines) {
          const header = jar.header(url);
          // RFC 6265 5.2 ignores lines with control characters: none may reach a request header.
          if (header !== undefined && /[\x00-\x08\x0a-\x1f\x7f]/.test(header)) throw new Error(`control character in ${JSON.stringify(header)}`);
        }
        if (jar.toState().some(([name, value]) => name.length + value.length > MAX_COOKIE_CHARS)) throw new Error("a cookie over the size cap");
        try {
          CookieJar.fromState(state as CookieJarState);
        } catch (error) {
          if (!(error instanceof TypeError && error.message.startsWith("Invalid cookie jar state"))) throw error;
        }
      },
    ),
});

/** Up to 400 distinct cookies from one site, some over the size cap: the jar keeps the first MAX_COOKIES that fit. */
const bounds = fuzzTarget({
  name: "cookie jar bounds under a cookie flood",
  ciRuns: 20,
  memoryBoundMiB: 64,
  property: () =>
    fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 4200 }), (count, valueChars) => {
      const jar = new CookieJar();
      const value = "v".repeat(valueChars);
      const lines = Array.from({ length: count }, (_, i) => `c${i}=${value}`);
      jar.store("http://a.example/", lines.join("\n"), NOW);
      const kept = Math.min(MAX_COOKIES, lines.filter((line) => line.length <= MAX_COOKIE_CHARS).length);
      if (jar.size !== kept) throw new Error(`${count} cookies of ${valueChars} chars: ${jar.size} kept, not ${kept}`);
    }),
});

export const fuzzTargets: FuzzTarget[] = [reference, hostile, bounds];
