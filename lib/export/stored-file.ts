import fs from "node:fs/promises";
import path from "node:path";
import type { ForageConfig } from "../config";

/**
 * The absolute path of a stored file, or null when `storagePath` would leave the data folder
 * (an absolute path or `..` in a row must never make the API read /etc/passwd).
 */
export function resolveStoredPath(config: ForageConfig, storagePath: string): string | null {
  const root = path.resolve(config.dataDir);
  const absolute = path.resolve(root, storagePath);
  return absolute.startsWith(root + path.sep) ? absolute : null;
}

/** The file's size when it exists as a regular file inside the data folder, else null. */
export async function statStoredFile(config: ForageConfig, storagePath: string): Promise<{ path: string; size: number } | null> {
  const absolute = resolveStoredPath(config, storagePath);
  if (!absolute) return null;
  try {
    const stat = await fs.stat(absolute);
    return stat.isFile() ? { path: absolute, size: stat.size } : null;
  } catch {
    return null;
  }
}
