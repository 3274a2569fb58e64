import { auditContext } from "@/app/_server/audit-context";
import { getSameOrigin } from "@/app/_server/db";
import { guarded } from "@/app/_server/guarded";
import { parseJsonBody } from "@/lib/api/body";
import { jsonResponse } from "@/lib/api/responses";
import { readSessionCookie } from "@/lib/api/session-cookie";
import { changeOwnPassword, passwordChangeSchema } from "@/lib/auth/account";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** `{ currentPassword, newPassword }`: changes the caller's own password; their other sessions end, this one stays. */
export async function POST(request: Request): Promise<Response> {
  return guarded(request, async (principal, db) => {
    const change = await parseJsonBody(request, passwordChangeSchema);
    const thisSession = principal.via === "session" ? readSessionCookie(request.headers.get("cookie"), getSameOrigin().secure) : null;
    return jsonResponse(await changeOwnPassword(db, principal.user, change, thisSession, auditContext(principal, request)));
  });
}
