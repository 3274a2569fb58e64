import { z } from "zod";
import { InvalidRequestError, InvalidStateError, NotFoundError } from "../errors";
import type { Db } from "../store/prisma-client";
import { audit, userSubject, type AuditContext } from "./audit-context";
import { passwordStrengthProblem } from "./password-strength";
import { hashPassword } from "./passwords";
import { deleteUserSessions } from "./sessions";
import { createUser, ROLES, toUserView, userSelect, type NewUser, type UserView } from "./users";

/**
 * What an admin (or the `forage user` command line) does to accounts: add, disable, enable,
 * change the role, reset the password, delete. Every change is recorded in the audit log.
 * Two rules keep the server administrable: nobody disables, demotes or deletes their own
 * account here, and the last enabled admin cannot be disabled, demoted or deleted.
 */

/** `PATCH /api/users/:id`: any of these, applied in this order (password, role, disabled). */
export const userPatchSchema = z
  .strictObject({
    password: z.string().max(1024, "is longer than 1024 characters").optional(),
    role: z.enum(ROLES, `must be one of ${ROLES.join(", ")}`).optional(),
    disabled: z.boolean("must be true or false").optional(),
  })
  .refine((patch) => patch.password !== undefined || patch.role !== undefined || patch.disabled !== undefined, { message: "give disabled, role or password" });
export type UserPatch = z.output<typeof userPatchSchema>;

/** Adds a user (validated, strong password, Argon2id) and records it. @throws InvalidRequestError naming the field */
export async function addUser(db: Db, input: NewUser, context: AuditContext): Promise<UserView> {
  const user = await createUser(db, input);
  await audit(db, context, "user-created", userSubject(user), { role: user.role });
  return user;
}

/** Applies an admin's change to a user. @throws NotFoundError, InvalidRequestError (weak password), InvalidStateError (own account, last admin) */
export async function updateUser(db: Db, id: number, patch: UserPatch, context: AuditContext, now = new Date()): Promise<UserView> {
  let user = await findUser(db, id);
  if (patch.password !== undefined) user = await resetPassword(db, user, patch.password, context);
  if (patch.role !== undefined && patch.role !== user.role) user = await changeRole(db, user, patch.role, context);
  if (patch.disabled === true && user.disabledAt === null) user = await disableUser(db, user, context, now);
  if (patch.disabled === false && user.disabledAt !== null) user = await enableUser(db, user, context);
  return user;
}

/** Deletes a user: sessions and tokens go with it; crawls and harvests stay, without a creator. */
export async function deleteUser(db: Db, id: number, context: AuditContext): Promise<void> {
  const user = await findUser(db, id);
  refuseOwnAccount(user, context, "delete");
  await db.$transaction(async (tx) => {
    await lockEnabledAdmins(tx);
    await tx.user.delete({ where: { id } });
    await requireAnotherAdmin(tx, user, "delete");
  });
  await audit(db, context, "user-deleted", userSubject(user), { role: user.role });
}

/** Finds a user by email for the command line. @throws NotFoundError */
export async function findUserIdByEmail(db: Db, email: string): Promise<number> {
  const row = await db.user.findUnique({ where: { email: email.trim().toLowerCase() }, select: { id: true } });
  if (!row) throw new NotFoundError("User", `No user ${email.slice(0, 254)} (forage user list shows them)`);
  return row.id;
}

async function findUser(db: Db, id: number): Promise<UserView> {
  const row = await db.user.findUnique({ where: { id }, select: userSelect });
  if (!row) throw new NotFoundError("User", `User ${id} not found`);
  return toUserView(row);
}

/** A new password set by an admin; the user's sessions end (a reset usually means the old one leaked). */
async function resetPassword(db: Db, user: UserView, password: string, context: AuditContext): Promise<UserView> {
  if (context.actor?.id === user.id) {
    // A stolen session must not be enough to take over the account: one's own password changes with the current one.
    throw new InvalidRequestError({ password: "of your own account is changed on the Account page, with your current password" });
  }
  const problem = await passwordStrengthProblem(password, user.email);
  if (problem) throw new InvalidRequestError({ password: problem });
  const passwordHash = await hashPassword(password);
  await db.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    await deleteUserSessions(tx, user.id);
  });
  await audit(db, context, "password-reset", userSubject(user));
  return user;
}

async function changeRole(db: Db, user: UserView, role: UserView["role"], context: AuditContext): Promise<UserView> {
  if (role === "member") refuseOwnAccount(user, context, "demote");
  const updated = await db.$transaction(async (tx) => {
    if (role === "member") await lockEnabledAdmins(tx);
    const row = await tx.user.update({ where: { id: user.id }, data: { role }, select: userSelect });
    if (role === "member") await requireAnotherAdmin(tx, user, "demote");
    return row;
  });
  await audit(db, context, "user-role-changed", userSubject(user), { from: user.role, to: role });
  return toUserView(updated);
}

/** Disabled: no sign-in; sessions deleted now, tokens refused while disabled (lib/auth/sessions.ts, api-tokens.ts). */
async function disableUser(db: Db, user: UserView, context: AuditContext, now: Date): Promise<UserView> {
  refuseOwnAccount(user, context, "disable");
  const updated = await db.$transaction(async (tx) => {
    await lockEnabledAdmins(tx);
    const row = await tx.user.update({ where: { id: user.id }, data: { disabledAt: now }, select: userSelect });
    await requireAnotherAdmin(tx, user, "disable");
    await deleteUserSessions(tx, user.id);
    return row;
  });
  await audit(db, context, "user-disabled", userSubject(user));
  return toUserView(updated);
}

async function enableUser(db: Db, user: UserView, context: AuditContext): Promise<UserView> {
  const row = await db.user.update({ where: { id: user.id }, data: { disabledAt: null }, select: userSelect });
  await audit(db, context, "user-enabled", userSubject(user));
  return toUserView(row);
}

function refuseOwnAccount(user: UserView, context: AuditContext, verb: string): void {
  if (context.actor?.id === user.id) throw new InvalidStateError(`You cannot ${verb} your own account: ask another admin`);
}

/**
 * Takes the enabled admins' rows for this transaction, first: a no-op write locks them on
 * PostgreSQL (another transaction removing an admin waits here until this one commits, then sees
 * its result), and on SQLite it takes the database's write lock. Without it, two admins removing
 * each other at once could both see the other still there and leave none.
 */
async function lockEnabledAdmins(tx: Pick<Db, "user">): Promise<void> {
  await tx.user.updateMany({ where: { role: "admin", disabledAt: null }, data: { role: "admin" } });
}

/** Run inside the transaction after the change: when it left no enabled admin, throwing rolls it back. */
async function requireAnotherAdmin(tx: Pick<Db, "user">, user: UserView, verb: string): Promise<void> {
  if (user.role !== "admin" || user.disabledAt !== null) return;
  const admins = await tx.user.count({ where: { role: "admin", disabledAt: null } });
  if (admins === 0) throw new InvalidStateError(`Cannot ${verb} ${user.email}: it is the last enabled admin (make another admin first)`);
}
