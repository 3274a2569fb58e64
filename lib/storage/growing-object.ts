import fs from "node:fs";
import path from "node:path";
import { PassThrough, type Readable, type Writable } from "node:stream";
import { LocalFolderStorage } from "./local-folder-storage";
import { ObjectNotFoundError, type ByteRange, type ObjectStorage, type StoredObjectInfo } from "./object-storage";

/**
 * A file a worker appends to while a crawl runs (a WARC file, its CDXJ sidecar, a page pack),
 * published before it is closed: each durable point uploads the bytes added since the last as
 * a part, `<key>.parts/<offset>`; closing uploads the whole file and removes the parts. Another
 * worker that takes the crawl over, or the dashboard, reads the object from its parts until
 * then. Object stores cannot append, and S3 multipart parts must be 5 MiB but the last: parts
 * as objects are the way to make every durable point durable in the bucket.
 */
const PARTS = ".parts/";
const OFFSET_DIGITS = 16;

export function partKey(key: string, offset: number): string {
  return `${key}${PARTS}${String(offset).padStart(OFFSET_DIGITS, "0")}`;
}

/**
 * Parts after which the writer should close the file and start another: readers list every part
 * of an open file, and the whole upload at close replaces them by one object.
 */
export const MAX_PARTS = 400;

export class GrowingObject {
  private published = 0;
  /** Parts uploaded since the last whole upload. */
  parts = 0;
  /** Uploaded whole: the local file is gone and there is no tail left to publish. */
  private whole = false;
  private chain: Promise<void> = Promise.resolve();
  /** Whether the local file already is the stored object (the local folder). */
  private readonly inPlace: boolean;

  constructor(
    private readonly storage: ObjectStorage,
    readonly key: string,
    private readonly localPath: string,
  ) {
    this.inPlace = storage instanceof LocalFolderStorage && storage.pathOf(key) === path.resolve(localPath);
  }

  /**
   * Uploads what the file gained since the last call as one part (nothing for the local folder,
   * nothing once the file was uploaded whole: a durable point that comes after the close has
   * nothing to add, and the local file it would read is gone).
   */
  publishTail(): Promise<void> {
    if (this.inPlace) return Promise.resolve();
    return this.enqueue(async () => {
      if (this.whole) return;
      const size = (await fs.promises.stat(this.localPath)).size;
      if (size <= this.published) return;
      const handle = await fs.promises.open(this.localPath, "r");
      try {
        const bytes = Buffer.alloc(size - this.published);
        await handle.read(bytes, 0, bytes.length, this.published);
        await this.storage.put(partKey(this.key, this.published), bytes);
      } finally {
        await handle.close();
      }
      this.published = size;
      this.parts += 1;
    });
  }

  /** Uploads the closed file whole, then removes its parts and the local file (the bucket's copy is the one read from then on). */
  publishWhole(): Promise<void> {
    if (this.inPlace) return Promise.resolve();
    return this.enqueue(async () => {
      await this.storage.putFile(this.key, this.localPath);
      await this.storage.deletePrefix(this.key + PARTS);
      await fs.promises.rm(this.localPath, { force: true });
      this.parts = 0;
      this.whole = true;
    });
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.chain.then(task);
    this.chain = run.catch(() => undefined);
    return run;
  }
}

interface Part {
  key: string;
  offset: number;
  bytes: number;
}

async function partsOf(storage: ObjectStorage, key: string): Promise<Part[]> {
  const listed = await storage.list(key + PARTS);
  return listed
    .map((item) => ({ key: item.key, offset: Number(item.key.slice(item.key.lastIndexOf("/") + 1)), bytes: item.bytes }))
    .filter((part) => Number.isSafeInteger(part.offset))
    .sort((a, b) => a.offset - b.offset);
}

/** The object's bytes in `range` (all of them without one): from the whole object, else from its parts. */
export async function readGrowingObject(storage: ObjectStorage, key: string, range?: ByteRange): Promise<Buffer> {
  try {
    return await storage.read(key, range);
  } catch (error) {
    if (!(error instanceof ObjectNotFoundError)) throw error;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of await openFromParts(storage, key, range)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** The object as a stream: the whole object, else its parts one after the other. @throws ObjectNotFoundError */
export async function openGrowingObject(storage: ObjectStorage, key: string, range?: ByteRange): Promise<Readable> {
  try {
    return await storage.get(key, range);
  } catch (error) {
    if (!(error instanceof ObjectNotFoundError)) throw error;
  }
  return openFromParts(storage, key, range);
}

async function openFromParts(storage: ObjectStorage, key: string, range?: ByteRange): Promise<Readable> {
  const parts = await partsOf(storage, key);
  if (parts.length === 0) throw new ObjectNotFoundError(key);
  const start = range?.offset ?? 0;
  const end = range ? range.offset + range.length : parts[parts.length - 1]!.offset + parts[parts.length - 1]!.bytes;
  const out = new PassThrough();
  (async () => {
    let position = start;
    for (const part of parts) {
      if (part.offset + part.bytes <= position || part.offset >= end) continue;
      if (part.offset > position) throw new Error(`${key}: a gap in its parts at byte ${position}`);
      const from = position - part.offset;
      const length = Math.min(part.bytes, end - part.offset) - from;
      // Leaving the loop early (the reader went away) destroys the part's stream: an S3 body
      // left unread would hold its connection until the socket times out.
      for await (const chunk of await storage.get(part.key, { offset: from, length })) {
        if (!(await writeOrGone(out, chunk as Buffer))) return;
      }
      position += length;
    }
    if (position < end) throw new Error(`${key}: its parts end at byte ${position}, before ${end}`);
    out.end();
  })().catch((error: unknown) => out.destroy(error instanceof Error ? error : new Error(String(error))));
  return out;
}

/**
 * Writes `chunk` and waits until `out` wants more; false when `out` is destroyed instead (its
 * reader went away, so no `drain` will ever come).
 */
async function writeOrGone(out: Writable, chunk: Buffer): Promise<boolean> {
  if (out.destroyed) return false;
  if (out.write(chunk)) return true;
  if (out.destroyed) return false;
  return new Promise((resolve) => {
    const settle = (wanted: boolean) => () => {
      out.off("drain", onDrain);
      out.off("close", onGone);
      resolve(wanted);
    };
    const onDrain = settle(true);
    const onGone = settle(false);
    out.on("drain", onDrain);
    // A stream destroyed with or without an error emits "close".
    out.on("close", onGone);
  });
}

/**
 * The objects under `prefix` as readers see them: a growing object's parts count as one object
 * (its key, their total size) until its whole upload replaces them.
 */
export async function listGrowingObjects(storage: ObjectStorage, prefix: string): Promise<StoredObjectInfo[]> {
  const whole = new Map<string, number>();
  const grown = new Map<string, number>();
  for (const item of await storage.list(prefix)) {
    const at = item.key.indexOf(PARTS);
    if (at < 0) whole.set(item.key, item.bytes);
    else {
      const key = item.key.slice(0, at);
      const offset = Number(item.key.slice(at + PARTS.length));
      grown.set(key, Math.max(grown.get(key) ?? 0, offset + item.bytes));
    }
  }
  for (const [key, bytes] of grown) if (!whole.has(key)) whole.set(key, bytes);
  return [...whole].map(([key, bytes]) => ({ key, bytes })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
