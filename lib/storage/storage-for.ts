import { loadStorageConfig, type StorageConfig } from "../config";
import { LocalFolderStorage } from "./local-folder-storage";
import type { ObjectStorage } from "./object-storage";
import { S3Storage } from "./s3-storage";

const opened = new Map<string, ObjectStorage>();

/**
 * The storage of a process whose data folder is `dataDir`: the folder itself, or the bucket
 * FORAGE_STORAGE_URL names (the data folder then is the worker's scratch space: files being
 * written, local copies). One instance per folder and setting, shared by the process.
 */
export function storageFor(dataDir: string, config: StorageConfig = loadStorageConfig()): ObjectStorage {
  const id = `${dataDir}\n${JSON.stringify(config)}`;
  let storage = opened.get(id);
  if (!storage) {
    storage = config.kind === "local" ? new LocalFolderStorage(dataDir) : new S3Storage(config);
    opened.set(id, storage);
  }
  return storage;
}

/** What the Workers page says about a storage setting (the local folder's path stays private). */
export interface StorageSummary {
  kind: "local" | "s3";
  /** `s3://bucket/prefix`; null for the local folder. */
  location: string | null;
}

export function describeStorage(config: StorageConfig): StorageSummary {
  if (config.kind === "local") return { kind: "local", location: null };
  return { kind: "s3", location: `s3://${config.bucket}${config.prefix ? `/${config.prefix}` : ""}` };
}

/** A storage setting as one word for a `Worker` row: "local", or the bucket's `s3://bucket/prefix`. */
export function storageLabel(config: StorageConfig): string {
  return describeStorage(config).location ?? "local";
}
