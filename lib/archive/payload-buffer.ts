/**
 * A response body collected chunk by chunk while it arrives, then read once when its record is
 * written. Small bodies stay in memory; past `memoryBytes` the rest goes to a temporary file
 * beside the WARC files, so a 1 GB target file never sits in memory.
 */
import { createHash, type Hash } from "node:crypto";
import fs from "node:fs";
import { once } from "node:events";

export class PayloadBuffer {
  private readonly chunks: Buffer[] = [];
  private memory = 0;
  private file: fs.WriteStream | null = null;
  private readonly hash: Hash = createHash("sha256");
  /** The record's block digest (`blockPrefix` then the bytes), hashed as the bytes arrive; null without a prefix. */
  private readonly blockHash: Hash | null;
  bytes = 0;

  constructor(
    private readonly spillPath: () => string,
    private readonly memoryBytes = 4 * 1024 * 1024,
    blockPrefix: Uint8Array | null = null,
  ) {
    this.blockHash = blockPrefix ? createHash("sha256").update(blockPrefix) : null;
  }

  write(chunk: Buffer): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    this.blockHash?.update(chunk);
    if (!this.file && this.memory + chunk.length <= this.memoryBytes) {
      this.chunks.push(chunk);
      this.memory += chunk.length;
      return;
    }
    this.file ??= fs.createWriteStream(this.spillPath());
    this.file.write(chunk);
  }

  /** `sha256:<hex>` of everything written; call once, after the last write. */
  digest(): string {
    return `sha256:${this.hash.digest("hex")}`;
  }

  /** `sha256:<hex>` of the constructor's `blockPrefix` followed by the bytes; call once, after the last write. */
  blockDigest(): string {
    if (!this.blockHash) throw new Error("PayloadBuffer: no block prefix was given");
    return `sha256:${this.blockHash.digest("hex")}`;
  }

  /** The bytes when they are all in memory (none spilled to the temporary file), else null. */
  inMemory(): readonly Buffer[] | null {
    return this.file ? null : this.chunks;
  }

  /** The bytes, in order; the temporary file is removed once read. */
  async *read(): AsyncGenerator<Uint8Array> {
    yield* this.chunks;
    if (!this.file) return;
    const file = this.file;
    this.file = null;
    file.end();
    await once(file, "close");
    try {
      for await (const chunk of fs.createReadStream(file.path)) yield chunk as Buffer;
    } finally {
      await fs.promises.rm(file.path, { force: true });
    }
  }

  /** Drops the bytes without reading them. */
  async discard(): Promise<void> {
    this.chunks.length = 0;
    if (!this.file) return;
    const file = this.file;
    this.file = null;
    file.end();
    await once(file, "close");
    await fs.promises.rm(file.path, { force: true });
  }
}
