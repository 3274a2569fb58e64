import fs from "node:fs/promises";
import path from "node:path";
import type { ForageConfig } from "../../config";
import type { Db } from "../prisma-client";
import { storageFor } from "../../storage/storage-for";
import { crawlFolder } from "../target-files";

/**
 * `<dataDir>/crawls/<id>/`: every file of one crawl (targets under `files/`, stored HTML
 * bodies, temporary downloads) lives below it (layout: lib/store/target-files.ts), so
 * discarding a crawl's data is removing one folder.
 */
export function crawlFolderPath(config: ForageConfig, crawlId: number): string {
  return path.join(config.dataDir, crawlFolder(crawlId));
}

/**
 * What "cancel" throws away: the crawl's folder and the rows that point into it (targets,
 * stored bodies) and its checkpoint (a cancelled crawl never resumes). The request log,
 * metrics, groups and events stay as the record of what happened. Used when the API cancels a
 * crawl no worker holds; the worker applying a pending cancel must do the same.
 */
export async function discardCrawlFiles(db: Db, config: ForageConfig, crawlId: number): Promise<void> {
  await db.target.deleteMany({ where: { crawlId } });
  await db.storedBody.deleteMany({ where: { crawlId } });
  await db.crawlCheckpoint.deleteMany({ where: { crawlId } });
  await fs.rm(crawlFolderPath(config, crawlId), { recursive: true, force: true });
  await removeStoredCrawl(config, crawlId);
}

/** Removes the crawl's objects from a shared bucket (the local folder went with the folder). */
export async function removeStoredCrawl(config: ForageConfig, crawlId: number): Promise<void> {
  const storage = storageFor(config.dataDir, config.storage);
  if (storage.kind !== "local") await storage.deletePrefix(crawlFolder(crawlId).split(path.sep).join("/"));
}
