import type { ForageConfig } from "../config";
import { NotFoundError } from "../errors";
import type { Db } from "../store/prisma-client";
import { previewFile, previewFormatOf } from "./preview-file";
import type { FilePreview } from "./preview-types";
import { storedPreviewSource } from "./stored-preview-source";

/**
 * The preview of one target of one crawl, from its stored bytes (never the site).
 * @throws NotFoundError for an unknown crawl, a target of another crawl, or a file missing from the storage
 * @throws PreviewError when the file cannot be previewed
 */
export async function previewTarget(db: Db, config: ForageConfig, crawlId: number, targetId: number): Promise<FilePreview> {
  const target = await db.target.findFirst({ where: { id: targetId, crawlId }, select: { url: true, mime: true, detectedMime: true, storagePath: true } });
  if (!target) {
    const crawl = await db.crawl.findUnique({ where: { id: crawlId }, select: { id: true } });
    throw new NotFoundError(crawl ? `Target ${targetId} of crawl ${crawlId}` : `Crawl ${crawlId}`);
  }
  const source = await storedPreviewSource(config, target.storagePath);
  if (!source) throw new NotFoundError(`Target ${targetId}`, `Target ${targetId}: file missing on disk`);
  return previewFile(source, previewFormatOf(target.mime, target.detectedMime, target.url));
}
