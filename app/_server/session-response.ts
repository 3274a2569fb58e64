import "server-only";
import { createSession } from "@/lib/auth/sessions";
import type { UserView } from "@/lib/auth/users";
import { jsonResponse } from "@/lib/api/responses";
import { serializeSessionCookie } from "@/lib/api/session-cookie";
import type { Db } from "@/lib/store";
import { getSameOrigin } from "./db";

/** Signs the user in: a new session, its cookie, and the user as the answer. */
export async function signedInResponse(db: Db, user: UserView, status = 200): Promise<Response> {
  const session = await createSession(db, user.id);
  return jsonResponse({ user }, { status, headers: { "set-cookie": serializeSessionCookie(session.secret, session.expiresAt, getSameOrigin().secure) } });
}
