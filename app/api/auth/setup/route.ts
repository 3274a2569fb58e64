import { guardedAnonymous } from "@/app/_server/guarded";
import { signedInResponse } from "@/app/_server/session-response";
import { parseJsonBody } from "@/lib/api/body";
import { clientAddress } from "@/lib/api/client-address";
import { completeSetup } from "@/lib/auth/setup-link";
import { z } from "zod";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const setupBody = z.strictObject({ token: z.string().max(200), email: z.string().max(254), password: z.string().max(1024) });

/** The one-time setup link's form: creates the first admin and signs them in. */
export async function POST(request: Request): Promise<Response> {
  return guardedAnonymous(request, async (_principal, db) => {
    const { token, email, password } = await parseJsonBody(request, setupBody);
    return signedInResponse(db, await completeSetup(db, token, { email, password }, new Date(), clientAddress(request)), 201);
  });
}
