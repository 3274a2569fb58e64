import { auditContext } from "@/app/_server/audit-context";
import { guarded } from "@/app/_server/guarded";
import { parseId } from "@/lib/api/ids";
import { jsonResponse } from "@/lib/api/responses";
import { revokeApiToken } from "@/lib/auth/api-tokens";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Revokes a token at once (admins only); it stays listed as revoked. */
export async function DELETE(request: Request, { params }: { params: Promise<{ id: string }> }): Promise<Response> {
  return guarded(
    request,
    async (principal, db) => jsonResponse({ apiToken: await revokeApiToken(db, parseId((await params).id, "API token"), new Date(), auditContext(principal, request)) }),
    { admin: true },
  );
}
