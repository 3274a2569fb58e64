import { describe, expect, it } from "vitest";
import { DEFAULT_BLOCKED_EXTENSIONS } from "../../lib/crawler/defaults";
import {
  compileUrlPatterns, hasBlockedExtension, isInSite, isTrapUrl, matchesUrlPattern, normalizeUrl, siteKey, stripSessionIds, UrlPatternError,
} from "../../lib/crawler/url-rules";

describe("normalizeUrl", () => {
  it("resolves, trims, drops the fragment, lower-cases scheme and host and default ports", () => {
    expect(normalizeUrl("  ../b/c.csv#top \n", "https://Example.ORG/a/x/index.html")).toBe("https://example.org/a/b/c.csv");
    expect(normalizeUrl("HTTP://WWW.Example.com:80/Path?Q=1#f", "https://x.org/")).toBe("http://www.example.com/Path?Q=1");
    expect(normalizeUrl("https://example.com:443/", "https://x.org/")).toBe("https://example.com/");
    expect(normalizeUrl("https://example.com:8443/", "https://x.org/")).toBe("https://example.com:8443/");
    expect(normalizeUrl("page#", "http://a.org/dir/")).toBe("http://a.org/dir/page");
    expect(normalizeUrl("", "http://a.org/dir/p?x=1#frag")).toBe("http://a.org/dir/p?x=1");
    expect(normalizeUrl("?page=2", "http://a.org/list?page=1")).toBe("http://a.org/list?page=2");
  });

  it("returns null for non-http(s) and unparsable links", () => {
    for (const href of ["mailto:a@b.org", "javascript:void(0)", "tel:+331234", "data:text/plain,hi", "ftp://a.org/f", "http://[bad"]) {
      expect(normalizeUrl(href, "http://a.org/")).toBeNull();
    }
  });
});

describe("stripSessionIds", () => {
  const hex = "0123456789abcdef0123456789ABCDEF";
  it("removes Java, PHP, ASP and ColdFusion session ids from path and query, keeping the other parameters in order", () => {
    expect(stripSessionIds("http://a.org/stats/table.do;jsessionid=A1B2C3D4E5.node1?id=7&lang=en")).toBe("http://a.org/stats/table.do?id=7&lang=en");
    expect(stripSessionIds("http://a.org/p;JSESSIONID=xyz")).toBe("http://a.org/p");
    expect(stripSessionIds(`http://a.org/index.php?PHPSESSID=${hex}&page=2`)).toBe("http://a.org/index.php?page=2");
    expect(stripSessionIds("http://a.org/list.asp?ASPSESSIONIDQQGGGNCG=LKJHGFDSA&x=1")).toBe("http://a.org/list.asp?x=1");
    expect(stripSessionIds("http://a.org/a.cfm?CFID=123&CFTOKEN=456")).toBe("http://a.org/a.cfm");
    expect(stripSessionIds(`http://a.org/forum/viewtopic.php?t=5&sid=${hex}`)).toBe("http://a.org/forum/viewtopic.php?t=5");
  });

  it("keeps what only looks like a session: a short sid, other keys (a 32-hex s= may be a download token), URLs without any", () => {
    for (const url of [
      "http://a.org/search?s=census",
      `http://a.org/download.php?f=12&s=${hex}`,
      "http://a.org/x?sid=42",
      "http://a.org/x?basid=1&consid=2",
      `http://a.org/x?session=${hex}`,
      "http://a.org/data/2024.csv",
    ]) {
      expect(stripSessionIds(url)).toBe(url);
    }
  });
});

describe("website boundary", () => {
  const root = siteKey("https://www.a.b.com/start");

  it("accepts the root host with or without www, its subdomains, http and https, any port", () => {
    for (const url of ["https://www.a.b.com/x", "http://a.b.com/", "https://x.a.b.com/y", "https://www.x.a.b.com/", "https://a.b.com:8443/"]) {
      expect(isInSite(url, root), url).toBe(true);
    }
    expect(isInSite(new URL("HTTP://A.B.COM/x"), root)).toBe(true);
    expect(isInSite("HTTP://X.A.B.COM/x", root)).toBe(true);
  });

  it("rejects parents, look-alikes and other schemes", () => {
    for (const url of ["https://b.com/", "https://ab.com/", "https://xa.b.com/", "https://a.b.com.evil.org/", "ftp://a.b.com/", "not a url"]) {
      expect(isInSite(url, root), url).toBe(false);
    }
  });

  it("strips one leading www. on both sides only", () => {
    expect(siteKey("http://a.b.com/")).toEqual({ host: "a.b.com", port: null });
    expect(isInSite("http://www.a.b.com/", siteKey("http://a.b.com/"))).toBe(true);
    expect(isInSite("http://www.www.a.b.com/", siteKey("http://a.b.com/"))).toBe(true); // subdomain www.a.b.com
    // A bare-TLD remainder is not stripped: www.com must not admit every .com site.
    expect(siteKey("http://www.com/")).toEqual({ host: "www.com", port: null });
    expect(isInSite("http://example.com/", siteKey("http://www.com/"))).toBe(false);
  });

  it("requires the root's port for IP and localhost roots", () => {
    const local = siteKey("http://127.0.0.1:8080/");
    expect(local).toEqual({ host: "127.0.0.1", port: "8080" });
    expect(isInSite("http://127.0.0.1:8080/a", local)).toBe(true);
    expect(isInSite("http://127.0.0.1:8081/a", local)).toBe(false);
    expect(isInSite("http://127.0.0.1/a", local)).toBe(false);
    const host = siteKey("http://localhost/");
    expect(isInSite("http://localhost:80/x", host)).toBe(true);
    expect(isInSite("https://localhost/x", host)).toBe(false); // 443 ≠ 80
    expect(isInSite("http://[::1]:8080/", siteKey("http://[::1]:8080/"))).toBe(true);
    expect(() => siteKey("mailto:x@y.org")).toThrow(TypeError);
  });
});

