import { describe, expect, it } from "vitest";
import { contentDisposition } from "@/lib/export/content-disposition";
import { csvCell, csvLine } from "@/lib/export/csv";
import { MAX_NAME_CHARS, targetFileName, UniqueNames } from "@/lib/export/file-names";

// The pure pieces of the downloads: file names inside the ZIP, CSV cells, Content-Disposition.
// (The routes that use them are covered end to end in api-downloads.test.ts.)
describe("export naming and encoding helpers", () => {
  it.each([
    ["https://a.org/data/report.csv", "text/csv", "report.csv"],
    ["https://a.org/report.2023", "text/csv", "report.2023.csv"],
    ["https://a.org/get.aspx?id=1", "application/pdf", "get.pdf"],
    ["https://a.org/", "application/zip", "a.org.zip"],
    ["https://a.org/x/..%2F..%2Fetc%2Fpasswd", "text/plain", "_.._etc_passwd.txt"],
    ["https://a.org/%2E%2E", "text/csv", "a.org.csv"],
    ["https://a.org/CON.csv", "text/csv", "_CON.csv"],
    ["https://a.org/-rf.csv", "text/csv", "rf.csv"],
    ["https://a.org/a%00b%1Fc%E2%80%AEd.csv", "text/csv", "abcd.csv"],
    ["https://a.org/%ZZ.csv", "text/csv", "%ZZ.csv"],
    ["https://a.org/file", "application/x-unknown", "file"],
  ])("names %s (%s) %j", (url, mime, expected) => {
    expect(targetFileName(url, mime)).toBe(expected);
  });

  it("caps names at 120 characters, keeping the extension", () => {
    const name = targetFileName(`https://a.org/${"x".repeat(500)}.xlsx`, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    expect(name.length).toBe(MAX_NAME_CHARS);
    expect(name.endsWith(".xlsx")).toBe(true);
    expect(Buffer.byteLength(targetFileName(`https://a.org/${"数".repeat(200)}.csv`, "text/csv"))).toBeLessThanOrEqual(240);
  });

  it("suffixes collisions -2, -3… case-insensitively, within the length cap", () => {
    const names = new UniqueNames();
    expect(["a.csv", "A.csv", "a.csv", "a-2.csv", "b"].map((name) => names.claim(name))).toEqual(["a.csv", "A-2.csv", "a-3.csv", "a-2-2.csv", "b"]);
    const long = `${"y".repeat(116)}.csv`;
    expect(names.claim(long)).toBe(long);
    const second = names.claim(long);
    expect(second.length).toBeLessThanOrEqual(MAX_NAME_CHARS);
    expect(second.endsWith("-2.csv")).toBe(true);
  });

  it("builds Content-Disposition with an ASCII fallback and RFC 5987 filename*", () => {
    expect(contentDisposition('Données "2024" (v1)\\final.csv')).toBe(
      `attachment; filename="Donnees _2024_ (v1)_final.csv"; filename*=UTF-8''Donn%C3%A9es%20%222024%22%20%28v1%29%5Cfinal.csv`,
    );
    expect(contentDisposition("数据.csv")).toBe(`attachment; filename="__.csv"; filename*=UTF-8''%E6%95%B0%E6%8D%AE.csv`);
    expect(contentDisposition("a\r\nb.txt")).toBe(`attachment; filename="ab.txt"; filename*=UTF-8''ab.txt`);
  });

  it("escapes CSV cells per RFC 4180 and neutralises formulas in text only", () => {
    expect(csvLine(["a,b", 'say "hi"', "x\ny", null, 42, -3, true, "=1+1", "+1", "-x", "@sum", "plain"])).toBe(
      `"a,b","say ""hi""","x\ny",,42,-3,true,'=1+1,'+1,'-x,'@sum,plain\r\n`,
    );
    expect(csvCell("=a,b")).toBe(`"'=a,b"`);
  });
});
