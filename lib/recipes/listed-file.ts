import { mimeOfExtension } from "../crawler/fetch/effective-mime";

/**
 * A file an application lists about itself: its URL and what the listing says of it. The type
 * comes from the listing (no HEAD request) and is checked again when the file is downloaded.
 */
export interface ListedFile {
  url: string;
  /** From the declared MIME type, else from the declared format ("CSV", "XLSX", "application/pdf"). */
  mime?: string;
  format?: string;
  size?: number;
  modified?: string;
  title?: string;
  /** The record the file belongs to (a dataset, an item), when the application says. */
  record?: { title?: string; page?: string; modified?: string };
}

/** "CSV" → text/csv, ".xlsx" → the spreadsheet type, "application/pdf" as is; undefined when unknown ("Esri REST", "HTML page"). */
export function mimeOfFormat(format: string): string | undefined {
  const trimmed = format.trim().toLowerCase();
  if (/^[a-z]+\/[\w.+-]+$/.test(trimmed)) return trimmed;
  return /^\.?[a-z0-9]{1,10}$/.test(trimmed) ? mimeOfExtension(trimmed.replace(/^\./, "")) : undefined;
}
