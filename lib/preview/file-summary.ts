import { parse } from "csv-parse/sync";
import type { PreviewFormat, PreviewSource } from "./preview-file";
import type { PreviewLimits } from "./preview-limits";
import { readXlsx } from "./xlsx-preview";

/** What a version of a file is, in the terms a change is told in. */
export interface FileSummary {
  bytes: number;
  /** Records of a CSV (header included), or rows per sheet of an XLSX; null when not counted (too large, another format). */
  rows: number | null;
  /** Sheet names of a spreadsheet; null for other formats. */
  sheets: { name: string; rows: number }[] | null;
  /** Top-level keys or items of a JSON document; null for other formats. */
  jsonSize: number | null;
}

/** A stored version summarised within the limits (only files up to `maxWholeFileBytes` are counted). */
export async function summariseFile(source: PreviewSource, format: PreviewFormat | null, limits: PreviewLimits, signal: AbortSignal): Promise<FileSummary> {
  const summary: FileSummary = { bytes: source.size, rows: null, sheets: null, jsonSize: null };
  if (format === null || format === "pdf" || source.size > limits.maxWholeFileBytes) return summary;
  const bytes = await source.readHead(source.size);
  try {
    if (format === "csv") {
      summary.rows = (parse(bytes, { relax_column_count: true, relax_quotes: true, skip_empty_lines: true, bom: true }) as unknown[]).length;
    } else if (format === "json") {
      const value = JSON.parse(bytes.toString("utf8").replace(/^\uFEFF/, "")) as unknown;
      summary.jsonSize = Array.isArray(value) ? value.length : value !== null && typeof value === "object" ? Object.keys(value).length : null;
    } else {
      const { sheets } = await readXlsx(bytes, limits, signal, { keepRows: 0, countRows: true });
      summary.sheets = sheets.map((sheet) => ({ name: sheet.name, rows: sheet.rowCount }));
      summary.rows = sheets.reduce((sum, sheet) => sum + sheet.rowCount, 0);
    }
  } catch {
    // An unreadable version is told by its size alone.
  }
  return summary;
}
