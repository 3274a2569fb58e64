import { auditContext } from "@/app/_server/audit-context";
import { guarded } from "@/app/_server/guarded";
import { parseJsonBody } from "@/lib/api/body";
import { InvalidRequestError } from "@/lib/errors";
import { jsonResponse } from "@/lib/api/responses";
import { createApiToken, listApiTokens } from "@/lib/auth/api-tokens";
import { findUserByEmail } from "@/lib/auth/users";
import { z } from "zod";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

/** Every API token, revoked ones included (admins only); never the tokens themselves. */
export async function GET(request: Request): Promise<Response> {
  return guarded(request, async (_principal, db) => jsonResponse({ tokens: await listApiTokens(db) }), { admin: true });
}

const newTokenBody = z.strictObject({ name: z.string().max(1000), userEmail: z.string().max(254).optional() });

/** Creates a token for a user (the admin asking, by default); the answer holds the token, shown this once. */
export async function POST(request: Request): Promise<Response> {
  return guarded(
    request,
    async (principal, db) => {
      const { name, userEmail } = await parseJsonBody(request, newTokenBody);
      const user = userEmail === undefined ? principal.user : await findUserByEmail(db, userEmail);
      if (!user) throw new InvalidRequestError({ userEmail: "has no account" });
      const { token, view } = await createApiToken(db, user.id, name, auditContext(principal, request));
      return jsonResponse({ token, apiToken: view }, { status: 201 });
    },
    { admin: true },
  );
}
