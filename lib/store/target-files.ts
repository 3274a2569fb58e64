import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PassThrough, Transform, type TransformCallback } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { TargetBodyWriter } from "../crawler/engine/types";
import { storageFor } from "../storage/storage-for";
import type { ObjectStorage } from "../storage/object-storage";

/** Folder of one crawl's files, relative to FORAGE_DATA_DIR. */
export function crawlFolder(crawlId: number): string {
  return path.join("crawls", String(crawlId));
}

/**
 * Target files of one crawl, content-addressed by SHA-256 under
 * `<dataDir>/crawls/<id>/files/<sha256>`: a file served under two URLs is stored once, and a
 * resumed crawl that downloads a file again overwrites nothing. Bodies stream to a temporary
 * file while being hashed, then are renamed into place (atomic on one file system). With a
 * bucket as the storage (FORAGE_STORAGE_URL), the file is also uploaded under the same key
 * before its row is handed to the sink, unless the bucket holds it already (deduplication
 * across runs and workers), and the local copy removed: a row never names a file the bucket lacks.
 */
/** Numbers temporary files; per process, not per store: two runs of one crawl in a process must not share names. */
let tmpCounter = 0;

export class TargetFileStore {
  private readonly filesDir: string;
  private readonly tmpDir: string;

  constructor(
    private readonly dataDir: string,
    private readonly crawlId: number,
    private readonly storage: ObjectStorage = storageFor(dataDir),
  ) {
    this.filesDir = path.join(dataDir, crawlFolder(crawlId), "files");
    this.tmpDir = path.join(dataDir, crawlFolder(crawlId), "tmp");
    fs.mkdirSync(this.filesDir, { recursive: true });
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  open(): TargetBodyWriter {
    const tmpPath = path.join(this.tmpDir, `${process.pid}-${++tmpCounter}.part`);
    const hash = createHash("sha256");
    let bytes = 0;
    const hasher = new Transform({
      transform(chunk: Buffer, _encoding, callback: TransformCallback) {
        hash.update(chunk);
        bytes += chunk.length;
        callback(null, chunk);
      },
    });
    const writable = new PassThrough();
    const written = pipeline(writable, hasher, fs.createWriteStream(tmpPath));
    written.catch(() => undefined); // reported by commit(); discard() ignores it
    const filesDir = this.filesDir;
    const crawlId = this.crawlId;
    const storage = this.storage;
    return {
      writable,
      async commit() {
        await written;
        const sha256 = hash.digest("hex");
        const finalPath = path.join(filesDir, sha256);
        if (fs.existsSync(finalPath)) await fs.promises.rm(tmpPath, { force: true });
        else await fs.promises.rename(tmpPath, finalPath);
        const storagePath = path.join(crawlFolder(crawlId), "files", sha256);
        if (storage.kind !== "local") {
          if (!(await storage.head(storagePath))) await storage.putFile(storagePath, finalPath);
          // The bucket's copy is the one every reader uses: the worker's disk does not fill up.
          await fs.promises.rm(finalPath, { force: true });
        }
        return { sha256, bytes, storagePath };
      },
      async discard() {
        writable.destroy();
        await written.catch(() => undefined);
        await fs.promises.rm(tmpPath, { force: true });
      },
    };
  }

  /** Removes temporary files left by a crash. */
  cleanTemporary(): void {
    fs.rmSync(this.tmpDir, { recursive: true, force: true });
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  /**
   * Removes the files no Target row names (a crawl resumed from a checkpoint: files downloaded
   * after it whose rows were rolled back; the resumed crawl downloads them again if it meets
   * them). Returns how many were removed.
   */
  /** The same in a shared bucket (nothing to do for the local folder). Returns how many were removed. */
  async removeUnreferencedStored(referencedSha256s: ReadonlySet<string>): Promise<number> {
    if (this.storage.kind === "local") return 0;
    let removed = 0;
    for (const { key } of await this.storage.list(`${crawlFolder(this.crawlId).split(path.sep).join("/")}/files`)) {
      if (referencedSha256s.has(key.slice(key.lastIndexOf("/") + 1))) continue;
      await this.storage.delete(key);
      removed += 1;
    }
    return removed;
  }

  removeUnreferenced(referencedSha256s: ReadonlySet<string>): number {
    let removed = 0;
    for (const name of fs.readdirSync(this.filesDir)) {
      if (referencedSha256s.has(name)) continue;
      fs.rmSync(path.join(this.filesDir, name), { force: true });
      removed += 1;
    }
    return removed;
  }
}
