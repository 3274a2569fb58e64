import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { checkKey, checkPrefix, ObjectNotFoundError, type ByteRange, type ObjectStorage, type StoredObjectInfo } from "./object-storage";

/** Numbers temporary files of this process. */
let tmpCounter = 0;

/**
 * Objects as files under one folder (FORAGE_DATA_DIR): a key is the file's relative path, so
 * the layout is the one Forage always had and existing data stays readable. Writes go to a
 * temporary file renamed into place: a reader never sees half an object.
 */
export class LocalFolderStorage implements ObjectStorage {
  readonly kind = "local" as const;
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  get location(): string {
    return this.root;
  }

  /** The file of a key. */
  pathOf(key: string): string {
    return path.join(this.root, ...checkKey(key).split("/"));
  }

  async put(key: string, body: Buffer | Readable): Promise<void> {
    const target = this.pathOf(key);
    await fs.promises.mkdir(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}-${++tmpCounter}.tmp`;
    try {
      if (Buffer.isBuffer(body)) await fs.promises.writeFile(tmp, body);
      else await pipeline(body, fs.createWriteStream(tmp));
      await fs.promises.rename(tmp, target);
    } catch (error) {
      await fs.promises.rm(tmp, { force: true });
      throw error;
    }
  }

  async putFile(key: string, localPath: string): Promise<void> {
    if (path.resolve(localPath) === this.pathOf(key)) return;
    await this.put(key, fs.createReadStream(localPath));
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    const handle = await fs.promises.open(file, "r").catch((error: NodeJS.ErrnoException) => {
      throw error.code === "ENOENT" || error.code === "EISDIR" ? new ObjectNotFoundError(key) : error;
    });
    if (!(await handle.stat()).isFile()) {
      await handle.close();
      throw new ObjectNotFoundError(key);
    }
    if (range && range.length === 0) {
      await handle.close();
      return Readable.from([]);
    }
    return handle.createReadStream(range ? { start: range.offset, end: range.offset + range.length - 1 } : {});
  }

  async read(key: string, range?: ByteRange): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.get(key, range)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async head(key: string): Promise<{ bytes: number } | null> {
    try {
      const stat = await fs.promises.stat(this.pathOf(key));
      return stat.isFile() ? { bytes: stat.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    const safe = checkPrefix(prefix);
    if (safe === "") throw new Error("refusing to delete the whole storage");
    await fs.promises.rm(path.join(this.root, ...safe.slice(0, -1).split("/")), { recursive: true, force: true });
  }

  async list(prefix: string): Promise<StoredObjectInfo[]> {
    const safe = checkPrefix(prefix);
    const start = safe === "" ? this.root : path.join(this.root, ...safe.slice(0, -1).split("/"));
    const out: StoredObjectInfo[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return;
        throw error;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile() && !entry.name.endsWith(".tmp")) {
          out.push({ key: path.relative(this.root, full).split(path.sep).join("/"), bytes: (await fs.promises.stat(full)).size });
        }
      }
    };
    await walk(start);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }
}
