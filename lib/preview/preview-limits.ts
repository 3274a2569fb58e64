/** Bounds of one preview: bytes read from the storage, time, and what is shown. */
export interface PreviewLimits {
  /** Bytes read of a CSV (its first ones). */
  maxCsvReadBytes: number;
  /** Largest JSON, PDF or XLSX previewed (these are read whole). */
  maxWholeFileBytes: number;
  /** Time for one preview, reading included. */
  timeMs: number;
  maxRows: number;
  maxColumns: number;
  maxCellChars: number;
  /** XLSX: ZIP entries, total inflated bytes the ZIP directory claims, and inflated ÷ compressed per entry. */
  maxZipEntries: number;
  maxInflatedBytes: number;
  maxInflateRatio: number;
  /** Sheets of a spreadsheet shown. */
  maxSheets: number;
  /** PDF: pages whose text is read, and lines shown. */
  maxPdfPages: number;
  maxLines: number;
  /** JSON: keys or items listed. */
  maxJsonEntries: number;
}

export const PREVIEW_LIMITS: PreviewLimits = {
  maxCsvReadBytes: 1024 * 1024,
  maxWholeFileBytes: 8 * 1024 * 1024,
  timeMs: 2_000,
  maxRows: 20,
  maxColumns: 30,
  maxCellChars: 200,
  maxZipEntries: 2_000,
  maxInflatedBytes: 64 * 1024 * 1024,
  maxInflateRatio: 200,
  maxSheets: 3,
  maxPdfPages: 2,
  maxLines: 20,
  maxJsonEntries: 50,
};

/** A cell's text within the limit (an ellipsis where it was cut). */
export function cutCell(value: string, limits: PreviewLimits): string {
  return value.length > limits.maxCellChars ? `${value.slice(0, limits.maxCellChars - 1)}…` : value;
}
