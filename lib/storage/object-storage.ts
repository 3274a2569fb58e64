import type { Readable } from "node:stream";

/** A byte range of an object: `length` bytes from `offset`. */
export interface ByteRange {
  offset: number;
  length: number;
}

export interface StoredObjectInfo {
  /** The object's key, relative to the storage's root (`crawls/12/files/<sha256>`). */
  key: string;
  bytes: number;
}

/**
 * Where Forage keeps every byte of a crawl (target files, page packs, WARC files and their
 * CDXJ sidecars, re-crawl documents): a local folder or an S3-compatible bucket. Keys are
 * relative paths with `/` separators, the same as the layout under FORAGE_DATA_DIR, so a key is
 * also where a worker writes the object locally before it is published.
 */
export interface ObjectStorage {
  readonly kind: "local" | "s3";
  /** What an operator would recognise: the folder, or `s3://bucket/prefix`. */
  readonly location: string;
  /** Stores bytes under `key`, replacing what was there (large streams go as multipart uploads). */
  put(key: string, body: Buffer | Readable): Promise<void>;
  /**
   * Stores a local file under `key`. For the local folder, a file already at the key's path is
   * left as it is (workers write there directly).
   */
  putFile(key: string, localPath: string): Promise<void>;
  /** The object's bytes (or a range of them) as a stream. @throws ObjectNotFoundError */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The object's bytes (or a range of them) in memory. @throws ObjectNotFoundError */
  read(key: string, range?: ByteRange): Promise<Buffer>;
  /** The object's size, or null when there is none. */
  head(key: string): Promise<{ bytes: number } | null>;
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  /** Every object under `prefix`, by key. */
  list(prefix: string): Promise<StoredObjectInfo[]>;
}

export class ObjectNotFoundError extends Error {
  override name = "ObjectNotFoundError";
  constructor(readonly key: string) {
    super(`no stored object ${key}`);
  }
}

/**
 * A key made safe: relative, `/`-separated, no `.` or `..` segment, no empty segment. Rows name
 * keys (`Target.storagePath`), and a row must never make the server read outside its storage.
 * @throws Error for a key that would leave the storage
 */
export function checkKey(key: string): string {
  const normalised = key.replaceAll("\\", "/");
  if (normalised === "" || normalised.startsWith("/") || normalised.split("/").some((s) => s === "" || s === "." || s === "..")) {
    throw new InvalidKeyError(key);
  }
  return normalised;
}

export class InvalidKeyError extends Error {
  override name = "InvalidKeyError";
  constructor(readonly key: string) {
    super(`invalid storage key ${JSON.stringify(key.slice(0, 200))}`);
  }
}

/** A prefix made safe: as a key, or "" for everything; ends with "/" when not empty. */
export function checkPrefix(prefix: string): string {
  if (prefix === "") return "";
  return `${checkKey(prefix.replace(/\/+$/, ""))}/`;
}
