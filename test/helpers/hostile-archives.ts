/**
 * Web archives built to attack `forage import`: each is small on disk and, read without bounds,
 * crashes the process, grows it by gigabytes or hangs it.
 */
import fs from "node:fs";
import zlib from "node:zlib";
import { WARCRecord, WARCSerializer } from "warcio";
import { buildZip, endOfDirectory } from "./zip-builder";

const MIB = 1024 * 1024;

/** One response record: an HTML page linking nothing, or another type. */
export async function responseRecord(url: string, { gzip, type = "text/html" }: { gzip: boolean; type?: string }): Promise<Buffer> {
  const body = type === "text/html" ? "<html><body>archived</body></html>" : "a,b\n1,2\n";
  const record = WARCRecord.create({ url, type: "response", warcVersion: "WARC/1.1", httpHeaders: [["Content-Type", type]], statusline: "HTTP/1.1 200 OK" }, [Buffer.from(body)]);
  return Buffer.from(await WARCSerializer.serialize(record, { gzip }));
}

/** A valid WARC with a root page and a second page, gzip members or plain. */
export async function validWarc({ gzip }: { gzip: boolean }): Promise<Buffer> {
  return Buffer.concat([await responseRecord("http://archived.example.org/", { gzip }), await responseRecord("http://archived.example.org/about", { gzip })]);
}

/** 52 bytes: a local header, then a directory end claiming a 4 GiB directory. */
export function hugeDirectoryWacz(): Buffer {
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  return Buffer.concat([local, endOfDirectory(1, 0xffffffff, 0)]);
}

/** Where an endless line starts: the WARC status line, or an HTTP header line of a response record. */
export const ENDLESS_WARC_LINE = "WARC/1.1 ";
export const ENDLESS_HTTP_LINE = "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://archived.example.org/\r\nContent-Length: 999999999\r\n\r\nHTTP/1.1 200 OK\r\nX-Endless: ";

/** `start`, then `mib` MiB of one letter without a line end, as gzip members of 1 MiB each (~1 KiB apiece). */
export function endlessLineGzip(mib: number, start = ENDLESS_WARC_LINE): Buffer {
  const member = zlib.gzipSync(Buffer.alloc(MIB, "A"), { level: 9 });
  return Buffer.concat([zlib.gzipSync(Buffer.from(start)), ...Array.from({ length: mib }, () => member)]);
}

/** `mib` MiB of one letter as raw deflate (ZIP's method 8), sync-flushed blocks repeated. */
export function endlessLineDeflate(mib: number): Buffer {
  const block = zlib.deflateRawSync(Buffer.alloc(MIB, "A"), { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return Buffer.concat([...Array.from({ length: mib }, () => block), zlib.deflateRawSync(Buffer.alloc(0))]);
}

/** A plain .warc: a status line start, then `mib` MiB of zeros without a line end, as a sparse file (nothing on disk). */
export function writeSparseEndlessWarc(file: string, mib: number): void {
  const fd = fs.openSync(file, "w");
  try {
    fs.writeSync(fd, "WARC/1.1 ");
    fs.ftruncateSync(fd, mib * MIB);
  } finally {
    fs.closeSync(fd);
  }
}

/** A WACZ whose deflated WARC entry inflates to `mib` MiB of one header line; `claimedSize` makes the ZIP lie about it. */
export function zipBombWacz(mib: number, claimedSize?: number): Buffer {
  const inflated = endlessLineDeflate(mib);
  const zip = buildZip([{ name: "archive/data.warc", data: Buffer.alloc(0), method: 0 }]);
  // buildZip deflates its input itself; a bomb's bytes are spliced in by hand instead.
  return spliceDeflated(zip, inflated, claimedSize ?? mib * MIB);
}

function spliceDeflated(emptyStoredZip: Buffer, deflated: Buffer, claimedSize: number): Buffer {
  const nameLength = emptyStoredZip.readUInt16LE(26);
  const local = Buffer.from(emptyStoredZip.subarray(0, 30 + nameLength));
  const central = Buffer.from(emptyStoredZip.subarray(30 + nameLength, emptyStoredZip.length - 22));
  for (const [header, at] of [
    [local, 8],
    [central, 10],
  ] as const) {
    header.writeUInt16LE(8, at);
    header.writeUInt32LE(deflated.length, at + 10);
    header.writeUInt32LE(claimedSize, at + 14);
  }
  central.writeUInt32LE(0, 42);
  return Buffer.concat([local, deflated, central, endOfDirectory(1, central.length, local.length + deflated.length)]);
}
