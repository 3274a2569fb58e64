import { describe, expect, it } from "vitest";
import { hrefResolver } from "../../lib/crawler/href-resolver";
import { Prng } from "../../lib/crawler/prng";
import { normalizeUrl } from "../../lib/crawler/url-rules";

const BASES = [
  "http://h.example/docs/api/page.html",
  "https://h.example:8443/a/b/",
  "http://h.example/",
  "http://h.example/x?q=1",
  "http://u:p@h.example/dir/f",
  "http://H.EXAMPLE:80/%7Euser/it's(1).html",
  "https://h.example/caf%C3%A9/x;y/",
];

describe("hrefResolver", () => {
  it("resolves the common shapes of href by hand-computed results", () => {
    const resolve = hrefResolver(new URL("http://h.example/docs/api/page.html?v=2#top"));
    expect(resolve("other.html")).toBe("http://h.example/docs/api/other.html");
    expect(resolve("../guide/./intro.html#s1")).toBe("http://h.example/docs/guide/intro.html");
    expect(resolve("../../../../x")).toBe("http://h.example/x");
    expect(resolve("/downloads/data.csv?format=csv&y=2024")).toBe("http://h.example/downloads/data.csv?format=csv&y=2024");
    expect(resolve("#section")).toBe("http://h.example/docs/api/page.html?v=2");
    expect(resolve("  ?page=3  ")).toBe("http://h.example/docs/api/page.html?page=3");
    expect(resolve("..")).toBe("http://h.example/docs/");
    expect(resolve(".")).toBe("http://h.example/docs/api/");
    expect(resolve("a/%2e%2E/b")).toBe("http://h.example/docs/api/b"); // a percent-encoded dot segment
    expect(resolve("//cdn.example/x.js")).toBe("http://cdn.example/x.js");
    expect(resolve("mailto:someone@h.example")).toBeNull();
    expect(resolve("HTTPS://H.example:443/Y")).toBe("https://h.example/Y");
  });

  it("gives what new URL gives, without the fragment, on thousands of generated hrefs", () => {
    const rng = Prng.fromSeed(11);
    const pieces = [
      "a", "B", "x.html", "..", ".", "", "/", "//", "?", "#", "%20", "%2e", "%2E", "%", ";jsessionid=1", "q=1&r=2", "~u", "(1)",
      "é", " ", "\t", "\\", ":", "a:b", "'", "\"", "<", "`", "{", "^", "|", "@", "!$*+,=", "HTTP:", "http://x.example/",
    ];
    let checked = 0;
    for (const baseHref of BASES) {
      const base = new URL(baseHref);
      const resolve = hrefResolver(base);
      for (let n = 0; n < 3000; n++) {
        let href = "";
        for (let k = 1 + rng.nextInt(6); k > 0; k--) href += pieces[rng.nextInt(pieces.length)];
        expect(resolve(href), `${JSON.stringify(href)} against ${baseHref}`).toBe(normalizeUrl(href, base));
        checked++;
      }
    }
    expect(checked).toBe(BASES.length * 3000);
  });
});
