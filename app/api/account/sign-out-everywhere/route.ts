import { auditContext } from "@/app/_server/audit-context";
import { getSameOrigin } from "@/app/_server/db";
import { guarded } from "@/app/_server/guarded";
import { jsonResponse } from "@/lib/api/responses";
import { clearSessionCookie } from "@/lib/api/session-cookie";
import { signOutEverywhere } from "@/lib/auth/account";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Ends every session of the caller, on every browser, this one included (its cookie is cleared). */
export async function POST(request: Request): Promise<Response> {
  return guarded(request, async (principal, db) => {
    const ended = await signOutEverywhere(db, principal.user, auditContext(principal, request));
    return jsonResponse(ended, { headers: { "set-cookie": clearSessionCookie(getSameOrigin().secure) } });
  });
}
