import { describe, expect, it } from "vitest";
import { previewFile, previewFormatOf, PREVIEW_LIMITS, PreviewError, type PreviewSource } from "../../lib/preview";
import { minimalPdf, xlsxFile, zipBombXlsx } from "../helpers/preview-files";

/** A file in memory as the preview reads stored ones: its size, then its first bytes. */
function source(bytes: Buffer): PreviewSource & { largestRead: number } {
  const read = { largestRead: 0 };
  return Object.assign(read, {
    size: bytes.length,
    readHead: async (length: number) => {
      read.largestRead = Math.max(read.largestRead, length);
      return bytes.subarray(0, length);
    },
  });
}

describe("previews of real files", () => {
  it("a CSV: its first rows, cut to the row and column limits", async () => {
    const csv = ["region;value;note", ...Array.from({ length: 50 }, (_, i) => `r${i};${i};"a; b"`)].join("\n");
    const preview = await previewFile(source(Buffer.from(csv)), "csv");
    expect(preview).toMatchObject({ kind: "table", format: "csv", sheetCount: 1 });
    const sheet = preview.kind === "table" ? preview.sheets[0]! : null;
    expect(sheet!.rows.length).toBe(PREVIEW_LIMITS.maxRows);
    expect(sheet!.rows[0]).toEqual(["region", "value", "note"]);
    expect(sheet!.rows[1]).toEqual(["r0", "0", "a; b"]);
    expect(sheet!.moreRows).toBe(true);
  });

  it("an XLSX written by exceljs: its sheets and first rows", async () => {
    const bytes = await xlsxFile({ Population: [["region", "people"], ["north", 1200], ["south", 3400]], Notes: [["source", "census"]] });
    const preview = await previewFile(source(bytes), previewFormatOf("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", null, "http://x/a.xlsx"));
    expect(preview).toMatchObject({ kind: "table", format: "xlsx", sheetCount: 2 });
    if (preview.kind !== "table") throw new Error("not a table");
    expect(preview.sheets.map((sheet) => sheet.name)).toEqual(["Population", "Notes"]);
    expect(preview.sheets[0]!.rows).toEqual([["region", "people"], ["north", "1200"], ["south", "3400"]]);
  });

  it("a PDF written by hand: its page count and first lines", async () => {
    const preview = await previewFile(source(minimalPdf(["Annual report 2024\nPopulation by region", "Second page"])), "pdf");
    expect(preview).toMatchObject({ kind: "pdf", pages: 2 });
    if (preview.kind !== "pdf") throw new Error("not a pdf");
    expect(preview.lines.slice(0, 3)).toEqual(["Annual report 2024", "Population by region", "Second page"]);
  });

  it("a JSON document: its top-level structure", async () => {
    const preview = await previewFile(source(Buffer.from(JSON.stringify({ title: "Budget", rows: [{ a: 1 }, { a: 2 }], meta: { year: 2024, unit: "EUR" } }))), "json");
    expect(preview).toEqual({
      kind: "json",
      type: "object",
      size: 3,
      entries: [
        { key: "title", type: "string", summary: '"Budget"' },
        { key: "rows", type: "array", summary: "2 items (object)" },
        { key: "meta", type: "object", summary: "2 keys: year, unit" },
      ],
    });
  });
});

describe("hostile and unpreviewable files: a PreviewError, never a hang or a crash", () => {
  it("a truncated XLSX", async () => {
    const bytes = await xlsxFile({ Data: [["a", "b"], [1, 2]] });
    await expect(previewFile(source(bytes.subarray(0, Math.floor(bytes.length / 2))), "xlsx")).rejects.toThrow(/not a readable XLSX/);
  });

  it("a zip bomb shaped like an XLSX is refused from its ZIP directory, before inflating", async () => {
    const bomb = zipBombXlsx(32 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(100_000);
    const started = performance.now();
    await expect(previewFile(source(bomb), "xlsx")).rejects.toThrow(/inflates .*× its compressed size.*zip bomb/);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("a CSV whose first line is longer than what a preview reads", async () => {
    const huge = source(Buffer.alloc(PREVIEW_LIMITS.maxCsvReadBytes * 3, "x"));
    await expect(previewFile(huge, "csv")).rejects.toThrow(/first line is longer than/);
    expect(huge.largestRead).toBe(PREVIEW_LIMITS.maxCsvReadBytes);
  });

  it("a long line within the limit is shown cut to the cell limit", async () => {
    const preview = await previewFile(source(Buffer.from(`${"y".repeat(100_000)},z\n1,2\n`)), "csv");
    if (preview.kind !== "table") throw new Error("not a table");
    expect(preview.sheets[0]!.rows[0]![0]!.length).toBe(PREVIEW_LIMITS.maxCellChars);
  });

  it("files over the whole-file limit, broken JSON, a PDF that is not one, an unknown type", async () => {
    await expect(previewFile({ size: PREVIEW_LIMITS.maxWholeFileBytes + 1, readHead: async () => Buffer.alloc(0) }, "json")).rejects.toThrow(/only files up to/);
    await expect(previewFile(source(Buffer.from('{"a": [1, 2')), "json")).rejects.toThrow(/not valid JSON/);
    await expect(previewFile(source(Buffer.from("%PDF-1.4 nothing else")), "pdf")).rejects.toThrow(PreviewError);
    await expect(previewFile(source(Buffer.from("x")), previewFormatOf("application/zip", null, "http://x/a.zip"))).rejects.toThrow(/no preview for this type/);
  });

  it("a preview past its time limit ends with a PreviewError", async () => {
    const slow: PreviewSource = { size: 10, readHead: () => new Promise(() => undefined) };
    await expect(previewFile(slow, "json", { ...PREVIEW_LIMITS, timeMs: 50 })).rejects.toThrow(/took over 50 ms/);
  });
});
