/**
 * A run killed mid-write (kill -9, power loss) leaves its last WARC file ending inside a gzip
 * member, and maybe index lines for records after its last complete one. Before a crawl writes
 * again (a resumed run opens new files), each earlier file is cut after its last whole member
 * and its sidecar keeps only lines for records inside it, so exports and readers never meet a
 * torn record. Only the tail after the last indexed record is scanned.
 */
import fs from "node:fs";
import zlib from "node:zlib";
import { parseCdxjLine } from "./cdxj";
import { listWarcFiles } from "./warc-index";
import { CDXJ_SIDECAR_SUFFIX } from "./warc-paths";

/** End of the last whole gzip member at or after `from` (members walked one by one). */
export function lastWholeMemberEnd(bytes: Buffer, from: number): number {
  let end = from;
  while (end < bytes.length) {
    const length = gzipMemberLength(bytes, end);
    if (length === null) break;
    end += length;
  }
  return end;
}

function gzipMemberLength(bytes: Buffer, offset: number): number | null {
  if (bytes.length - offset < 18 || bytes[offset] !== 0x1f || bytes[offset + 1] !== 0x8b) return null;
  const flags = bytes[offset + 3]!;
  let p = offset + 10;
  if (flags & 0x04) p += 2 + bytes.readUInt16LE(p);
  if (flags & 0x08) p = bytes.indexOf(0, p) + 1;
  if (flags & 0x10) p = bytes.indexOf(0, p) + 1;
  if (flags & 0x02) p += 2;
  if (p <= offset || p >= bytes.length) return null;
  try {
    // Throws on a member cut short ("unexpected end of file").
    const inflated = zlib.inflateRawSync(bytes.subarray(p), { info: true }) as unknown as { engine: { bytesWritten: number } };
    const end = p + inflated.engine.bytesWritten + 8;
    return end <= bytes.length ? end - offset : null;
  } catch {
    return null;
  }
}

/** Cuts every WARC file in `dir` after its last whole record; returns the bytes removed. */
export async function repairWarcFiles(dir: string): Promise<number> {
  let removed = 0;
  for (const file of await listWarcFiles(dir)) {
    const sidecar = file.path + CDXJ_SIDECAR_SUFFIX;
    const lines = fs.existsSync(sidecar) ? fs.readFileSync(sidecar, "utf8").split("\n").filter(Boolean) : [];
    const starts = lines.map((line) => Number(parseCdxjLine(line)?.fields.offset ?? 0)).filter((n) => n < file.bytes);
    const from = starts.length > 0 ? Math.max(...starts) : 0;
    let end: number;
    const handle = await fs.promises.open(file.path, "r+");
    try {
      const tail = Buffer.alloc(file.bytes - from);
      await handle.read(tail, 0, tail.length, from);
      end = from + lastWholeMemberEnd(tail, 0);
      if (end === file.bytes) continue;
      await handle.truncate(end);
    } finally {
      await handle.close();
    }
    removed += file.bytes - end;
    const kept = lines.filter((line) => {
      const fields = parseCdxjLine(line)?.fields;
      return fields !== undefined && Number(fields.offset) + Number(fields.length) <= end;
    });
    fs.writeFileSync(sidecar, kept.map((line) => `${line}\n`).join(""));
  }
  return removed;
}
