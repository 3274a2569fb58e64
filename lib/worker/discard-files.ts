import fs from "node:fs";
import path from "node:path";
import type { ForageConfig } from "../config";
import type { Db } from "../store/prisma-client";
import { crawlFolder } from "../store/target-files";

/** Cancel: the crawl's files and target rows go; its request log and events stay as a record. */
export async function discardCrawlFiles(db: Db, forage: ForageConfig, crawlId: number): Promise<void> {
  await db.target.deleteMany({ where: { crawlId } });
  await db.storedBody.deleteMany({ where: { crawlId } });
  await fs.promises.rm(path.join(forage.dataDir, crawlFolder(crawlId)), { recursive: true, force: true });
}
