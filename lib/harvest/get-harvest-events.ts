import { NotFoundError } from "../errors";
import type { Db } from "../store/prisma-client";
import { toPage } from "../store/queries/paging";

/** One line of a harvest's log. */
export interface HarvestEventView {
  id: number;
  at: string;
  kind: string;
  message: string;
  details: unknown;
}

/**
 * A harvest's events, newest first, a page at a time (cursor = last id seen).
 * @throws NotFoundError for an unknown harvest.
 */
export async function getHarvestEvents(
  db: Db,
  harvestId: number,
  { cursor, limit = 100 }: { cursor?: number; limit?: number } = {},
): Promise<{ events: HarvestEventView[]; nextCursor: string | null }> {
  const found = await db.harvest.findUnique({ where: { id: harvestId }, select: { id: true } });
  if (!found) throw new NotFoundError(`Harvest ${harvestId}`);
  const rows = await db.harvestEvent.findMany({
    where: { harvestId, ...(cursor !== undefined ? { id: { lt: cursor } } : {}) },
    orderBy: { id: "desc" },
    take: limit + 1,
  });
  const page = toPage(rows, limit);
  return {
    events: page.items.map((row) => ({ id: row.id, at: row.at.toISOString(), kind: row.kind, message: row.message, details: row.details ? (JSON.parse(row.details) as unknown) : null })),
    nextCursor: page.nextCursor,
  };
}
