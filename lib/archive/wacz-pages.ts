/**
 * `pages/pages.jsonl` of a WACZ: the crawl's HTML pages (200 GET responses, not revisits) with
 * their titles, read from the WARC records the CDXJ index points at (each record is one gzip
 * member: read at its offset, inflated, its content coding undone).
 */
import zlib from "node:zlib";
import { parseCdxjLine } from "./cdxj";

export const PAGES_HEADER = { format: "json-pages-1.0", id: "pages", title: "All Pages" } as const;
/** Enough of a page to find its `<title>`. */
const TITLE_SCAN_BYTES = 64 * 1024;

export interface PageLine {
  url: string;
  ts: string;
  title?: string;
}

/**
 * One page line per HTML page of the index, in index order. `readMember` reads a record's gzip
 * member from the WARC file it names (null for a file the export does not hold).
 */
export async function pagesFromIndex(
  cdxjLines: readonly string[],
  readMember: (warcName: string, offset: number, length: number) => Promise<Buffer | null>,
): Promise<PageLine[]> {
  const pages: PageLine[] = [];
  for (const line of cdxjLines) {
    const parsed = parseCdxjLine(line);
    const f = parsed?.fields;
    if (!f || f.status !== "200" || (f.mime !== "text/html" && f.mime !== "application/xhtml+xml")) continue;
    const member = await readMember(f.filename ?? "", Number(f.offset), Number(f.length));
    if (!member) continue;
    const title = titleOf(member);
    pages.push({ url: f.url!, ts: timestampToIso(parsed.timestamp), ...(title ? { title } : {}) });
  }
  return pages;
}

function titleOf(member: Buffer): string | null {
  try {
    const record = zlib.gunzipSync(member);
    const warcEnd = record.indexOf("\r\n\r\n");
    const httpEnd = record.indexOf("\r\n\r\n", warcEnd + 4);
    if (warcEnd < 0 || httpEnd < 0) return null;
    const httpHead = record.subarray(warcEnd + 4, httpEnd).toString("latin1");
    let body: Buffer = record.subarray(httpEnd + 4, record.length - 4);
    const coding = /^content-encoding:\s*(.+)$/im.exec(httpHead)?.[1]?.trim().toLowerCase();
    if (coding === "gzip" || coding === "x-gzip") body = zlib.gunzipSync(body, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    else if (coding === "deflate") body = zlib.inflateSync(body, { finishFlush: zlib.constants.Z_SYNC_FLUSH });
    else if (coding === "br") body = zlib.brotliDecompressSync(body);
    const text = body.subarray(0, TITLE_SCAN_BYTES).toString("utf8");
    const match = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text);
    return match ? decodeEntities(match[1]!).replace(/\s+/g, " ").trim() || null : null;
  } catch {
    return null;
  }
}

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, " ")
    .replace(/&amp;/g, "&");
}

/** 20260127101500 → 2026-01-27T10:15:00Z */
function timestampToIso(ts: string): string {
  return `${ts.slice(0, 4)}-${ts.slice(4, 6)}-${ts.slice(6, 8)}T${ts.slice(8, 10)}:${ts.slice(10, 12)}:${ts.slice(12, 14)}Z`;
}
