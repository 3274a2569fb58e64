import { guardedAnonymous } from "@/app/_server/guarded";
import { signedInResponse } from "@/app/_server/session-response";
import { getSignInThrottle } from "@/app/_server/sign-in-throttle";
import { parseJsonBody } from "@/lib/api/body";
import { clientAddress } from "@/lib/api/client-address";
import { UnauthorizedError } from "@/lib/api/errors";
import { recordAudit } from "@/lib/auth/audit-log";
import { authenticateUser, findUserByEmail } from "@/lib/auth/users";
import { z } from "zod";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const signInBody = z.strictObject({ email: z.string().max(254), password: z.string().max(1024) });

/**
 * Email and password → a session cookie. One message for every failure: it tells nobody which
 * emails exist. The attempt is reserved with the throttle before the password is checked, so
 * guesses sent at once are limited like guesses sent one by one.
 */
export async function POST(request: Request): Promise<Response> {
  return guardedAnonymous(request, async (_principal, db) => {
    const { email, password } = await parseJsonBody(request, signInBody);
    const throttle = await getSignInThrottle();
    const address = clientAddress(request);
    const typed = email.trim().toLowerCase();
    const attempt = { email: typed, accountExists: (await findUserByEmail(db, email)) !== null, address };
    const slowDowns = await throttle.reserve(attempt);
    for (const slowDown of slowDowns) {
      const { kind, ...details } = slowDown;
      await recordAudit(db, { action: "sign-in-slowed", subject: kind === "address" ? `address ${slowDown.address}` : `account ${slowDown.email}`, address, details });
    }
    const user = await authenticateUser(db, email, password);
    if (!user) {
      await recordAudit(db, { action: "sign-in-failed", subject: typed, address });
      throw new UnauthorizedError("Wrong email or password");
    }
    await throttle.succeeded(attempt);
    await recordAudit(db, { action: "sign-in", actor: user, subject: `user ${user.id} (${user.email})`, address });
    return signedInResponse(db, user);
  });
}
