/**
 * CDXJ index lines (`<surt> <timestamp> <json>`), one per response or revisit record, pointing
 * at the record's first byte (`offset`) and its gzip member's length (`length`) in `filename`.
 * `recordId` is Forage's addition (readers ignore unknown keys): the target manifest names it.
 */
import { cdxTimestamp, surtKey } from "./surt";

export interface CdxjEntry {
  url: string;
  /** `url` already parsed, when the caller has it (spares a parse). */
  parsedUrl?: URL;
  date: string;
  mime: string;
  status: number;
  digest: string;
  offset: number;
  length: number;
  filename: string;
  recordId: string;
  /** For revisits: "warc/revisit". */
  recordType: "response" | "revisit";
}

export function cdxjLine(entry: CdxjEntry): string {
  const fields = {
    url: entry.url,
    mime: entry.recordType === "revisit" ? "warc/revisit" : entry.mime || "unk",
    status: String(entry.status),
    digest: entry.digest,
    length: String(entry.length),
    offset: String(entry.offset),
    filename: entry.filename,
    recordId: entry.recordId,
  };
  return `${surtKey(entry.parsedUrl ?? entry.url)} ${cdxTimestamp(entry.date)} ${JSON.stringify(fields)}`;
}

/** Parses a line written by {@link cdxjLine} (or any CDXJ line); null when malformed. */
export function parseCdxjLine(line: string): { key: string; timestamp: string; fields: Record<string, string> } | null {
  const first = line.indexOf(" ");
  const second = line.indexOf(" ", first + 1);
  if (first < 0 || second < 0) return null;
  try {
    return { key: line.slice(0, first), timestamp: line.slice(first + 1, second), fields: JSON.parse(line.slice(second + 1)) as Record<string, string> };
  } catch {
    return null;
  }
}

/** Byte order (`LC_ALL=C sort`), the order CDXJ readers binary-search in. */
export function compareCdxjLines(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return Buffer.compare(x, y);
}
