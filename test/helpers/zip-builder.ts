/**
 * ZIP files written byte by byte, so tests can craft what a ZIP library refuses to write: names
 * with `..`, sizes that lie, entries sharing bytes, directories pointing past the file.
 */
import zlib from "node:zlib";

export interface ZipEntrySpec {
  name: string;
  data: Buffer;
  /** 0 stored (default), 8 deflated (`data` is deflated here). */
  method?: 0 | 8;
  /** The uncompressed size the headers claim. @default the real one */
  claimedSize?: number;
  /** Points the directory at another entry's local header (by index) instead of its own. */
  sameBytesAs?: number;
  /** Points the directory at this byte offset (a local header hidden in another entry's data) instead of its own. */
  localHeaderAt?: number;
}

export function buildZip(entries: ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  const offsets: number[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, "utf8");
    const method = entry.method ?? 0;
    const stored = method === 8 ? zlib.deflateRawSync(entry.data, { level: 9 }) : entry.data;
    const size = entry.claimedSize ?? entry.data.length;
    const crc = zlib.crc32(entry.data);
    const header = (signature: number, length: number) => {
      const b = Buffer.alloc(length);
      b.writeUInt32LE(signature, 0);
      return b;
    };
    if (entry.localHeaderAt !== undefined) {
      offsets.push(entry.localHeaderAt);
    } else if (entry.sameBytesAs === undefined) {
      const local = header(0x04034b50, 30);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(0x800, 6);
      local.writeUInt16LE(method, 8);
      local.writeUInt32LE(crc, 14);
      local.writeUInt32LE(stored.length, 18);
      local.writeUInt32LE(size, 22);
      local.writeUInt16LE(name.length, 26);
      offsets.push(offset);
      locals.push(local, name, stored);
      offset += local.length + name.length + stored.length;
    } else {
      offsets.push(offsets[entry.sameBytesAs]!);
    }
    const dir = header(0x02014b50, 46);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt16LE(0x800, 8);
    dir.writeUInt16LE(method, 10);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(stored.length, 20);
    dir.writeUInt32LE(size, 24);
    dir.writeUInt16LE(name.length, 28);
    dir.writeUInt32LE(offsets[offsets.length - 1]!, 42);
    central.push(dir, name);
  }
  const directory = Buffer.concat(central);
  return Buffer.concat([...locals, directory, endOfDirectory(entries.length, directory.length, offset)]);
}

/** The end of central directory record, any numbers it is told. */
export function endOfDirectory(count: number, directoryBytes: number, directoryOffset: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directoryBytes, 12);
  end.writeUInt32LE(directoryOffset, 16);
  return end;
}
