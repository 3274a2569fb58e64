/**
 * CSV per RFC 4180: comma separator, CRLF line ends, a cell quoted when it contains a quote,
 * comma, CR or LF, quotes doubled inside. UTF-8 without a byte-order mark (a BOM helps old
 * Excel but breaks `csv` readers that do not expect it; every modern spreadsheet detects UTF-8).
 *
 * Formula injection (OWASP "CSV Injection"): a text cell starting with = + - @, tab or CR is
 * executed as a formula by spreadsheets, and crawled URLs, tag paths and error messages come
 * from the crawled site. Such text cells are prefixed with a single quote, which spreadsheets
 * display but do not evaluate. Numbers are never changed (a negative number stays a number);
 * the manifest's own columns (url, file, sha256…) never start with these characters, so in
 * practice only hostile values are touched.
 */
export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record, CRLF-terminated. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(",")}\r\n`;
}
