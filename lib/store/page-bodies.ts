import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { crawlFolder } from "./target-files";

export interface StoredPageBody {
  sha256: string;
  storagePath: string;
  offset: number;
  compressedBytes: number;
  bytes: number;
}

/**
 * HTML bodies kept for offline replay (the paper's local mode). Each body is one gzip member
 * appended to a pack file, `<dataDir>/crawls/<id>/pages/<run>.pack`: one open file per crawl
 * run instead of one file per page (opening and closing a file per page cost more CPU than
 * parsing it). A body is read back by offset and length and is a valid gzip stream on its own.
 * Writes are synchronous appends to the page cache (tens of µs); gzip level 1.
 */
export class PageBodyStore {
  private readonly known = new Set<string>();
  private readonly relativePath: string;
  private fd: number | null = null;
  private offset = 0;

  constructor(
    private readonly dataDir: string,
    crawlId: number,
    runId: string = String(Date.now()),
  ) {
    this.relativePath = path.join(crawlFolder(crawlId), "pages", `${runId}.pack`);
  }

  /** Stores the body unless already stored; returns its hash and, when new, its record. */
  put(body: Buffer): { sha256: string; created: StoredPageBody | null } {
    const sha256 = createHash("sha256").update(body).digest("hex");
    if (this.known.has(sha256)) return { sha256, created: null };
    this.known.add(sha256);
    const compressed = zlib.gzipSync(body, { level: 1 });
    const fd = this.open();
    fs.writeSync(fd, compressed, 0, compressed.length, this.offset);
    const created = { sha256, storagePath: this.relativePath, offset: this.offset, compressedBytes: compressed.length, bytes: body.length };
    this.offset += compressed.length;
    return { sha256, created };
  }

  /** Marks bodies stored by an earlier run of the crawl (resume). */
  remember(sha256s: Iterable<string>): void {
    for (const sha of sha256s) this.known.add(sha);
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  private open(): number {
    if (this.fd === null) {
      const absolute = path.join(this.dataDir, this.relativePath);
      fs.mkdirSync(path.dirname(absolute), { recursive: true });
      this.fd = fs.openSync(absolute, "a");
      this.offset = fs.fstatSync(this.fd).size;
    }
    return this.fd;
  }

  /** Reads one stored body back. */
  static async read(dataDir: string, body: Pick<StoredPageBody, "storagePath" | "offset" | "compressedBytes">): Promise<Buffer> {
    const handle = await fs.promises.open(path.join(dataDir, body.storagePath), "r");
    try {
      const buffer = Buffer.alloc(body.compressedBytes);
      await handle.read(buffer, 0, body.compressedBytes, body.offset);
      return zlib.gunzipSync(buffer);
    } finally {
      await handle.close();
    }
  }
}
