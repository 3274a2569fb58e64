/** What the cockpit shows of a stored file: the answer of `GET /api/crawls/:id/targets/:targetId/preview`. */
export type FilePreview = TablePreview | PdfPreview | JsonPreview;

/** The first rows of a CSV/TSV or of each of a spreadsheet's first sheets. */
export interface TablePreview {
  kind: "table";
  format: "csv" | "xlsx";
  sheets: PreviewSheet[];
  /** Sheets the file holds (an XLSX may hold more than are shown). */
  sheetCount: number;
}

export interface PreviewSheet {
  /** The sheet's name; "" for a CSV. */
  name: string;
  /** At most `maxRows` rows of at most `maxColumns` cells, each cut to `maxCellChars`. */
  rows: string[][];
  /** True when the sheet (or the part of it read) has more rows than shown. */
  moreRows: boolean;
  /** True when a row had more columns than shown. */
  moreColumns: boolean;
}

export interface PdfPreview {
  kind: "pdf";
  pages: number;
  /** The first lines of text of the first pages (none for a scanned PDF). */
  lines: string[];
  title: string | null;
}

/** A JSON document's top-level structure. */
export interface JsonPreview {
  kind: "json";
  /** The top-level value's type. */
  type: JsonType;
  /** Array length or number of keys; null for a scalar. */
  size: number | null;
  /** For an object, its first keys; for an array, its first items (key = index). */
  entries: { key: string; type: JsonType; summary: string }[];
}

export type JsonType = "object" | "array" | "string" | "number" | "boolean" | "null";

/** A file that cannot be previewed: the API answers 422 with this message. */
export class PreviewError extends Error {
  override name = "PreviewError";
}
