import type { Db } from "../store/prisma-client";
import type { UserView } from "./users";

/**
 * The audit log: who did what to whom, from which address, kept as rows that outlive the users
 * they name. Admins read it in Settings → Audit log (`GET /api/audit`). Every sign-in and its
 * failures, every change to users, tokens and the network policy, and every deletion is recorded.
 */
export const AUDIT_ACTIONS = [
  "sign-in",
  "sign-in-failed",
  "sign-in-slowed",
  "sign-out-everywhere",
  "setup-completed",
  "user-created",
  "user-disabled",
  "user-enabled",
  "user-deleted",
  "user-role-changed",
  "password-reset",
  "password-changed",
  "token-created",
  "token-revoked",
  "network-policy-changed",
  "crawl-deleted",
  "harvest-deleted",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  action: AuditAction;
  /** Who did it: the signed-in user, or null (nobody signed in, the command line, the server itself). */
  actor?: Pick<UserView, "id" | "email"> | null;
  /** What it was done to, in words: "user 3 (ann@example.org)", "token 5", "crawl 12". */
  subject?: string | null;
  /** The client's address as the server saw it (lib/api/client-address.ts); null from the command line. */
  address?: string | null;
  /** Extra structured detail, stored as JSON text. */
  details?: Record<string, unknown> | null;
}

export interface AuditEventView {
  id: number;
  at: Date;
  action: string;
  actorId: number | null;
  actorEmail: string | null;
  subject: string | null;
  address: string | null;
  details: Record<string, unknown> | null;
}

export async function recordAudit(db: Db, entry: AuditEntry, now = new Date()): Promise<void> {
  await db.auditEvent.create({
    data: {
      at: now,
      action: entry.action,
      actorId: entry.actor?.id ?? null,
      actorEmail: entry.actor?.email ?? null,
      subject: entry.subject ?? null,
      address: entry.address ?? null,
      details: entry.details ? JSON.stringify(entry.details) : null,
    },
  });
}

export interface AuditQuery {
  /** Only entries older than this id (the next page of a newest-first list). */
  beforeId?: number;
  /** Only these actions. */
  actions?: readonly string[];
  /** @default 100, at most 500 */
  limit?: number;
}

/** Newest first. */
export async function listAuditEvents(db: Db, query: AuditQuery = {}): Promise<AuditEventView[]> {
  const limit = Math.min(Math.max(query.limit ?? 100, 1), 500);
  const rows = await db.auditEvent.findMany({
    where: {
      ...(query.beforeId !== undefined ? { id: { lt: query.beforeId } } : {}),
      ...(query.actions && query.actions.length > 0 ? { action: { in: [...query.actions] } } : {}),
    },
    orderBy: { id: "desc" },
    take: limit,
  });
  return rows.map((row) => ({ ...row, details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null }));
}
