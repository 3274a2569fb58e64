import type { ForageConfig } from "../config";
import { statStoredFile } from "../export/stored-file";
import { storageFor } from "../storage/storage-for";
import type { PreviewSource } from "./preview-file";

/** A stored object (`Target.storagePath`) as a preview source, read through the storage; null when it is not there. */
export async function storedPreviewSource(config: ForageConfig, storagePath: string): Promise<PreviewSource | null> {
  const stored = await statStoredFile(config, storagePath);
  if (!stored) return null;
  const storage = storageFor(config.dataDir, config.storage);
  return {
    size: stored.size,
    readHead: async (length) => (stored.size === 0 || length <= 0 ? Buffer.alloc(0) : storage.read(stored.key, { offset: 0, length: Math.min(length, stored.size) })),
  };
}
