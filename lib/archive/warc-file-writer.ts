/**
 * Appends gzip-compressed WARC records (one gzip member per record: framed by the caller, see
 * warc-record-frame.ts, or a warcio `WARCRecord` through its serializer) to files rotated at a size, each
 * opening with a `warcinfo` record, and writes each file's CDXJ
 * sidecar as its records land. One queue, concurrency 1, keeps offsets exact; a group of records
 * (request, response, metadata) is written whole into one file: rotation is checked before it.
 * Files are never appended to once closed: a resumed crawl opens new ones.
 */
import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { WARCRecord } from "warcio";
import { WARCSerializer } from "warcio/node";
import { GrowingObject, MAX_PARTS } from "../storage/growing-object";
import type { ObjectStorage } from "../storage/object-storage";
import { CDXJ_SIDECAR_SUFFIX, WARC_SUFFIX } from "./warc-paths";
import { CRLF_CRLF, type FramedRecord, WARC_VERSION } from "./warc-record-frame";
import { repairWarcFiles } from "./warc-repair";
import { StoredGzipMember, storedGzipMember } from "./stored-gzip-member";

export { WARC_VERSION } from "./warc-record-frame";
const DIGEST = { algo: "sha-256", prefix: "sha256:", base32: false } as const;
/** Level 1: WARC files hold mostly pages and data files; higher levels cost several times the CPU for little less disk (docs/notes/benchmarks-journal.md). */
const GZIP_OPTIONS: zlib.ZlibOptions = { level: 1 };

/**
 * The smallest deflate window that still reaches back over a whole record of `bytes` (zlib keeps
 * 262 bytes of lookahead): the member's bytes are those of the full 32 KiB window, and a request
 * or metadata record (under 1 KiB) no longer sets up and clears 64 KiB of window for nothing.
 */
export function windowBitsFor(bytes: number): number {
  return Math.min(15, Math.max(9, Math.ceil(Math.log2(bytes + 262))));
}

/** Records up to this size are compressed in one synchronous call; larger ones stream. */
const STREAM_GZIP_FROM_BYTES = 1024 * 1024;

export interface WarcFileWriterOptions {
  dir: string;
  /** First part of every file name, e.g. "forage-12". */
  prefix: string;
  /** A file reaching this size is closed before the next group. @default 1 GiB */
  maxFileBytes?: number;
  /** The fields of each file's `warcinfo` record. */
  warcinfo: () => Record<string, string>;
  /**
   * Where the files are published when the storage is not the local folder they are written to:
   * each {@link WarcFileWriter.sync} uploads what the open file and its sidecar gained (a part),
   * closing uploads them whole. @default none (the files stay where they are written)
   */
  publishTo?: { storage: ObjectStorage; keyPrefix: string; /** @default MAX_PARTS */ maxParts?: number } | null;
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
  /** Bytes of the file, pending ones included (where the next record starts). */
  size: number;
  index: fs.promises.FileHandle;
  /** Whole members not yet written, in order, and the index lines of their records. */
  pending: Buffer[];
  pendingBytes: number;
  pendingLines: string[];
  /** The file and its sidecar in the storage, when published there. */
  published: { warc: GrowingObject; index: GrowingObject } | null;
}

/**
 * Small groups wait in memory up to this many bytes or {@link FLUSH_AFTER_MS}, then go to disk in
 * one write (a write call per group cost measurable CPU per request). A killed worker loses at most that much
 * of its archive; index lines are written after their records, so an indexed record is whole.
 */
