import type { Db } from "../prisma-client";

/** The event kinds the engine writes about the applications behind a site (crawl-engine.ts, application-actions.ts). */
export const APPLICATION_EVENT_KINDS = ["application-recognised", "application-not-confirmed", "enumeration-finished", "enumeration-closed", "recipes-refused"] as const;

/** What the cockpit says about the application behind the site: what was recognised and why, and how each of its listings went. */
export interface CrawlApplications {
  notes: { level: string; kind: string; message: string }[];
  /** Enumeration action tag path → its readable name (the groups panel shows it). */
  actionNames: Record<string, string>;
}

/** Few rows per crawl (one per application and enumeration): read whole. */
export async function getCrawlApplications(db: Db, crawlId: number): Promise<CrawlApplications> {
  const rows = await db.crawlEvent.findMany({
    where: { crawlId, kind: { in: [...APPLICATION_EVENT_KINDS] } },
    orderBy: { id: "asc" },
    take: 100,
    select: { level: true, kind: true, message: true, data: true },
  });
  const actionNames: Record<string, string> = {};
  for (const row of rows) {
    if (row.kind !== "application-recognised" || !row.data) continue;
    try {
      const data = JSON.parse(row.data) as { actions?: { tagPath?: unknown; name?: unknown }[] };
      for (const action of data.actions ?? []) {
        if (typeof action.tagPath === "string" && typeof action.name === "string") actionNames[action.tagPath] = action.name;
      }
    } catch {
      // An event written by another version: its message still shows.
    }
  }
  return { notes: rows.map(({ level, kind, message }) => ({ level, kind, message })), actionNames };
}
