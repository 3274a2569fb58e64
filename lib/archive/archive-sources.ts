/**
 * The WARC streams inside a file to import: a `.warc` / `.warc.gz` file itself, or each
 * `archive/*.warc(.gz)` entry of a WACZ (a ZIP read through its central directory; entries
 * stored, as WACZ requires, or deflated).
 */
import fs from "node:fs";
import type { Readable } from "node:stream";
import zlib from "node:zlib";

export interface ArchiveSource {
  name: string;
  open(): Readable;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

export async function archiveSources(file: string): Promise<ArchiveSource[]> {
  const handle = await fs.promises.open(file, "r");
  try {
    const head = Buffer.alloc(4);
    await handle.read(head, 0, 4, 0);
    if (head.readUInt32LE(0) !== LOCAL) return [{ name: file, open: () => fs.createReadStream(file) }];
    const { size } = await handle.stat();
    const tailBytes = Math.min(size, 65_557);
    const tail = Buffer.alloc(tailBytes);
    await handle.read(tail, 0, tailBytes, size - tailBytes);
    let eocd = -1;
    for (let i = tailBytes - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === EOCD) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) throw new Error(`${file}: a ZIP without its central directory (a cut download?)`);
    const count = tail.readUInt16LE(eocd + 10);
    const directoryBytes = tail.readUInt32LE(eocd + 12);
    const directory = Buffer.alloc(directoryBytes);
    await handle.read(directory, 0, directoryBytes, tail.readUInt32LE(eocd + 16));
    const sources: ArchiveSource[] = [];
    let p = 0;
    for (let i = 0; i < count; i++) {
      if (directory.readUInt32LE(p) !== CENTRAL) throw new Error(`${file}: damaged ZIP central directory`);
      const method = directory.readUInt16LE(p + 10);
      const compressed = directory.readUInt32LE(p + 20);
      const nameLength = directory.readUInt16LE(p + 28);
      const next = p + 46 + nameLength + directory.readUInt16LE(p + 30) + directory.readUInt16LE(p + 32);
      const name = directory.subarray(p + 46, p + 46 + nameLength).toString("utf8");
      const local = directory.readUInt32LE(p + 42);
      p = next;
      if (!/^archive\/[^/]+\.warc(\.gz)?$/.test(name)) continue;
      if (method !== 0 && method !== 8) throw new Error(`${file}: ${name} uses ZIP compression method ${method}`);
      const localHead = Buffer.alloc(30);
      await handle.read(localHead, 0, 30, local);
      const start = local + 30 + localHead.readUInt16LE(26) + localHead.readUInt16LE(28);
      sources.push({
        name,
        open: () => {
          const raw = fs.createReadStream(file, { start, end: start + compressed - 1 });
          return method === 0 ? raw : raw.pipe(zlib.createInflateRaw());
        },
      });
    }
    if (sources.length === 0) throw new Error(`${file}: a ZIP without archive/*.warc.gz entries is not a WACZ`);
    return sources.sort((a, b) => a.name.localeCompare(b.name));
  } finally {
    await handle.close();
  }
}
