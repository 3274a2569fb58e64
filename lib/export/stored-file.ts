import type { Readable } from "node:stream";
import type { ForageConfig } from "../config";
import { InvalidKeyError, ObjectNotFoundError } from "../storage/object-storage";
import { storageFor } from "../storage/storage-for";

/**
 * A stored file named by a row (`Target.storagePath`): its size when the storage holds it, else
 * null. A path leaving the storage (absolute, `..`) is null too: a row must never make the API
 * read /etc/passwd.
 */
export async function statStoredFile(config: ForageConfig, storagePath: string): Promise<{ key: string; size: number } | null> {
  try {
    const head = await storageFor(config.dataDir, config.storage).head(storagePath);
    return head ? { key: storagePath, size: head.bytes } : null;
  } catch (error) {
    if (error instanceof InvalidKeyError) return null;
    throw error;
  }
}

/** The stored file's bytes as a stream. @throws ObjectNotFoundError when it is gone */
export async function openStoredFile(config: ForageConfig, key: string): Promise<Readable> {
  try {
    return await storageFor(config.dataDir, config.storage).get(key);
  } catch (error) {
    if (error instanceof InvalidKeyError) throw new ObjectNotFoundError(key);
    throw error;
  }
}
