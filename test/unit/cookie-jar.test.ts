import { describe, expect, it } from "vitest";
import { CookieJar, MAX_COOKIES } from "../../lib/crawler/fetch/cookie-jar";

const NOW = Date.parse("2026-11-22T00:00:00Z");

function jarWith(url: string, ...lines: string[]): CookieJar {
  const jar = new CookieJar();
  jar.store(url, lines.join("\n"), NOW);
  return jar;
}

describe("CookieJar", () => {
  it("sends a host-only cookie back to its host only, on the paths under its default path", () => {
    const jar = jarWith("https://stats.example.org/portal/login.do", "JSESSIONID=abc123; HttpOnly; SameSite=Lax");
    expect(jar.header("https://stats.example.org/portal/tables")).toBe("JSESSIONID=abc123");
    expect(jar.header("https://stats.example.org/portal")).toBe("JSESSIONID=abc123");
    expect(jar.header("https://stats.example.org/portalx")).toBeUndefined();
    expect(jar.header("https://stats.example.org/other")).toBeUndefined();
    expect(jar.header("https://www.stats.example.org/portal/tables")).toBeUndefined();
  });

  it("honours Domain (subdomains too) and rejects a Domain of another site or a bare TLD", () => {
    const jar = jarWith("https://www.example.org/", "consent=yes; Domain=.example.org; Path=/", "evil=1; Domain=other.org", "tld=1; Domain=org");
    expect(jar.header("https://data.example.org/x.csv")).toBe("consent=yes");
    expect(jar.header("https://example.org/")).toBe("consent=yes");
    expect(jar.header("https://notexample.org/")).toBeUndefined();
    expect(jar.size).toBe(1);
  });

  it("sends Secure cookies over https only, longer paths first, and replaces a cookie of the same name, domain and path", () => {
    const jar = jarWith("https://a.org/", "s=1; Secure; Path=/", "deep=2; Path=/data/tables", "s=3; Secure; Path=/");
    expect(jar.header("https://a.org/data/tables/t1")).toBe("deep=2; s=3");
    expect(jar.header("http://a.org/data/tables/t1")).toBe("deep=2");
  });

  it("deletes a cookie on Max-Age ≤ 0 or a past Expires (Max-Age wins over Expires)", () => {
    const jar = jarWith("https://a.org/", "a=1; Path=/", "b=2; Path=/", "c=3; Path=/");
    jar.store("https://a.org/", ["a=; Max-Age=0; Path=/", "b=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/", "c=4; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=600; Path=/"].join("\n"), NOW);
    expect(jar.header("https://a.org/")).toBe("c=4");
    jar.store("https://a.org/", "d=5; Expires=Wed, 01 Jan 2031 00:00:00 GMT; Path=/", NOW);
    expect(jar.header("https://a.org/")).toBe("c=4; d=5");
  });

  it("ignores lines without '=', oversized cookies, and stops adding past MAX_COOKIES", () => {
    const jar = jarWith("https://a.org/", "novalue", `big=${"x".repeat(5000)}`);
    expect(jar.size).toBe(0);
    jar.store("https://a.org/", Array.from({ length: MAX_COOKIES + 10 }, (_, i) => `c${i}=1; Path=/`).join("\n"), NOW);
    expect(jar.size).toBe(MAX_COOKIES);
    expect(jar.header("https://a.org/")!.split("; ")).toHaveLength(MAX_COOKIES);
  });

  it("survives a checkpoint: toState → JSON → fromState sends the same headers, and a malformed state is refused", () => {
    const jar = jarWith("https://www.example.org/data/x", "consent=yes; Domain=example.org; Path=/", "s=1; Secure; Path=/", "deep=2", "host=3; Path=/");
    const restored = CookieJar.fromState(JSON.parse(JSON.stringify(jar.toState())));
    for (const url of ["https://www.example.org/data/y", "http://www.example.org/", "https://data.example.org/", "https://example.org/data/z"]) {
      expect(restored.header(url)).toBe(jar.header(url));
    }
    expect(restored.header("https://www.example.org/data/y")).toBe("deep=2; consent=yes; s=1; host=3");
    expect(restored.size).toBe(4);
    expect(() => CookieJar.fromState([["a", "1", "a.org", "yes", "/", false]] as never)).toThrow(/Invalid cookie jar state/);
    expect(() => CookieJar.fromState({} as never)).toThrow(/Invalid cookie jar state/);
  });

  it("ignores a Set-Cookie line holding a control character, so no CR or NUL reaches a Cookie header (RFC 6265 5.2; found by the fuzz target)", () => {
    const jar = new CookieJar();
    jar.store("http://a.example/", "a=b\ra=b\nc=d\u0000e\nok=1 \t", 0);
    expect(jar.header("http://a.example/")).toBe("ok=1");
  });
});
