import { describe, expect, it } from "vitest";
import { extractLinks } from "../../lib/crawler/links";
import { encodeQueryFor } from "../../lib/crawler/query-encoding";

describe("encodeQueryFor", () => {
  it("percent-encodes a windows-1252 page's query in windows-1252, the path and the fragment untouched", () => {
    expect(encodeQueryFor("/données/recherche?thème=Économie&x=€#résumé", "windows-1252")).toBe("/données/recherche?th%E8me=%C9conomie&x=%80#résumé");
    // Existing escapes and ASCII stay as they are.
    expect(encodeQueryFor("/r?q=%C3%A9t%C3%A9&a=b c", "windows-1252")).toBe("/r?q=%C3%A9t%C3%A9&a=b c");
    // What windows-1252 cannot represent is sent as &#…; (what browsers send).
    expect(encodeQueryFor("/r?q=統", "windows-1252")).toBe("/r?q=%26%2332113%3B");
  });

  it("uses the double-byte tables of Shift_JIS, EUC-KR and GBK", () => {
    // 統計 is 0x93 0x9D 0x8C 0x76 in Shift_JIS (0x76 is "v"); 통계 is 0xC5 0xEB 0xB0 0xE8 in EUC-KR; 统计 is 0xCD 0xB3 0xBC 0xC6 in GBK.
    expect(encodeQueryFor("?q=統計", "shift_jis")).toBe("?q=%93%9D%8Cv");
    expect(encodeQueryFor("?q=통계", "euc-kr")).toBe("?q=%C5%EB%B0%E8");
    expect(encodeQueryFor("?q=统计", "gbk")).toBe("?q=%CD%B3%BC%C6");
    // Half-width katakana are single bytes in Shift_JIS.
    expect(encodeQueryFor("?k=ｱ", "shift_jis")).toBe("?k=%B1");
  });

  it("leaves UTF-8 and UTF-16 pages' links, and links without a non-ASCII query, as they are", () => {
    for (const encoding of ["utf-8", "utf-16le", "utf-16be"]) expect(encodeQueryFor("/é?q=é", encoding)).toBe("/é?q=é");
    expect(encodeQueryFor("/é/ü?q=1#é", "windows-1252")).toBe("/é/ü?q=1#é");
  });

  it("is what extractLinks applies to the links of a page in that encoding", () => {
    const html = `<a href="/données.csv?année=2024">x</a><a href="tableau?région=Île-de-France">y</a>`;
    expect(extractLinks(html, "http://h.example/fr/", { encoding: "windows-1252" }).map((l) => l.url)).toEqual([
      "http://h.example/donn%C3%A9es.csv?ann%E9e=2024",
      "http://h.example/fr/tableau?r%E9gion=%CEle-de-France",
    ]);
    expect(extractLinks(html, "http://h.example/fr/").map((l) => l.url)).toEqual([
      "http://h.example/donn%C3%A9es.csv?ann%C3%A9e=2024",
      "http://h.example/fr/tableau?r%C3%A9gion=%C3%8Ele-de-France",
    ]);
  });
});
