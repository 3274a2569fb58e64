import { PassThrough, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { judgeContent, SNIFF_BYTES, sniffMime, typesAgree } from "../../lib/crawler/fetch/content-sniffing";
import { HeadTap } from "../../lib/crawler/fetch/head-tap";
import { minimalPdf } from "../helpers/preview-files";

const SIGN_IN = `<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><form action="/login"><input name="user"></form></body></html>`;

async function xlsxBytes(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet("Data").addRows([["region", "value"], ["north", 1], ["south", 2]]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

describe("sniffMime: what the first bytes show", () => {
  it.each([
    ["an HTML page", SIGN_IN, "text/html"],
    ["HTML after a comment and an XML declaration", `<?xml version="1.0"?>\n<!-- generated -->\n<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>`, "text/html"],
    ["an HTML fragment without doctype", "\n\n  <div class=\"error\">Not found</div>", "text/html"],
    ["a CSV", "region,value\nnorth,1\nsouth,2\n", "text/csv"],
    ["a CSV with quoted delimiters", 'name,comment\n"Smith, J.",ok\n"Doe, A.","fine, really"\n', "text/csv"],
    ["a semicolon CSV", "jahr;wert\n2024;1\n2025;2\n", "text/csv"],
    ["a TSV", "a\tb\n1\t2\n", "text/tab-separated-values"],
    ["JSON object", '  {"rows": [1, 2]}', "application/json"],
    ["JSON array", "[{\"a\":1}]", "application/json"],
    ["XML", "<?xml version=\"1.0\"?><catalog><item/></catalog>", "application/xml"],
    ["XML without declaration", "<rdf:RDF xmlns:rdf=\"x\"></rdf:RDF>", "application/xml"],
    ["one line of text", "just some words", "text/plain"],
  ])("%s", async (_name, body, expected) => {
    expect(await sniffMime(Buffer.from(body))).toBe(expected);
  });

  it("a PDF, an XLSX, a gzip by their magic numbers", async () => {
    expect(await sniffMime(minimalPdf(["hello"]))).toBe("application/pdf");
    expect(await sniffMime((await xlsxBytes()).subarray(0, SNIFF_BYTES))).toBe("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet");
    const { gzipSync } = await import("node:zlib");
    expect(await sniffMime(gzipSync("a,b\n1,2\n"))).toBe("application/gzip");
  });

  it("nothing for an empty body or unknown binary bytes", async () => {
    expect(await sniffMime(Buffer.alloc(0))).toBeNull();
    expect(await sniffMime(Buffer.from([0, 1, 2, 3, 0, 0, 7, 9, 250, 251]))).toBeNull();
  });

  it("a CSV whose head cuts its last line is still a CSV", async () => {
    const csv = Buffer.from("a,b,c\n" + "1,22,333\n".repeat(2000));
    expect(await sniffMime(csv.subarray(0, SNIFF_BYTES))).toBe("text/csv");
  });

  it("a head cut inside a ZIP's first entry says zip, or the container it names, never throws", async () => {
    const xlsx = await xlsxBytes();
    for (const cut of [4, 30, 100, 600]) {
      const found = await sniffMime(xlsx.subarray(0, cut));
      expect(found === null || found.startsWith("application/")).toBe(true);
    }
  });
});

describe("judgeContent: the verdict on a target", () => {
  it("an HTML sign-in page served for a .csv URL is rejected, with the reason", async () => {
    const verdict = await judgeContent(Buffer.from(SIGN_IN), "text/csv", "http://x.test/data.csv?x=1");
    expect(verdict.detectedMime).toBe("text/html");
    expect(verdict.typeMatch).toBe(false);
    expect(verdict.rejection).toMatch(/HTML page .* for a \.csv URL counted as text\/csv/);
  });

  it("an HTML body is kept when HTML is the target type", async () => {
    expect((await judgeContent(Buffer.from(SIGN_IN), "text/html", "http://x.test/a.html")).rejection).toBeNull();
  });

  it("a CSV served as application/octet-stream is one, matching", async () => {
    const verdict = await judgeContent(Buffer.from("a,b\n1,2\n"), "application/octet-stream", "http://x.test/download?id=3");
    expect(verdict).toEqual({ detectedMime: "text/csv", typeMatch: true, rejection: null });
  });

  it("a CSV labelled as an Excel file is kept, marked as a mismatch", async () => {
    expect(await judgeContent(Buffer.from("a,b\n1,2\n"), "application/vnd.ms-excel", "http://x.test/t.xls")).toEqual({ detectedMime: "text/csv", typeMatch: false, rejection: null });
  });

  it("an unknown binary says nothing", async () => {
    expect(await judgeContent(Buffer.from([0, 0, 1, 2]), "application/vnd.apache.parquet", "http://x.test/t.parquet")).toEqual({ detectedMime: null, typeMatch: null, rejection: null });
  });
});

describe("typesAgree", () => {
  it.each([
    ["text/csv", "text/plain", true], // a one-column CSV
    ["text/csv", "text/tab-separated-values", false],
    ["application/json", "application/json", true],
    ["application/geo+json", "application/json", true],
    ["application/json", "text/csv", false],
    ["application/rdf+xml", "application/xml", true],
    ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "application/zip", true],
    ["application/vnd.ms-excel", "application/x-cfb", true],
    ["application/pdf", "application/zip", false],
    ["text/plain", "application/json", true],
    ["application/x-gzip", "application/gzip", true],
    ["application/pdf", "text/html", false],
  ])("%s holding %s: %s", (expected, detected, agree) => {
    expect(typesAgree(expected, detected)).toBe(agree);
  });
});

describe("HeadTap: the first bytes of a streamed body, passed through whole", () => {
  it("keeps only the head and forwards every byte, with back-pressure", async () => {
    const received: Buffer[] = [];
    const inner = new Writable({
      highWaterMark: 16,
      write(chunk: Buffer, _encoding, done) {
        received.push(chunk);
        setImmediate(done);
      },
    });
    const tap = new HeadTap(inner, 10);
    const source = new PassThrough();
    const chunks = ["abc", "defghij", "klmnop", "q".repeat(1000)];
    const done = pipeline(source, tap);
    for (const chunk of chunks) source.write(chunk);
    source.end();
    await done;
    expect(tap.head().toString()).toBe("abcdefghij");
    expect(Buffer.concat(received).toString()).toBe(chunks.join(""));
    expect(inner.writableFinished).toBe(true);
  });

  it("an inner failure fails the tap", async () => {
    const inner = new Writable({ write: (_chunk, _encoding, done) => done(new Error("disk full")) });
    const tap = new HeadTap(inner, 10);
    await expect(pipeline(async function* () { yield Buffer.from("x"); }, tap)).rejects.toThrow(/disk full/);
  });
});
