import { getSameOrigin } from "@/app/_server/db";
import { guardedAnonymous } from "@/app/_server/guarded";
import { deleteSession } from "@/lib/auth/sessions";
import { clearSessionCookie, readSessionCookie } from "@/lib/api/session-cookie";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Ends the browser's session (the row goes, so a copied cookie is worthless too) and clears the cookie. */
export async function POST(request: Request): Promise<Response> {
  return guardedAnonymous(request, async (_principal, db) => {
    const { secure } = getSameOrigin();
    const secret = readSessionCookie(request.headers.get("cookie"), secure);
    if (secret) await deleteSession(db, secret);
    return new Response(null, { status: 204, headers: { "set-cookie": clearSessionCookie(secure), "cache-control": "no-store" } });
  });
}
