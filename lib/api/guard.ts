import { sessionUser } from "../auth/sessions";
import { tokenUser } from "../auth/api-tokens";
import type { UserView } from "../auth/users";
import type { Db } from "../store/prisma-client";
import { ForbiddenError, UnauthorizedError, UnsupportedMediaTypeError } from "./errors";
import type { SameOrigin } from "./same-origin";
import { readSessionCookie } from "./session-cookie";

/** Who is asking, and how they proved it. */
export interface Principal {
  user: UserView;
  via: "session" | "token";
}

export interface GuardPolicy {
  /** Only admins (users, tokens, network policy). */
  admin?: boolean;
  /** No credentials needed (sign-in, setup); Host and Origin are still checked. */
  anonymous?: boolean;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Every API request passes here before any work, in this order: Host is this server's
 * (rebinding), credentials (session cookie or bearer token: 401), the role (403), and for
 * state-changing methods the Origin (403) and a JSON body (415).
 */
export async function guardRequest(request: Request, db: Db, sameOrigin: SameOrigin, policy: GuardPolicy = {}): Promise<Principal | null> {
  sameOrigin.checkHost(request);
  const principal = await authenticate(request, db, sameOrigin.secure);
  if (!SAFE_METHODS.has(request.method)) {
    sameOrigin.checkWriteOrigin(request, { cookieAuthenticated: principal?.via === "session" });
    const contentType = request.headers.get("content-type");
    if (contentType !== null && !isJson(contentType)) throw new UnsupportedMediaTypeError(contentType);
  }
  if (!principal) {
    if (policy.anonymous) return null;
    throw new UnauthorizedError();
  }
  if (policy.admin && principal.user.role !== "admin") throw new ForbiddenError("Only an admin may do this");
  return principal;
}

async function authenticate(request: Request, db: Db, secure: boolean): Promise<Principal | null> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    const user = match ? await tokenUser(db, match[1]!) : null;
    // A wrong token is an error even where anonymous access is fine: a script must learn its token is bad.
    if (!user) throw new UnauthorizedError("The API token is not valid (unknown, revoked, or its user disabled)");
    return { user, via: "token" };
  }
  const secret = readSessionCookie(request.headers.get("cookie"), secure);
  const user = secret ? await sessionUser(db, secret) : null;
  return user ? { user, via: "session" } : null;
}

function isJson(contentType: string): boolean {
  return /^application\/json\s*(;|$)/i.test(contentType.trim());
}
