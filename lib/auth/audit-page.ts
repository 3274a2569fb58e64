import type { Db } from "../store/prisma-client";
import { listAuditEvents, type AuditEventView } from "./audit-log";

export interface AuditPage {
  events: AuditEventView[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: number | null;
}

/** One page of the audit log, newest first, and where the next one starts. */
export async function listAuditPage(db: Db, query: { before?: number; action?: string[]; limit: number }): Promise<AuditPage> {
  // One row more than asked tells whether an older page exists without a second query.
  const rows = await listAuditEvents(db, { beforeId: query.before, actions: query.action, limit: query.limit + 1 });
  const events = rows.slice(0, query.limit);
  return { events, nextBefore: rows.length > query.limit ? events[events.length - 1]!.id : null };
}
