import "server-only";
import type { Principal } from "@/lib/api/guard";
import { clientAddress } from "@/lib/api/client-address";
import type { AuditContext } from "@/lib/auth/audit-context";

/** The audit log's who and from where for a request: the guard's user and the address the dashboard server saw. */
export function auditContext(principal: Principal, request: Request): AuditContext {
  return { actor: principal.user, address: clientAddress(request), ...(principal.via === "token" ? { details: { via: "token" } } : {}) };
}
