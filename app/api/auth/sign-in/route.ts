import { guardedAnonymous } from "@/app/_server/guarded";
import { signedInResponse } from "@/app/_server/session-response";
import { parseJsonBody } from "@/lib/api/body";
import { UnauthorizedError } from "@/lib/api/errors";
import { SignInThrottle } from "@/lib/auth/sign-in-throttle";
import { authenticateUser } from "@/lib/auth/users";
import { z } from "zod";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const signInBody = z.strictObject({ email: z.string().max(254), password: z.string().max(1024) });
const throttle = new SignInThrottle();

/** Email and password → a session cookie. One message for every failure: it tells nobody which emails exist. */
export async function POST(request: Request): Promise<Response> {
  return guardedAnonymous(request, async (_principal, db) => {
    const { email, password } = await parseJsonBody(request, signInBody);
    const key = email.trim().toLowerCase();
    throttle.check(key);
    const user = await authenticateUser(db, email, password);
    if (!user) {
      throttle.fail(key);
      throw new UnauthorizedError("Wrong email or password");
    }
    throttle.succeed(key);
    return signedInResponse(db, user);
  });
}