const FLUSH_FROM_BYTES = 1024 * 1024;
const FLUSH_AFTER_MS = 200;

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
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: WarcFileWriterOptions) {
    this.maxFileBytes = options.maxFileBytes ?? 1024 ** 3;
  }

  /**
   * Queues records to be written one after the other into one file; `indexLines` turns their
   * positions into the CDXJ lines of the file's sidecar. Resolves with the positions, or null
   * when the archive has failed.
   */
  writeGroup(records: (WARCRecord | FramedRecord)[], indexLines: (written: WrittenRecord[]) => string[] = () => []): Promise<WrittenRecord[] | null> {
    const task = this.tail.then(async () => {
      if (this.failure) return null;
      try {
        const file = await this.fileWithRoom();
        const written: WrittenRecord[] = [];
        for (const record of records) {
          const offset = file.size;
          const member = await this.compress(record, async (stream) => {
            await this.flushPending(file);
            return this.copy(stream, file);
          });
          if (member) {
            file.pending.push(member);
            file.pendingBytes += member.length;
            file.size += member.length;
          }
          written.push({ filename: file.name, offset, length: file.size - offset });
        }
        this.bytes += written.reduce((sum, w) => sum + w.length, 0);
        file.pendingLines.push(...indexLines(written));
        if (file.pendingBytes >= FLUSH_FROM_BYTES) await this.flushPending(file);
        else this.flushTimer ??= setTimeout(() => this.flushSoon(), FLUSH_AFTER_MS).unref();
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

  /** Waits for every queued group, writes what is pending and closes the open file. */
  async close(): Promise<void> {
    await this.tail;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    if (this.file) await this.closeFile(this.file).catch((error: unknown) => void (this.failure ??= error instanceof Error ? error : new Error(String(error))));
    this.file = null;
  }

  /**
   * Writes the groups queued so far to the file now instead of at the next batch: a caller about
   * to store rows that point at those records makes sure their bytes are there first.
   */
  sync(): Promise<void> {
    let publishFailure: Error | null = null;
    const task = this.tail.then(async () => {
      if (!this.file || this.failure) return;
      await this.flushPending(this.file).catch((error: unknown) => void (this.failure ??= error instanceof Error ? error : new Error(String(error))));
      const published = this.file.published;
      if (this.failure || !published) return;
      // The sidecar after its records: an index line never names bytes the storage lacks.
      await published.warc
        .publishTail()
        .then(() => published.index.publishTail())
        .catch((error: unknown) => {
          publishFailure = error instanceof Error ? error : new Error(String(error));
          this.failure ??= publishFailure;
        });
    });
    this.tail = task;
    // Rows about to point at these records must not be written when the storage lacks them.
    return task.then(() => {
      if (publishFailure) throw publishFailure;
    });
  }

  /** The timer's flush, queued behind the groups being written. */
  private flushSoon(): void {
    this.flushTimer = null;
    this.tail = this.tail.then(async () => {
      if (!this.file || this.failure) return;
      await this.flushPending(this.file).catch((error: unknown) => void (this.failure ??= error instanceof Error ? error : new Error(String(error))));
    });
  }

  /** Pending members to the file, then their index lines. */
  private async flushPending(file: OpenFile): Promise<void> {
    if (file.pending.length > 0) await file.handle.writev(file.pending.splice(0));
    file.pendingBytes = 0;
    if (file.pendingLines.length > 0) await file.index.write(file.pendingLines.splice(0).map((l) => `${l}\n`).join(""));
  }

  private async fileWithRoom(): Promise<OpenFile> {
    // A published file is also closed once it has many parts (whole in the storage again).
    if (this.file && this.file.size < this.maxFileBytes && (this.file.published?.warc.parts ?? 0) < (this.options.publishTo?.maxParts ?? MAX_PARTS)) return this.file;
    if (this.file) await this.closeFile(this.file);
    this.file = null;
    await fs.promises.mkdir(this.options.dir, { recursive: true });
    // Files of an earlier run of the crawl (killed mid-write?) end on a whole record before this run adds its own.
    if (this.fileCount === 0) await repairWarcFiles(this.options.dir);
    this.fileCount += 1;
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 17);
    const name = `${this.options.prefix}-${stamp}-${String(this.fileCount).padStart(5, "0")}${WARC_SUFFIX}`;
    const handle = await fs.promises.open(path.join(this.options.dir, name), "wx");
    const index = await fs.promises.open(path.join(this.options.dir, name + CDXJ_SIDECAR_SUFFIX), "wx");
    const publishTo = this.options.publishTo;
    const published = publishTo
      ? {
          warc: new GrowingObject(publishTo.storage, `${publishTo.keyPrefix}/${name}`, path.join(this.options.dir, name)),
          index: new GrowingObject(publishTo.storage, `${publishTo.keyPrefix}/${name}${CDXJ_SIDECAR_SUFFIX}`, path.join(this.options.dir, name + CDXJ_SIDECAR_SUFFIX)),
        }
      : null;
    const file: OpenFile = { name, handle, size: 0, index, pending: [], pendingBytes: 0, pendingLines: [], published };
    this.files.push(name);
    const info = WARCRecord.createWARCInfo({ filename: name, warcVersion: WARC_VERSION }, this.options.warcinfo());
    const member = await this.compress(info, (stream) => this.copy(stream, file));
    if (member) {
      file.pending.push(member);
      file.pendingBytes += member.length;
      file.size += member.length;
    }
    this.file = file;
    return file;
  }

  /**
   * One record as one gzip member: returned whole when small, else streamed through
   * `writeLarge` (which appends it to the file) and null is returned.
   */
  private async compress(record: WARCRecord | FramedRecord, writeLarge: (member: AsyncIterable<Buffer>) => Promise<void>): Promise<Buffer | null> {
    if (!(record instanceof WARCRecord)) return this.compressFramed(record, writeLarge);
    // warcio/node's serializer frames the record (digests preset by the recorder are kept) and
    // spills payloads over 2 MB to a temporary file. The gzip member is ours: warcio would use
    // CompressionStream at the default level, far more CPU than zlib level 1 (docs/notes/benchmarks-journal.md).
    const serializer = new WARCSerializer(record, { gzip: false, digest: DIGEST });
    // No hashing in warcio: the recorder presets every digest with node:crypto, and warcio would
    // otherwise instantiate a hash-wasm module per record for a payload digest of requests.
    serializer.digestAlgo = "";
    const options = GZIP_OPTIONS;
    const small: Buffer[] = [];
    let smallBytes = 0;
    let gzip: zlib.Gzip | null = null;
    let written: Promise<void> = Promise.resolve();
    for await (const chunk of serializer) {
      if (!gzip) {
        small.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        smallBytes += chunk.length;
        if (smallBytes < STREAM_GZIP_FROM_BYTES) continue;
        // A large record: compressed on zlib's thread pool as it is read, never whole in memory.
        gzip = zlib.createGzip(options);
        written = writeLarge(gzip);
        for (const part of small.splice(0)) if (!gzip.write(part)) await once(gzip, "drain");
        continue;
      }
      if (!gzip.write(chunk)) await once(gzip, "drain");
    }
    if (!gzip) return zlib.gzipSync(Buffer.concat(small, smallBytes), options);
    gzip.end();
    await written;
    return null;
  }

  /** A record framed by the caller, as {@link compress}: one synchronous call when small and in memory. */
  private async compressFramed(record: FramedRecord, writeLarge: (member: AsyncIterable<Buffer>) => Promise<void>): Promise<Buffer | null> {
    const bytes = record.head.length + record.bodyBytes + CRLF_CRLF.length;
    const body = record.body;
    if (record.stored) {
      if (typeof body !== "function" && bytes < STREAM_GZIP_FROM_BYTES) return storedGzipMember([record.head, ...body, CRLF_CRLF]);
      await writeLarge(storedMemberOf(record.head, typeof body === "function" ? body() : body));
      return null;
    }
    if (typeof body !== "function" && bytes < STREAM_GZIP_FROM_BYTES) {
      return zlib.gzipSync(Buffer.concat([record.head, ...body, CRLF_CRLF], bytes), { ...GZIP_OPTIONS, windowBits: windowBitsFor(bytes) });
    }
    // A large record: compressed on zlib's thread pool as it is read, never whole in memory.
    const gzip = zlib.createGzip(GZIP_OPTIONS);
    const written = writeLarge(gzip);
    const parts = typeof body === "function" ? body() : body;
    if (!gzip.write(record.head)) await once(gzip, "drain");
    for await (const chunk of parts) if (!gzip.write(chunk)) await once(gzip, "drain");
    gzip.end(CRLF_CRLF);
    await written;
    return null;
  }

  /** Appends a large record's member to the file as it comes, in writes of about {@link FLUSH_FROM_BYTES}. */
  private async copy(member: AsyncIterable<Buffer>, file: OpenFile): Promise<void> {
    let batch: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of member) {
      batch.push(chunk);
      bytes += chunk.length;
      if (bytes < FLUSH_FROM_BYTES) continue;
      await file.handle.writev(batch);
      file.size += bytes;
      batch = [];
      bytes = 0;
    }
    if (batch.length > 0) await file.handle.writev(batch);
    file.size += bytes;
  }

  private async closeFile(file: OpenFile): Promise<void> {
    await this.flushPending(file);
    await file.handle.close();
    await file.index.close();
    if (file.published) {
      await file.published.warc.publishWhole();
      await file.published.index.publishWhole();
    }
  }
}

/**
 * The stored member of a large record whose payload is already compressed (zip, xlsx, pdf, a
 * gzip-encoded body): compressing it again costs CPU and saves nothing (see stored-gzip-member.ts).
 */
async function* storedMemberOf(head: Buffer, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): AsyncGenerator<Buffer> {
  const member = new StoredGzipMember();
  yield* member.add(head);
  for await (const chunk of body) yield* member.add(chunk);
  yield* member.add(CRLF_CRLF);
  yield* member.end();
}
