import { describe, expect, it } from "vitest";
import { charsetParameter, decodeHtml, decodeHtmlPage, textOfUtf8Bytes } from "../../lib/crawler/html-decoding";

/** "<a href="/données">Données</a>" in windows-1252: é is the single byte 0xE9. */
const latin1Link = Buffer.from('<a href="/donn\xe9es">Donn\xe9es</a>', "latin1");
const decodedLink = '<a href="/données">Données</a>';

describe("charsetParameter", () => {
  it("reads the charset of a Content-Type header, quoted or not, in any case", () => {
    expect(charsetParameter("text/html; charset=ISO-8859-1")).toBe("ISO-8859-1");
    expect(charsetParameter('text/html;CHARSET="windows-1252"')).toBe("windows-1252");
    expect(charsetParameter("text/html; charset=utf-8; boundary=x")).toBe("utf-8");
    expect(charsetParameter("text/html")).toBeUndefined();
    expect(charsetParameter(undefined)).toBeUndefined();
  });
});

describe("decodeHtml", () => {
  it("decodes as UTF-8 when nothing says otherwise", () => {
    expect(decodeHtml(Buffer.from(decodedLink, "utf8"), "text/html")).toBe(decodedLink);
    expect(decodeHtml(Buffer.from(decodedLink, "utf8"), undefined)).toBe(decodedLink);
  });

  it("follows the charset of the Content-Type header (latin1 and iso-8859-1 are windows-1252)", () => {
    expect(decodeHtml(latin1Link, "text/html; charset=iso-8859-1")).toBe(decodedLink);
    expect(decodeHtml(latin1Link, "text/html; charset=latin1")).toBe(decodedLink);
    // 0x80 is € in windows-1252, a control character in ISO-8859-1 proper: browsers read windows-1252.
    expect(decodeHtml(Buffer.from([0x80, 0x93, 0x94, 0x9f]), "text/html; charset=iso-8859-1")).toBe("€“”Ÿ");
  });

  it("reads <meta charset> and <meta http-equiv> in the first 1024 bytes when the header has no charset", () => {
    const withMeta = (meta: string) => Buffer.concat([Buffer.from(`<html><head>${meta}</head><body>`), latin1Link]);
    const prefix = (meta: string) => `<html><head>${meta}</head><body>`;
    expect(decodeHtml(withMeta('<meta charset="windows-1252">'), "text/html")).toBe(prefix('<meta charset="windows-1252">') + decodedLink);
    expect(decodeHtml(withMeta("<META CHARSET=iso-8859-15>"), "text/html")).toBe(prefix("<META CHARSET=iso-8859-15>") + decodedLink);
    const httpEquiv = '<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">';
    expect(decodeHtml(withMeta(httpEquiv), "text/html")).toBe(prefix(httpEquiv) + decodedLink);
    // Past the first 1024 bytes a <meta> is not looked at.
    const late = Buffer.concat([Buffer.from(" ".repeat(1024) + '<meta charset="windows-1252">'), latin1Link]);
    expect(decodeHtml(late, "text/html")).toContain("\ufffd");
  });

  it("lets the header win over a <meta>, and skips labels TextDecoder does not know", () => {
    const utf8WithLatinMeta = Buffer.from(`<meta charset="windows-1252">${decodedLink}`, "utf8");
    expect(decodeHtml(utf8WithLatinMeta, "text/html; charset=utf-8")).toBe(`<meta charset="windows-1252">${decodedLink}`);
    const bogusHeader = Buffer.concat([Buffer.from('<meta charset="windows-1252">'), latin1Link]);
    expect(decodeHtml(bogusHeader, "text/html; charset=no-such-encoding")).toBe(`<meta charset="windows-1252">${decodedLink}`);
    expect(decodeHtml(Buffer.concat([Buffer.from('<meta charset="x-bogus">'), Buffer.from(decodedLink)]), "text/html")).toBe(`<meta charset="x-bogus">${decodedLink}`);
  });

  it("reads a <meta> naming UTF-16 as UTF-8 (the markup was readable as ASCII, so it is not UTF-16)", () => {
    const body = Buffer.from(`<meta charset="utf-16">${decodedLink}`, "utf8");
    expect(decodeHtml(body, "text/html")).toBe(`<meta charset="utf-16">${decodedLink}`);
  });

  it("trusts a byte-order mark over everything else and drops it", () => {
    const utf16le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(decodedLink, "utf16le")]);
    expect(decodeHtml(utf16le, "text/html; charset=iso-8859-1")).toBe(decodedLink);
    const utf16be = Buffer.from(utf16le);
    utf16be.swap16();
    expect(decodeHtml(utf16be, "text/html")).toBe(decodedLink);
    const utf8Bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(decodedLink, "utf8")]);
    expect(decodeHtml(utf8Bom, "text/html; charset=iso-8859-1")).toBe(decodedLink);
  });

  it("decodes multi-byte legacy encodings TextDecoder knows (Shift_JIS)", () => {
    // 資料 ("materials") in Shift_JIS.
    const sjis = Buffer.concat([Buffer.from('<a href="/'), Buffer.from([0x8e, 0x91, 0x97, 0xbf]), Buffer.from('.csv">x</a>')]);
    expect(decodeHtml(sjis, "text/html; charset=Shift_JIS")).toBe('<a href="/資料.csv">x</a>');
  });
});

describe("decodeHtmlPage", () => {
  it("names the encoding it read the page with (WHATWG names: labels and aliases resolved)", () => {
    expect(decodeHtmlPage(latin1Link, "text/html; charset=latin1")).toEqual({ text: decodedLink, encoding: "windows-1252", utf8Bytes: false });
    expect(decodeHtmlPage(Buffer.from(decodedLink), "text/html").encoding).toBe("utf-8");
    expect(decodeHtmlPage(Buffer.from('<meta charset="Shift-JIS">'), undefined).encoding).toBe("shift_jis");
    expect(decodeHtmlPage(Buffer.from([0xff, 0xfe, 0x41, 0x00]), "text/html; charset=windows-1252")).toEqual({ text: "A", encoding: "utf-16le", utf8Bytes: false });
  });

  it("keeps a UTF-8 page as its bytes, one char each, and says so when some are not ASCII", () => {
    const body = Buffer.from(decodedLink, "utf8");
    expect(decodeHtmlPage(body, "text/html")).toEqual({ text: '<a href="/donn\xc3\xa9es">Donn\xc3\xa9es</a>', encoding: "utf-8", utf8Bytes: true });
    expect(decodeHtmlPage(Buffer.from("<a href=/x>x</a>"), "text/html")).toEqual({ text: "<a href=/x>x</a>", encoding: "utf-8", utf8Bytes: false });
    // A UTF-8 byte-order mark goes through TextDecoder, which drops it.
    expect(decodeHtmlPage(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]), undefined)).toEqual({ text: decodedLink, encoding: "utf-8", utf8Bytes: false });
  });
});

describe("textOfUtf8Bytes", () => {
  it("reads a value cut from a UTF-8 byte string as Buffer#toString('utf8') reads the same bytes, invalid ones included", () => {
    const samples = ["données", "資料 2024", "a\u00a0b", "à la", "😀.csv", "plain ascii", ""];
    for (const sample of samples) expect(textOfUtf8Bytes(Buffer.from(sample, "utf8").toString("latin1"))).toBe(sample);
    const invalid = Buffer.from([0x61, 0xc3, 0x28, 0xe2, 0x82, 0x62, 0xff]);
    expect(textOfUtf8Bytes(invalid.toString("latin1"))).toBe(invalid.toString("utf8"));
  });
});
