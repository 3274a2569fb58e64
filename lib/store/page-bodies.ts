import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { bodySha256 } from "../crawler/fetch/body-digest";
import { GrowingObject, MAX_PARTS, readGrowingObject } from "../storage/growing-object";
import type { ObjectStorage } from "../storage/object-storage";
import { storageFor } from "../storage/storage-for";
import { crawlFolder } from "./target-files";
import { decodeWarcPageBody, isWarcStoragePath } from "./warc-page-body";

export interface StoredPageBody {
  sha256: string;
  storagePath: string;
  offset: number;
  compressedBytes: number;
  bytes: number;
}

/** Bodies kept in memory before they are written to the pack at the latest. */
export const MAX_UNWRITTEN_BYTES = 1 << 20;

/** Packs written since brotli replaced gzip end so; a plain `.pack` holds gzip members. */
const BROTLI_PACK = ".brotli.pack";

/**
 * Brotli at quality 0: measured on 300 pages of the large documentation site (29 KB each),
 * 52 µs a page against 118 µs for gzip level 1, at 0.19 of the size against 0.18. The page
 * compression was the largest single item of the engine's time there.
 */
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 0 } };

/**
 * HTML bodies kept for offline replay (the paper's local mode), for crawls without a web archive
 * (a crawl with one stores rows pointing into its WARC files instead: see the crawl sink). Each body is one brotli stream
 * appended to a pack file, `<dataDir>/crawls/<id>/pages/<run>.brotli.pack`: one open file per
 * crawl run instead of one file per page (opening and closing a file per page cost more CPU than
 * parsing it). A body is read back by offset and length, and decodes on its own. Packs written
 * before brotli (`<run>.pack`) hold gzip members and are still read.
 *
 * Bodies are written in batches, by {@link sync} (the crawl sink calls it before it writes the
 * rows that point into the pack, so no row points past the file's end) or once
 * {@link MAX_UNWRITTEN_BYTES} wait: one `write` a page cost ~47 µs on this machine's ext4.
 * With a bucket as the storage, {@link publish} (before each batch of rows) uploads what the
 * pack gained as a part of the pack's object: another worker can read every body a row names.
 */
export class PageBodyStore {
  private readonly known = new Set<string>();
  private relativePath: string;
  /** Packs this run started after its first (a published pack is closed once it has many parts). */
  private packCount = 0;
  private fd: number | null = null;
  /** Where the next body goes in the pack: the file's size once the waiting bodies are written. */
  private offset = 0;
  private unwritten: Buffer[] = [];
  private unwrittenBytes = 0;
  private published: GrowingObject | null = null;

  constructor(
    private readonly dataDir: string,
    crawlId: number,
    private readonly runId: string = String(Date.now()),
    private readonly storage: ObjectStorage = storageFor(dataDir),
    private readonly maxParts = MAX_PARTS,
  ) {
    this.relativePath = path.join(crawlFolder(crawlId), "pages", `${runId}${BROTLI_PACK}`);
  }

  /** Stores the body unless already stored; returns its hash and, when new, its record. */
  put(body: Buffer): { sha256: string; created: StoredPageBody | null } {
    const { sha256, isNew } = this.claim(body);
    return { sha256, created: isNew ? this.append(sha256, body) : null };
  }

  /**
   * Hashes the body and marks it stored; `isNew` when no earlier call claimed it. The caller
   * then stores it elsewhere (a row pointing into the web archive) or {@link append}s it.
   */
  claim(body: Buffer): { sha256: string; isNew: boolean } {
    const sha256 = bodySha256(body); // a fetch that archived the body has hashed it already
    if (this.known.has(sha256)) return { sha256, isNew: false };
    this.known.add(sha256);
    return { sha256, isNew: true };
  }

  /** Appends a claimed body to the pack; returns its record. */
  append(sha256: string, body: Buffer): StoredPageBody {
    const compressed = zlib.brotliCompressSync(body, BROTLI_OPTIONS);
    this.open();
    const created = { sha256, storagePath: this.relativePath, offset: this.offset, compressedBytes: compressed.length, bytes: body.length };
    this.offset += compressed.length;
    this.unwritten.push(compressed);
    this.unwrittenBytes += compressed.length;
    if (this.unwrittenBytes >= MAX_UNWRITTEN_BYTES) this.sync();
    return created;
  }

  /** Appends the bodies stored since the last sync to the pack (page cache; no fsync). */
  sync(): void {
    if (this.unwritten.length === 0) return;
    let written = 0;
    while (written < this.unwrittenBytes) {
      const left = written === 0 ? this.unwritten : [Buffer.concat(this.unwritten).subarray(written)];
      written += fs.writevSync(this.fd!, left);
    }
    this.unwritten = [];
    this.unwrittenBytes = 0;
  }

  /**
   * Writes the waiting bodies and publishes the pack's new bytes to the storage (nothing more for
   * the local folder). A pack with many parts is closed, uploaded whole, and the next body starts
   * another pack.
   */
  async publish(): Promise<void> {
    this.sync();
    if (!this.published) return;
    await this.published.publishTail();
    if (this.published.parts < this.maxParts) return;
    const full = this.published;
    this.sync(); // bodies appended while the part was uploading belong to this pack
    fs.closeSync(this.fd!);
    this.fd = null;
    this.published = null;
    this.relativePath = path.join(path.dirname(this.relativePath), `${this.runId}-${++this.packCount}${BROTLI_PACK}`);
    await full.publishWhole();
  }

  /** Marks bodies stored by an earlier run of the crawl (resume). */
  remember(sha256s: Iterable<string>): void {
    for (const sha of sha256s) this.known.add(sha);
  }

  close(): void {
    if (this.fd !== null) {
      this.sync();
      fs.closeSync(this.fd);
    }
    this.fd = null;
  }

  private open(): number {
    if (this.fd === null) {
      const absolute = path.join(this.dataDir, this.relativePath);
      fs.mkdirSync(path.dirname(absolute), { recursive: true });
      this.fd = fs.openSync(absolute, "a");
      this.offset = fs.fstatSync(this.fd).size;
      if (this.storage.kind !== "local") this.published = new GrowingObject(this.storage, this.relativePath.split(path.sep).join("/"), absolute);
    }
    return this.fd;
  }

  /** Reads one stored body back. */
  static async read(dataDir: string, body: Pick<StoredPageBody, "storagePath" | "offset" | "compressedBytes">, storage: ObjectStorage = storageFor(dataDir)): Promise<Buffer> {
    const key = body.storagePath.split(path.sep).join("/");
    const buffer = await readGrowingObject(storage, key, { offset: body.offset, length: body.compressedBytes });
    if (buffer.length !== body.compressedBytes) throw new Error(`stored page file ${body.storagePath} is truncated`);
    return decodePackedBody(body.storagePath, buffer);
  }
}

/**
 * One body's bytes as read at its row's offset and length: from a WARC file, the response
 * record's gzip member; from a pack, a brotli member or, in packs written before it, a gzip one.
 */
export function decodePackedBody(storagePath: string, packed: Buffer): Buffer {
  if (isWarcStoragePath(storagePath)) return decodeWarcPageBody(packed, storagePath);
  return storagePath.endsWith(BROTLI_PACK) ? zlib.brotliDecompressSync(packed) : zlib.gunzipSync(packed);
}
