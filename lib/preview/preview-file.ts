import { csvPreview } from "./csv-preview";
import { jsonPreview } from "./json-preview";
import { pdfPreview } from "./pdf-preview";
import { PREVIEW_LIMITS, type PreviewLimits } from "./preview-limits";
import { PreviewError, type FilePreview } from "./preview-types";
import { xlsxPreview } from "./xlsx-preview";

/** A stored file as the preview reads it: its size and its first bytes (never more than asked). */
export interface PreviewSource {
  size: number;
  /** The first `length` bytes (fewer when the file is shorter). */
  readHead(length: number): Promise<Buffer>;
}

export type PreviewFormat = "csv" | "xlsx" | "pdf" | "json";

const XLSX_MIMES = new Set(["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "application/vnd.ms-excel.sheet.macroenabled.12"]);
const CSV_MIMES = new Set(["text/csv", "application/csv", "text/comma-separated-values", "text/x-csv", "text/tab-separated-values"]);

/**
 * The format to preview a file as: what its bytes showed first (`detectedMime`), else its type,
 * else its URL's extension. Null when none is previewable.
 */
export function previewFormatOf(mime: string, detectedMime: string | null, url: string): PreviewFormat | null {
  for (const type of [detectedMime, mime]) {
    if (!type) continue;
    if (CSV_MIMES.has(type)) return "csv";
    if (XLSX_MIMES.has(type)) return "xlsx";
    if (type === "application/pdf") return "pdf";
    if (type === "application/json" || type === "text/json" || type.endsWith("+json")) return "json";
  }
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  const byExtension: Record<string, PreviewFormat> = { csv: "csv", tsv: "csv", xlsx: "xlsx", xlsm: "xlsx", pdf: "pdf", json: "json", geojson: "json" };
  return (extension && byExtension[extension]) || null;
}

/**
 * A preview of a stored file, within the limits: at most `maxCsvReadBytes` of a CSV, a JSON, PDF
 * or XLSX only up to `maxWholeFileBytes`, everything within `timeMs`.
 * @throws PreviewError (the API's 422) naming why the file cannot be previewed
 */
export async function previewFile(source: PreviewSource, format: PreviewFormat | null, limits: PreviewLimits = PREVIEW_LIMITS): Promise<FilePreview> {
  if (format === null) throw new PreviewError("no preview for this type of file (CSV, XLSX, PDF and JSON files have one)");
  return withinTime(limits, async (signal) => {
    if (format === "csv") {
      const head = await source.readHead(limits.maxCsvReadBytes);
      return csvPreview(head, source.size <= limits.maxCsvReadBytes, limits);
    }
    if (source.size > limits.maxWholeFileBytes) {
      throw new PreviewError(`${format.toUpperCase()} of ${source.size} bytes: only files up to ${limits.maxWholeFileBytes} bytes are previewed`);
    }
    const bytes = await source.readHead(source.size);
    if (format === "json") return jsonPreview(bytes, limits);
    if (format === "pdf") return pdfPreview(bytes, limits, signal);
    return xlsxPreview(bytes, limits, signal);
  });
}

/** Runs `work` with a signal aborted at `timeMs`; past it, a PreviewError whatever `work` still does. */
export async function withinTime<T>(limits: PreviewLimits, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new PreviewError(`the preview took over ${limits.timeMs} ms`));
    }, limits.timeMs);
  });
  const running = work(controller.signal);
  running.catch(() => undefined); // settled after the timeout: nobody waits for it any more
  try {
    return await Promise.race([running, timeout]);
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}
