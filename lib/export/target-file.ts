import { Readable } from "node:stream";
import type { ForageConfig } from "../config";
import { NotFoundError } from "../errors";
import type { Db } from "../store/prisma-client";
import type { Download } from "./download";
import { targetFileName } from "./file-names";
import { openStoredFile, statStoredFile } from "./stored-file";

/**
 * One target's stored file, streamed, named like the ZIP names it (without the collision
 * suffix, which only means something inside one archive), streamed from the storage. The
 * Content-Length is the stored size, not `Target.bytes`, so the header never disagrees with the body.
 * @throws NotFoundError for an unknown crawl or target, or "file missing on disk".
 */
export async function openTargetFile(db: Db, config: ForageConfig, crawlId: number, targetId: number): Promise<Download> {
  const target = await db.target.findFirst({
    where: { id: targetId, crawlId },
    select: { url: true, mime: true, storagePath: true },
  });
  if (!target) {
    const crawl = await db.crawl.findUnique({ where: { id: crawlId }, select: { id: true } });
    throw new NotFoundError(crawl ? `Target ${targetId} of crawl ${crawlId}` : `Crawl ${crawlId}`);
  }
  const stored = await statStoredFile(config, target.storagePath);
  if (!stored) throw new NotFoundError(`Target ${targetId}`, `Target ${targetId}: file missing on disk`);
  return {
    stream: Readable.toWeb(await openStoredFile(config, stored.key)) as ReadableStream<Uint8Array>,
    fileName: targetFileName(target.url, target.mime),
    contentType: safeContentType(target.mime),
    contentLength: stored.size,
  };
}

/** The stored type when it is a well-formed media type, else a neutral binary type (never a header injection). */
function safeContentType(mime: string): string {
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;\s*[a-z0-9!#$&^_.+-]+=("[^"\r\n]*"|[a-z0-9!#$&^_.+-]+))*$/i.test(mime)
    ? mime
    : "application/octet-stream";
}
