/**
 * Appends gzip-compressed WARC records (one gzip member per record, warcio's serializer) to
 * files rotated at a size, each opening with a `warcinfo` record, and writes each file's CDXJ
 * sidecar as its records land. One queue, concurrency 1, keeps offsets exact; a group of records
 * (request, response, metadata) is written whole into one file: rotation is checked before it.
 * Files are never appended to once closed: a resumed crawl opens new ones.
 */
import fs from "node:fs";
import path from "node:path";
import { WARCRecord } from "warcio";
import { WARCSerializer } from "warcio/node";
import { CDXJ_SIDECAR_SUFFIX, WARC_SUFFIX } from "./warc-paths";

export const WARC_VERSION = "WARC/1.1";
const DIGEST = { algo: "sha-256", prefix: "sha256:", base32: false } as const;

export interface WarcFileWriterOptions {
  dir: string;
  /** First part of every file name, e.g. "forage-12". */
  prefix: string;
  /** A file reaching this size is closed before the next group. @default 1 GiB */
  maxFileBytes?: number;
  /** The fields of each file's `warcinfo` record. */
  warcinfo: () => Record<string, string>;
}

/** Where a record landed: its gzip member starts at `offset` and is `length` bytes long. */
export interface WrittenRecord {
  filename: string;
  offset: number;
  length: number;
}

interface OpenFile {
  name: string;
  handle: fs.promises.FileHandle;
  size: number;
  index: fs.promises.FileHandle;
}

export class WarcFileWriter {
  private file: OpenFile | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private fileCount = 0;
  private readonly maxFileBytes: number;
  /** The first write failure; later groups are dropped (the crawl goes on without its archive). */
  failure: Error | null = null;
  /** Files written so far (names). */
  readonly files: string[] = [];
  records = 0;
  bytes = 0;

  constructor(private readonly options: WarcFileWriterOptions) {
    this.maxFileBytes = options.maxFileBytes ?? 1024 ** 3;
  }

  /**
   * Queues records to be written one after the other into one file; `indexLines` turns their
   * positions into the CDXJ lines of the file's sidecar. Resolves with the positions, or null
   * when the archive has failed.
   */
  writeGroup(records: WARCRecord[], indexLines: (written: WrittenRecord[]) => string[] = () => []): Promise<WrittenRecord[] | null> {
    const task = this.tail.then(async () => {
      if (this.failure) return null;
      try {
        const file = await this.fileWithRoom();
        const written: WrittenRecord[] = [];
        for (const record of records) written.push(await this.append(file, record));
        const lines = indexLines(written);
        if (lines.length > 0) await file.index.write(lines.map((l) => `${l}\n`).join(""));
        this.records += records.length;
        return written;
      } catch (error) {
        this.failure ??= error instanceof Error ? error : new Error(String(error));
        return null;
      }
    });
    this.tail = task;
    return task;
  }

  /** Waits for every queued group and closes the open file. */
  async close(): Promise<void> {
    await this.tail;
    if (this.file) await this.closeFile(this.file).catch(() => undefined);
    this.file = null;
  }

  private async fileWithRoom(): Promise<OpenFile> {
    if (this.file && this.file.size < this.maxFileBytes) return this.file;
    if (this.file) await this.closeFile(this.file);
    this.file = null;
    await fs.promises.mkdir(this.options.dir, { recursive: true });
    this.fileCount += 1;
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 17);
    const name = `${this.options.prefix}-${stamp}-${String(this.fileCount).padStart(5, "0")}${WARC_SUFFIX}`;
    const handle = await fs.promises.open(path.join(this.options.dir, name), "wx");
    const index = await fs.promises.open(path.join(this.options.dir, name + CDXJ_SIDECAR_SUFFIX), "wx");
    const file: OpenFile = { name, handle, size: 0, index };
    this.files.push(name);
    const info = WARCRecord.createWARCInfo({ filename: name, warcVersion: WARC_VERSION }, this.options.warcinfo());
    await this.append(file, info);
    this.file = file;
    return file;
  }

  private async append(file: OpenFile, record: WARCRecord): Promise<WrittenRecord> {
    const offset = file.size;
    // warcio/node's serializer spills payloads over 2 MB to a temporary file while digesting.
    const serializer = new WARCSerializer(record, { gzip: true, digest: DIGEST });
    // Few large writes: the gzip stream yields many small chunks.
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async (): Promise<void> => {
      if (pending.length === 0) return;
      await file.handle.writev(pending);
      file.size += pendingBytes;
      pending = [];
      pendingBytes = 0;
    };
    for await (const chunk of serializer) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes >= 1024 * 1024) await flush();
    }
    await flush();
    this.bytes += file.size - offset;
    return { filename: file.name, offset, length: file.size - offset };
  }

  private async closeFile(file: OpenFile): Promise<void> {
    await file.handle.close();
    await file.index.close();
  }
}
