import { fileTypeFromBuffer } from "file-type";
import { describe, expect, it } from "vitest";
import { PREVIEW_LIMITS } from "../../lib/preview/preview-limits";
import { readXlsx } from "../../lib/preview/xlsx-preview";
import { fileBody } from "../../lib/sitesim/files";
import { FORMATS } from "../../lib/sitesim/formats";

// The simulator's spreadsheets are real workbooks: a user previewing one on the demo site sees
// its rows, and sniffing finds what the server declares.

describe("simulated XLSX files", () => {
  it("are workbooks of exactly the requested size whose one sheet holds a header and rows", async () => {
    for (const bytes of [FORMATS.xlsx.minBytes, 50_000, FORMATS.xlsx.maxBytes]) {
      for (const seed of [1, 777, 65_535]) {
        const body = fileBody({ format: "xlsx", bytes, seed });
        expect(body.length).toBe(bytes);
        expect((await fileTypeFromBuffer(body))?.mime).toBe(FORMATS.xlsx.contentType);
        const { sheets } = await readXlsx(body, PREVIEW_LIMITS, new AbortController().signal, { keepRows: 2, countRows: true });
        expect(sheets).toHaveLength(1);
        expect(sheets[0]!.rows[0]).toEqual(["id", "region", "year", "value", "unit"]);
        expect(sheets[0]!.rows[1]).toHaveLength(5);
        // Rows fill the size: about one row per 230 bytes.
        expect(sheets[0]!.rowCount).toBeGreaterThan(bytes / 400);
      }
    }
  });

  it("are the same bytes for the same file and differ between files", () => {
    const a = fileBody({ format: "xlsx", bytes: 20_000, seed: 5 });
    expect(fileBody({ format: "xlsx", bytes: 20_000, seed: 5 }).equals(a)).toBe(true);
    expect(fileBody({ format: "xlsx", bytes: 20_000, seed: 9_000 }).equals(a)).toBe(false);
  });
});
