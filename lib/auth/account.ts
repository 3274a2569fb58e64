import { z } from "zod";
import { InvalidRequestError, NotFoundError } from "../errors";
import type { Db } from "../store/prisma-client";
import { audit, userSubject, type AuditContext } from "./audit-context";
import { checkCurrentPasswordGuesses, clearCurrentPasswordGuesses, recordWrongCurrentPassword } from "./current-password-guard";
import { passwordStrengthProblem } from "./password-strength";
import { hashPassword, verifyPassword } from "./passwords";
import { deleteUserSessions } from "./sessions";
import type { UserView } from "./users";

/** What every user does to their own account: change the password, sign out everywhere. */

export const passwordChangeSchema = z.strictObject({
  currentPassword: z.string().max(1024, "is longer than 1024 characters"),
  newPassword: z.string().max(1024, "is longer than 1024 characters"),
});
export type PasswordChange = z.output<typeof passwordChangeSchema>;

/**
 * Changes the user's password, the current one required (a borrowed session alone cannot take
 * the account). Every other session ends; the one asking (`keepSessionSecret`) stays signed in.
 * Wrong current passwords are counted: after 5 in 15 minutes, 429 (current-password-guard.ts).
 * @throws InvalidRequestError naming currentPassword or newPassword, TooManyRequestsError
 */
export async function changeOwnPassword(db: Db, user: UserView, change: PasswordChange, keepSessionSecret: string | null, context: AuditContext): Promise<{ endedSessions: number }> {
  const row = await db.user.findUnique({ where: { id: user.id }, select: { passwordHash: true } });
  if (!row) throw new NotFoundError("User", `User ${user.id} not found`);
  checkCurrentPasswordGuesses(user.id);
  if (!(await verifyPassword(row.passwordHash, change.currentPassword))) {
    recordWrongCurrentPassword(user.id);
    throw new InvalidRequestError({ currentPassword: "is not your current password" });
  }
  clearCurrentPasswordGuesses(user.id);
  const problem = await passwordStrengthProblem(change.newPassword, user.email);
  if (problem) throw new InvalidRequestError({ newPassword: problem });
  if (change.newPassword === change.currentPassword) throw new InvalidRequestError({ newPassword: "is the current password: choose another" });
  const passwordHash = await hashPassword(change.newPassword);
  const endedSessions = await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    return deleteUserSessions(tx, user.id, keepSessionSecret);
  });
  await audit(db, context, "password-changed", userSubject(user), { endedSessions });
  return { endedSessions };
}

/** Ends every session of the user, this browser's too (API tokens are revoked separately, in Settings). */
export async function signOutEverywhere(db: Db, user: UserView, context: AuditContext): Promise<{ endedSessions: number }> {
  const endedSessions = await deleteUserSessions(db, user.id);
  await audit(db, context, "sign-out-everywhere", userSubject(user), { endedSessions });
  return { endedSessions };
}