describe("isTrapUrl", () => {
  const rootUrl = "https://example.org/";

  it("rejects URLs longer than the root plus 350 characters", () => {
    const base = "https://example.org/";
    const ok = base + "x".repeat(350 + rootUrl.length - base.length);
    expect(isTrapUrl(ok, rootUrl)).toBe(false);
    expect(isTrapUrl(ok + "y", rootUrl)).toBe(true);
    expect(isTrapUrl(ok + "y", rootUrl, { extraLengthChars: 400 })).toBe(false);
  });

  it("rejects a path segment or query key/value occurring 3 times", () => {
    expect(isTrapUrl("https://example.org/a/b/a/b/a", rootUrl)).toBe(true);
    expect(isTrapUrl("https://example.org/a/b/a/b", rootUrl)).toBe(false);
    expect(isTrapUrl("https://example.org/p?x=1&y=1&z=1", rootUrl)).toBe(true);
    expect(isTrapUrl("https://example.org/data/x?file=data&q=data", rootUrl)).toBe(true); // segments and query atoms together
    expect(isTrapUrl("https://example.org/a/b?c=1&c=2", rootUrl)).toBe(false);
    expect(isTrapUrl("https://example.org/a/b?c=1&c=2&c=3", rootUrl)).toBe(true);
    expect(isTrapUrl("https://example.org/a/b/a/b/a", rootUrl, { repeatCount: 4 })).toBe(false);
  });

  it("counts repeats after percent-decoding until stable", () => {
    expect(isTrapUrl("https://example.org/%2561/%61/a", rootUrl)).toBe(true); // %2561 → %61 → a
    expect(isTrapUrl("https://example.org/x%252Fx%252Fx", rootUrl)).toBe(true); // %252F → %2F → '/': x/x/x
    expect(isTrapUrl("https://example.org/%E9t%E9/%C3%A9t%C3%A9/%ZZ", rootUrl)).toBe(false); // malformed escapes do not throw
  });

  it("ignores empty segments", () => {
    expect(isTrapUrl("https://example.org/a//b//c//", rootUrl)).toBe(false);
  });
});

describe("hasBlockedExtension", () => {
  it("matches the last path segment case-insensitively, not the query nor earlier segments", () => {
    expect(hasBlockedExtension("https://a.org/img/PHOTO.JPG", DEFAULT_BLOCKED_EXTENSIONS)).toBe(true);
    expect(hasBlockedExtension("https://a.org/img/photo.jpg?w=200", DEFAULT_BLOCKED_EXTENSIONS)).toBe(true);
    expect(hasBlockedExtension("https://a.org/a/b.jpg;jsessionid=1", DEFAULT_BLOCKED_EXTENSIONS)).toBe(true);
    expect(hasBlockedExtension("https://a.org/img.jpg/view", DEFAULT_BLOCKED_EXTENSIONS)).toBe(false);
    expect(hasBlockedExtension("https://a.org/page?file=x.jpg", DEFAULT_BLOCKED_EXTENSIONS)).toBe(false);
    expect(hasBlockedExtension("https://a.org/data.csv", DEFAULT_BLOCKED_EXTENSIONS)).toBe(false);
    expect(hasBlockedExtension("https://a.org/", DEFAULT_BLOCKED_EXTENSIONS)).toBe(false);
    expect(hasBlockedExtension("https://a.org/x.tar.gz", ["GZ"])).toBe(true);
    expect(hasBlockedExtension(new URL("https://a.org/v.MP4"), new Set([".mp4"]))).toBe(true);
  });
});

describe("URL patterns", () => {
  it("matches globs against the whole URL, * spanning slashes, ? literal", () => {
    const m = compileUrlPatterns(["*/private/*", "https://a.org/search?q=*", "  ", ""]);
    expect(m("https://a.org/x/private/y")).toBe(true);
    expect(m("https://a.org/search?q=csv")).toBe(true);
    expect(m("https://a.org/searchXq=csv")).toBe(false);
    expect(m("https://a.org/public/")).toBe(false);
    expect(compileUrlPatterns(["*.pdf"])("https://a.org/a.pdf?x=1")).toBe(false);
  });

  it("searches re: patterns anywhere", () => {
    const m = compileUrlPatterns(["re:/(en|fr)/archive/\\d{4}/"]);
    expect(m("https://a.org/fr/archive/2019/x")).toBe(true);
    expect(m("https://a.org/de/archive/2019/x")).toBe(false);
    expect(matchesUrlPattern("https://a.org/x", [])).toBe(false);
  });

  it("throws a UrlPatternError naming the bad pattern", () => {
    try {
      compileUrlPatterns(["*/ok/*", "re:([unclosed"]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UrlPatternError);
      expect((error as UrlPatternError).pattern).toBe("re:([unclosed");
      expect((error as Error).message).toContain("re:([unclosed");
    }
    expect(() => compileUrlPatterns(["re:"])).toThrow(UrlPatternError);
  });
});
