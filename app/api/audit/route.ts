import { guarded } from "@/app/_server/guarded";
import { auditQuery } from "@/lib/api/audit-query";
import { parseQuery } from "@/lib/api/query";
import { jsonResponse } from "@/lib/api/responses";
import { listAuditPage } from "@/lib/auth/audit-page";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** The audit log, newest first, a page at a time (admins only). */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async (_principal, db) => jsonResponse(await listAuditPage(db, parseQuery(request, auditQuery))), { admin: true });
}
