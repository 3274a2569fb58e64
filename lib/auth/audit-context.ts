import type { AuditAction } from "./audit-log";
import { recordAudit } from "./audit-log";
import type { Db } from "../store/prisma-client";
import type { UserView } from "./users";

/**
 * Who is acting and from where, handed to the lib functions that change accounts, tokens,
 * crawls and harvests so that each records its own audit entry (the route cannot forget to).
 */
export interface AuditContext {
  /** The signed-in user; null for the command line. */
  actor: Pick<UserView, "id" | "email"> | null;
  /** lib/api/client-address.ts; null for the command line. */
  address: string | null;
  /** Added to every entry's details, e.g. `{ via: "cli" }`. */
  details?: Record<string, unknown>;
}

/** What the `forage` command line records: nobody signed in, no address. */
export const CLI_AUDIT: AuditContext = { actor: null, address: null, details: { via: "cli" } };

/** Records `action` on `subject` in this context; `details` are merged with the context's. */
export async function audit(db: Db, context: AuditContext, action: AuditAction, subject: string | null, details?: Record<string, unknown>): Promise<void> {
  const merged = { ...context.details, ...details };
  await recordAudit(db, { action, actor: context.actor, address: context.address, subject, details: Object.keys(merged).length > 0 ? merged : null });
}

/** "user 3 (ann@example.org)", the subject of entries about a user. */
export function userSubject(user: Pick<UserView, "id" | "email">): string {
  return `user ${user.id} (${user.email})`;
}
