import { normalizeUrl } from "./url-rules";

/**
 * Resolves the hrefs of one page against its base URL: exactly {@link normalizeUrl}`(href, base)`,
 * with a string-only path for the hrefs most pages are made of (`/a/b.html`, `../api/x.html`,
 * `page?x=1`, `#top`). A page lists a hundred links or more, and `new URL` (a parse and an
 * object per link) is the largest single cost of link extraction after tokenizing.
 *
 * The string path only takes hrefs whose every character the WHATWG serialiser keeps as it is,
 * in the path and in the query of an http(s) URL, and with no scheme, no authority (`//host`)
 * and no percent-encoded dot (`%2e`, which is a dot segment); everything else goes through
 * `new URL`. Dot segments are removed as the URL standard does (`..` never climbs above the root;
 * a final `.` or `..` leaves a trailing slash). A unit test compares it with `new URL` on
 * thousands of generated hrefs.
 */
export function hrefResolver(base: URL): (href: string) => string | null {
  const self = normalizeUrl("", base);
  const plain = (base.protocol === "http:" || base.protocol === "https:") && base.username === "" && base.password === "";
  if (self === null || !plain) return (href) => normalizeUrl(href, base);
  const origin = `${base.protocol}//${base.host}`;
  const basePath = base.pathname;
  const baseDirectory = basePath.slice(0, basePath.lastIndexOf("/") + 1);

  return (href) => {
    const trimmed = href.trim();
    const hashAt = trimmed.indexOf("#");
    const body = hashAt < 0 ? trimmed : trimmed.slice(0, hashAt);
    if (body === "") return self;
    if (!SIMPLE_HREF.test(body) || body.startsWith("//") || (body.includes("%") && DOT_ESCAPE.test(body))) return normalizeUrl(href, base);
    const queryAt = body.indexOf("?");
    const path = queryAt < 0 ? body : body.slice(0, queryAt);
    const query = queryAt < 0 ? "" : body.slice(queryAt);
    if (path === "") return origin + basePath + query;
    return origin + withoutDotSegments(path.startsWith("/") ? path : baseDirectory + path) + query;
  };
}

/**
 * Path characters the serialiser never escapes (letters, digits, `-._~!$&'()*+,;=@%/`), then an
 * optional query that may also hold `:`, `/` and `?`. No `:` in the path: `name:rest` would be a
 * scheme. No `'` in the query: special URLs escape it there.
 */
const SIMPLE_HREF = /^[A-Za-z0-9\-._~!$&'()*+,;=@%/]*(?:\?[A-Za-z0-9\-._~!$&()*+,;=@%/:?]*)?$/;
const DOT_ESCAPE = /%2e/i;

/** `/a/b/../c/./d` → `/a/c/d`; `path` starts with `/`. */
function withoutDotSegments(path: string): string {
  if (!path.includes("/.")) return path;
  const segments = path.split("/");
  const out: string[] = [];
  const last = segments.length - 1;
  for (let i = 1; i <= last; i++) {
    const segment = segments[i]!;
    if (segment === "..") {
      out.pop();
      if (i === last) out.push("");
    } else if (segment === ".") {
      if (i === last) out.push("");
    } else {
      out.push(segment);
    }
  }
  return "/" + out.join("/");
}
