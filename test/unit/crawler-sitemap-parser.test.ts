import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MAX_SITEMAP_BYTES, MAX_SITEMAP_URLS, parseSitemap, sitemapText } from "../../lib/crawler/sitemap-parser";

const urlset = (entries: string) => `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries}</urlset>`;

describe("parseSitemap", () => {
  it("reads a urlset, newest lastmod first, entries without one last in document order", () => {
    const parsed = parseSitemap(
      urlset(
        `<url><loc>http://s.test/a</loc></url><url><loc>http://s.test/b</loc><lastmod>2021-03-01</lastmod></url>` +
          `<url><loc>http://s.test/c</loc><lastmod>2024-01-01T10:00:00+00:00</lastmod></url><url><loc>http://s.test/d</loc></url><url><loc>ftp://s.test/e</loc></url>`,
      ),
    );
    expect(parsed.kind).toBe("urlset");
    expect(parsed.entries.map((e) => e.url)).toEqual(["http://s.test/c", "http://s.test/b", "http://s.test/a", "http://s.test/d"]);
    expect(parsed.entries[0]!.lastmod).toBe("2024-01-01T10:00:00+00:00");
  });

  it("reads a sitemap index, with namespace prefixes", () => {
    const parsed = parseSitemap(`<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>http://s.test/s1.xml.gz</sm:loc></sm:sitemap></sm:sitemapindex>`);
    expect(parsed).toEqual({ kind: "index", entries: [{ url: "http://s.test/s1.xml.gz", lastmod: null }], truncated: false });
  });

  it("reads a text sitemap, one URL a line", () => {
    expect(parseSitemap("http://s.test/a\r\nnot a url\nhttps://s.test/b\n").entries.map((e) => e.url)).toEqual(["http://s.test/a", "https://s.test/b"]);
  });

  it("refuses a document with a DOCTYPE (entity expansion) and reads nothing from broken XML", () => {
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><urlset><url><loc>http://s.test/&lol2;</loc></url></urlset>`;
    expect(parseSitemap(bomb)).toEqual({ kind: "invalid", entries: [], truncated: false });
    expect(parseSitemap("<html><body>not a sitemap</body></html>").kind).toBe("invalid");
  });

  it("cuts a file at 50 000 URLs", () => {
    const parsed = parseSitemap(urlset(Array.from({ length: MAX_SITEMAP_URLS + 5 }, (_, i) => `<url><loc>http://s.test/${i}</loc></url>`).join("")));
    expect(parsed.entries).toHaveLength(MAX_SITEMAP_URLS);
    expect(parsed.truncated).toBe(true);
  });
});

describe("sitemapText", () => {
  it("gunzips by magic bytes and leaves plain XML as it is", async () => {
    const xml = urlset("<url><loc>http://s.test/a</loc></url>");
    expect(await sitemapText(gzipSync(xml))).toEqual({ text: xml, truncated: false });
    expect(await sitemapText(Buffer.from(xml))).toEqual({ text: xml, truncated: false });
  });

  it("stops a gzip bomb at the 50 MB cap instead of inflating it", async () => {
    const bomb = gzipSync(Buffer.alloc(MAX_SITEMAP_BYTES + 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(100_000);
    expect(await sitemapText(bomb)).toEqual({ text: "", truncated: true });
  });

  it("decodes numeric character references in any spelling, but not inside CDATA nor a decoded &amp; (found by the fuzz target)", () => {
    const xml = `<urlset><url><loc>http://s.test/caf&#233;?a=1&#x26;b=2&#X3e;</loc></url><url><loc>http://s.test/x?q=&amp;#38;</loc></url><url><loc><![CDATA[http://s.test/y?&#38;]]></loc></url><url><loc>http://s.test/z&#x3e;&#0;</loc></url></urlset>`;
    expect(parseSitemap(xml).entries.map((e) => e.url)).toEqual(["http://s.test/café?a=1&b=2&#X3e;", "http://s.test/x?q=&#38;", "http://s.test/y?&#38;", "http://s.test/z>&#0;"]);
  });

  it("reads a file of unterminated CDATA openings with character references in linear time", () => {
    const hostile = `<urlset>&#38;${"<![CDATA[".repeat(200_000)}`;
    const started = performance.now();
    expect(parseSitemap(hostile).entries).toEqual([]);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it("reads a corrupt or cut gzip as null without keeping memory (gunzipSync leaked ~18 KB per failure; found by the fuzz target)", async () => {
    const corrupt = Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await sitemapText(corrupt)).toBeNull();
    expect(await sitemapText(gzipSync(Buffer.from("http://s.test/a")).subarray(0, 12))).toBeNull();
  });
});
