import type { Db } from "../prisma-client";
import { toPage } from "./paging";
import { requireCrawl } from "./require-crawl";

/** One collected file (docs/API.md `Target`). */
export interface TargetView {
  id: number;
  url: string;
  mime: string;
  bytes: number;
  sha256: string;
  sourceUrl: string | null;
  tagPath: string | null;
  groupId: number | null;
  requestSeq: number;
  fetchedAt: string;
  /** The type the file's first bytes showed, and whether it agrees with `mime` (null: nothing detected). */
  detectedMime: string | null;
  typeMatch: boolean | null;
  /** Where the API serves the file. */
  fileUrl: string;
}

export interface TargetsPageOptions {
  /** The previous page's `nextCursor`. */
  cursor?: number;
  /** @default 100 */
  limit?: number;
  /** Only this MIME type (exact, lower case). */
  mime?: string;
  /** Only files whose bytes showed another type than `mime` (typeMatch false). */
  mismatched?: boolean;
}

/**
 * Targets in collection order (ascending id), a page at a time. The cursor is the last id
 * seen, so pages neither repeat nor skip rows while the worker keeps adding targets (an
 * offset would shift under inserts).
 * @throws NotFoundError when the crawl does not exist.
 */
export async function getTargetsPage(
  db: Db,
  crawlId: number,
  { cursor, limit = 100, mime, mismatched }: TargetsPageOptions = {},
): Promise<{ targets: TargetView[]; nextCursor: string | null; mismatches: number }> {
  await requireCrawl(db, crawlId);
  const rows = await db.target.findMany({
    where: { crawlId, ...(cursor !== undefined ? { id: { gt: cursor } } : {}), ...(mime ? { mime: mime.toLowerCase() } : {}), ...(mismatched ? { typeMatch: false } : {}) },
    orderBy: { id: "asc" },
    take: limit + 1,
  });
  const mismatches = await db.target.count({ where: { crawlId, typeMatch: false } });
  const page = toPage(rows, limit);
  return {
    targets: page.items.map((row) => ({
      id: row.id,
      url: row.url,
      mime: row.mime,
      bytes: row.bytes,
      sha256: row.sha256,
      sourceUrl: row.sourceUrl,
      tagPath: row.tagPath,
      groupId: row.groupId,
      requestSeq: row.requestSeq,
      fetchedAt: row.fetchedAt.toISOString(),
      detectedMime: row.detectedMime,
      typeMatch: row.typeMatch,
      fileUrl: `/api/crawls/${crawlId}/targets/${row.id}/file`,
    })),
    nextCursor: page.nextCursor,
    mismatches,
  };
}
