import "server-only";
import { guardRequest, type GuardPolicy, type Principal } from "@/lib/api/guard";
import { handle } from "@/lib/api/handle";
import type { Db } from "@/lib/store";
import { getDb, getSameOrigin } from "./db";

/**
 * A route handler's body behind the API guard (lib/api/guard.ts): Host, credentials, role,
 * Origin and content type are checked before `run` does any work; errors become the API's
 * error shape. Every route under app/api goes through this or `guardedAnonymous`.
 */
export async function guarded(request: Request, run: (principal: Principal, db: Db) => Promise<Response>, policy: Omit<GuardPolicy, "anonymous"> = {}): Promise<Response> {
  return handle(async () => {
    const db = await getDb();
    const principal = await guardRequest(request, db, getSameOrigin(), policy);
    return run(principal!, db);
  });
}

/** `guarded` for the few routes used before signing in (sign-in, setup): Host and Origin are still checked. */
export async function guardedAnonymous(request: Request, run: (principal: Principal | null, db: Db) => Promise<Response>): Promise<Response> {
  return handle(async () => {
    const db = await getDb();
    return run(await guardRequest(request, db, getSameOrigin(), { anonymous: true }), db);
  });
}
