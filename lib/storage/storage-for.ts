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

/** What the Workers page and the worker's start line say about a storage setting. */
export function describeStorage(config: StorageConfig, dataDir: string): { kind: "local" | "s3"; location: string } {
  if (config.kind === "local") return { kind: "local", location: dataDir };
  return { kind: "s3", location: `s3://${config.bucket}${config.prefix ? `/${config.prefix}` : ""}` };
}
