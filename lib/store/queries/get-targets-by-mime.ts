import type { Db } from "../prisma-client";
import { requireCrawl } from "./require-crawl";

/**
 * Targets counted and summed per MIME type, most frequent first.
 * @throws NotFoundError when the crawl does not exist.
 */
export async function getTargetsByMime(db: Db, crawlId: number): Promise<{ mimeTypes: { mime: string; count: number; bytes: number }[] }> {
  await requireCrawl(db, crawlId);
  const rows = await db.target.groupBy({
    by: ["mime"],
    where: { crawlId },
    _count: { _all: true },
    _sum: { bytes: true },
  });
  const mimeTypes = rows
    .map((row) => ({ mime: row.mime, count: row._count._all, bytes: Number(row._sum.bytes ?? 0) }))
    .sort((a, b) => b.count - a.count || a.mime.localeCompare(b.mime));
  return { mimeTypes };
}
