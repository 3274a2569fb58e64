import { parse } from "csv-parse/sync";
import { cutCell, type PreviewLimits } from "./preview-limits";
import { PreviewError, type TablePreview } from "./preview-types";

/**
 * The first rows of a CSV or TSV from its first bytes (`head`, at most `maxCsvReadBytes`; `whole`:
 * whether that is the whole file). The delimiter is the one of `,` `;` tab `|` most frequent on
 * the first line; the last line of a cut head is dropped (it may be cut too).
 */
export function csvPreview(head: Buffer, whole: boolean, limits: PreviewLimits): TablePreview {
  let text = head.toString("utf8");
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (!whole) {
    const lastBreak = Math.max(text.lastIndexOf("\n"), text.lastIndexOf("\r"));
    if (lastBreak < 0) throw new PreviewError(`the first line is longer than ${limits.maxCsvReadBytes} bytes: no row to show`);
    text = text.slice(0, lastBreak + 1);
  }
  let records: string[][];
  try {
    records = parse(text, {
      delimiter: delimiterOf(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      to_line: limits.maxRows + 1,
      max_record_size: limits.maxCsvReadBytes,
    }) as string[][];
  } catch (error) {
    throw new PreviewError(`not a readable CSV: ${(error as Error).message.slice(0, 200)}`);
  }
  const shown = records.slice(0, limits.maxRows);
  return {
    kind: "table",
    format: "csv",
    sheetCount: 1,
    sheets: [
      {
        name: "",
        rows: shown.map((row) => row.slice(0, limits.maxColumns).map((cell) => cutCell(cell, limits))),
        moreRows: records.length > limits.maxRows || !whole,
        moreColumns: shown.some((row) => row.length > limits.maxColumns),
      },
    ],
  };
}

function delimiterOf(text: string): string {
  const firstLine = text.slice(0, Math.min(text.length, 64 * 1024)).split(/\r?\n/, 1)[0] ?? "";
  let best = ",";
  let bestCount = 0;
  for (const delimiter of [",", ";", "\t", "|"]) {
    const count = firstLine.split(delimiter).length - 1;
    if (count > bestCount) [best, bestCount] = [delimiter, count];
  }
  return best;
}
