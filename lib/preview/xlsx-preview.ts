import { Readable } from "node:stream";
import ExcelJS from "exceljs";
import { cutCell, type PreviewLimits } from "./preview-limits";
import { PreviewError, type PreviewSheet, type TablePreview } from "./preview-types";
import { checkZipDirectory } from "./zip-checks";

const SHEET_ENTRY = /^xl\/worksheets\/[^/]+\.xml$/;

export interface XlsxReadOptions {
  /** Rows kept per sheet; the others are only counted when `countRows`. */
  keepRows: number;
  /** Read every row of every sheet to count them (a summary), instead of stopping after the shown ones. */
  countRows: boolean;
}

/** An XLSX read with exceljs' streaming reader after its ZIP directory passed the checks. */
export async function readXlsx(bytes: Buffer, limits: PreviewLimits, signal: AbortSignal, options: XlsxReadOptions): Promise<{ sheets: (PreviewSheet & { rowCount: number })[]; sheetCount: number }> {
  const names = await checkZipDirectory(bytes, limits);
  const sheetCount = names.filter((name) => SHEET_ENTRY.test(name)).length;
  if (!names.includes("xl/workbook.xml")) throw new PreviewError("a ZIP without xl/workbook.xml is not an XLSX");
  const input = Readable.from([bytes]);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, { worksheets: "emit", sharedStrings: "cache", hyperlinks: "ignore", styles: "ignore", entries: "ignore" });
  const sheets: (PreviewSheet & { rowCount: number })[] = [];
  const stop = (): void => void input.destroy();
  signal.addEventListener("abort", stop, { once: true });
  try {
    for await (const worksheet of reader) {
      if (signal.aborted) break;
      const named = worksheet as unknown as { name?: string; id?: number };
      const sheet = { name: named.name ?? `Sheet ${named.id ?? sheets.length + 1}`, rows: [] as string[][], moreRows: false, moreColumns: false, rowCount: 0 };
      sheets.push(sheet);
      for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
        if (signal.aborted) break;
        sheet.rowCount += 1;
        if (sheet.rows.length < options.keepRows) {
          const values = (row.values as ExcelJS.CellValue[]).slice(1);
          if (values.length > limits.maxColumns) sheet.moreColumns = true;
          sheet.rows.push(values.slice(0, limits.maxColumns).map((value) => cutCell(cellText(value), limits)));
        } else {
          sheet.moreRows = true;
          if (!options.countRows) break;
        }
      }
      if (!options.countRows && sheets.length >= limits.maxSheets) break;
    }
  } catch (error) {
    if (signal.aborted) throw new PreviewError(`the spreadsheet took over ${limits.timeMs} ms to read`);
    throw new PreviewError(`not a readable XLSX: ${(error as Error).message.slice(0, 200)}`);
  } finally {
    signal.removeEventListener("abort", stop);
    input.destroy();
  }
  if (signal.aborted) throw new PreviewError(`the spreadsheet took over ${limits.timeMs} ms to read`);
  return { sheets, sheetCount: Math.max(sheetCount, sheets.length) };
}

/** The first rows of the first sheets of an XLSX. */
export async function xlsxPreview(bytes: Buffer, limits: PreviewLimits, signal: AbortSignal): Promise<TablePreview> {
  const { sheets, sheetCount } = await readXlsx(bytes, limits, signal, { keepRows: limits.maxRows, countRows: false });
  return { kind: "table", format: "xlsx", sheetCount, sheets: sheets.map(({ rowCount: _rowCount, ...sheet }) => sheet) };
}

/** A cell's value as text: rich text joined, formulas by their result, dates in ISO form. */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "" : value.toISOString();
  if (typeof value !== "object") return String(value);
  if ("richText" in value) return value.richText.map((part) => part.text).join("");
  if ("result" in value) return cellText(value.result as ExcelJS.CellValue);
  if ("text" in value) return String(value.text);
  if ("error" in value) return String(value.error);
  return "";
}
