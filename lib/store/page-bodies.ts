import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { crawlFolder } from "./target-files";

const gzip = promisify(zlib.gzip);

export interface StoredPageBody {
  sha256: string;
  storagePath: string;
  bytes: number;
}

/**
 * HTML bodies kept for offline replay (the paper's local mode), gzip-compressed under
 * `<dataDir>/crawls/<id>/pages/<sha256>.html.gz`. Hashing is synchronous (≈ 0.05 ms for a
 * 40 KB page); compression and the write run on libuv's thread pool, off the crawl loop.
 */
export class PageBodyStore {
  private readonly known = new Set<string>();
  private readonly dir: string;
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly dataDir: string,
    private readonly crawlId: number,
  ) {
    this.dir = path.join(dataDir, crawlFolder(crawlId), "pages");
    fs.mkdirSync(this.dir, { recursive: true });
  }

  /** Stores the body unless already stored; returns its hash and, when new, its record. */
  put(body: Buffer): { sha256: string; created: StoredPageBody | null } {
    const sha256 = createHash("sha256").update(body).digest("hex");
    if (this.known.has(sha256)) return { sha256, created: null };
    this.known.add(sha256);
    const relative = path.join(crawlFolder(this.crawlId), "pages", `${sha256}.html.gz`);
    const absolute = path.join(this.dataDir, relative);
    const write = gzip(body, { level: 1 })
      .then((compressed) => fs.promises.writeFile(absolute, compressed))
      .finally(() => this.pending.delete(write));
    this.pending.add(write);
    return { sha256, created: { sha256, storagePath: relative, bytes: body.length } };
  }

  /** Marks bodies stored by an earlier run of the crawl (resume). */
  remember(sha256s: Iterable<string>): void {
    for (const sha of sha256s) this.known.add(sha);
  }

  async flush(): Promise<void> {
    await Promise.all(this.pending);
  }

  static async read(dataDir: string, storagePath: string): Promise<Buffer> {
    return zlib.gunzipSync(await fs.promises.readFile(path.join(dataDir, storagePath)));
  }
}
