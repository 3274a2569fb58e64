/**
 * The WARC streams inside a file to import: a `.warc` / `.warc.gz` file itself, or each
 * `archive/*.warc(.gz)` entry of a WACZ. A WACZ is read with yauzl (a maintained ZIP reader:
 * central directory bounds checked against the file, names refused when absolute or with `..`
 * or `\`, stored sizes checked, inflated bytes never past the size the directory claims), and
 * Forage checks what yauzl leaves to its caller: the entry count, the local header agreeing
 * with the directory, entries not sharing bytes (one stored WARC listed 10,000 times is a bomb
 * too), and deflated entries not inflating past `zipInflateRatio`.
 */
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import yauzl, { type Entry, type ZipFile } from "yauzl";
import { ARCHIVE_LIMITS, type ArchiveLimits } from "./archive-limits";
import { ImportError, importErrorAt } from "./import-error";

export interface ArchiveSource {
  /** What messages name: the file, or `file: entry` inside a WACZ. */
  name: string;
  /** A fresh stream of the WARC bytes (gzip members or plain), each call from the start. */
  open(): Promise<Readable>;
}

export interface ArchiveSources {
  sources: ArchiveSource[];
  /** Releases the ZIP file (a no-op for a WARC file). */
  close(): void;
}

const WARC_ENTRY = /^archive\/[^/]+\.warc(\.gz)?$/;
const STORED = 0;
const DEFLATED = 8;
/** Bit 3: sizes in a data descriptor after the data, zero in the local header. */
const DATA_DESCRIPTOR_FLAG = 0x08;
const ZIP64_SIZE = 0xffffffff;
const READ_CHUNK_BYTES = 16 * 1024;

/**
 * The archive's WARC streams, sorted by name. `bytes` reads the archive from memory instead of
 * `file` (which then only names it), as the fuzz targets do.
 * @throws ImportError naming the file, the entry and what is wrong.
 */
export async function archiveSources(file: string, { bytes, limits = ARCHIVE_LIMITS }: { bytes?: Buffer; limits?: ArchiveLimits } = {}): Promise<ArchiveSources> {
  const label = bytes ? file : path.basename(file);
  const head = bytes ? bytes.subarray(0, 4) : await readHead(file).catch((error: unknown) => {
    throw importErrorAt(`${label}: cannot be read`, error);
  });
  if (!isZip(head)) {
    // Small reads: warcio inflates each chunk it is handed at once, up to ~1000× its size.
    const open = async () => (bytes ? Readable.from([bytes]) : fs.createReadStream(file, { highWaterMark: READ_CHUNK_BYTES }));
    return { sources: [{ name: label, open }], close: () => undefined };
  }
  const options = { lazyEntries: true, autoClose: false, validateEntrySizes: true, strictFileNames: true, decodeStrings: true };
  let zip: ZipFile;
  try {
    zip = bytes ? await yauzl.fromBufferPromise(bytes, options) : await yauzl.openPromise(file, options);
  } catch (error) {
    throw importErrorAt(`${label}: not a readable ZIP`, error);
  }
  try {
    return { sources: await warcEntries(zip, label, limits), close: () => zip.close() };
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function readHead(file: string): Promise<Buffer> {
  const handle = await fs.promises.open(file, "r");
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A local file header, or the end of central directory of an empty ZIP. */
function isZip(head: Buffer): boolean {
  return head.length === 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6));
}

async function warcEntries(zip: ZipFile, label: string, limits: ArchiveLimits): Promise<ArchiveSource[]> {
  if (zip.entryCount > limits.zipEntries) throw new ImportError(`${label}: ${zip.entryCount} ZIP entries, over the ${limits.zipEntries} a WACZ may hold`);
  const warcs: { entry: Entry; start: number; end: number }[] = [];
  const iterator = zip.eachEntry();
  for (;;) {
    let next: IteratorResult<Entry>;
    try {
      next = await iterator.next();
    } catch (error) {
      // yauzl's own checks: directory bounds, entry names, stored sizes.
      throw importErrorAt(`${label}: damaged or unsafe ZIP directory`, error);
    }
    if (next.done) break;
    const entry = next.value;
    if (!WARC_ENTRY.test(entry.fileName)) continue;
    const where = `${label}: ${entry.fileName}`;
    checkClaimedSizes(entry, zip.fileSize, where, limits);
    const local = await zip.readLocalFileHeaderPromise(entry).catch((error: unknown) => {
      throw importErrorAt(where, error);
    });
    if (!local.fileName.equals(entry.fileNameRaw) || local.compressionMethod !== entry.compressionMethod) {
      throw new ImportError(`${where}: the local header names another entry or method than the ZIP directory`);
    }
    const sizesInHeader = (local.generalPurposeBitFlag & DATA_DESCRIPTOR_FLAG) === 0 && local.compressedSize !== ZIP64_SIZE;
    if (sizesInHeader && (local.compressedSize !== entry.compressedSize || local.uncompressedSize !== entry.uncompressedSize)) {
      throw new ImportError(`${where}: the local header's sizes differ from the ZIP directory's`);
    }
    warcs.push({ entry, start: entry.relativeOffsetOfLocalHeader, end: local.fileDataStart + entry.compressedSize });
  }
  if (warcs.length === 0) throw new ImportError(`${label}: a ZIP without archive/*.warc(.gz) entries is not a WACZ`);
  const byOffset = [...warcs].sort((a, b) => a.start - b.start);
  for (let i = 1; i < byOffset.length; i++) {
    if (byOffset[i]!.start < byOffset[i - 1]!.end) throw new ImportError(`${label}: entries ${byOffset[i - 1]!.entry.fileName} and ${byOffset[i]!.entry.fileName} share bytes`);
  }
  return warcs
    .map(({ entry }) => ({
      name: `${label}: ${entry.fileName}`,
      open: async () => {
        const where = `${label}: ${entry.fileName}`;
        try {
          return guarded(await zip.openReadStreamPromise(entry), where);
        } catch (error) {
          throw importErrorAt(where, error);
        }
      },
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The entry's stream with yauzl's and zlib's errors (too many bytes, bad deflate data) as ImportErrors naming the entry. */
function guarded(stream: Readable, where: string): Readable {
  async function* chunks() {
    try {
      yield* stream;
    } catch (error) {
      throw importErrorAt(where, error);
    } finally {
      stream.destroy();
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

function checkClaimedSizes(entry: Entry, fileSize: number, where: string, limits: ArchiveLimits): void {
  if (entry.isEncrypted()) throw new ImportError(`${where}: encrypted`);
  if (entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED) {
    throw new ImportError(`${where}: ZIP compression method ${entry.compressionMethod} (a WACZ stores its WARCs, or deflates them)`);
  }
  if (entry.compressedSize > fileSize) throw new ImportError(`${where}: claims ${entry.compressedSize} bytes in a ${fileSize}-byte file`);
  if (entry.compressionMethod === DEFLATED && entry.uncompressedSize > limits.zipInflateFloorBytes && entry.uncompressedSize > entry.compressedSize * limits.zipInflateRatio) {
    throw new ImportError(`${where}: a ZIP bomb (${entry.compressedSize} bytes inflating to ${entry.uncompressedSize}, over ${limits.zipInflateRatio}×)`);
  }
}
