import { InvalidRequestError } from "../errors";
import type { Db } from "../store/prisma-client";
import { audit, userSubject, type AuditContext } from "./audit-context";
import { newSecret, sameSecret, sha256Hex } from "./secrets";
import { insertUser, prepareUser, type NewUser, type UserView } from "./users";

/**
 * The one-time link that creates the first admin (Jupyter's rule: nobody is signed in
 * implicitly, not even on 127.0.0.1). While the server has no user, `npm start` issues one and
 * prints it; each issue replaces the previous link. It works once, for 24 hours, and never
 * once a user exists.
 */
const SETTING_KEY = "setup-link";
export const SETUP_LINK_TTL_MS = 24 * 3600_000;

interface StoredSetupLink {
  sha256: string;
  expiresAt: string;
}

/** A new setup secret, or null when the server already has users. */
export async function issueSetupLink(db: Db, now = new Date()): Promise<string | null> {
  if ((await db.user.count()) > 0) return null;
  const secret = newSecret();
  const value: StoredSetupLink = { sha256: sha256Hex(secret), expiresAt: new Date(now.getTime() + SETUP_LINK_TTL_MS).toISOString() };
  await db.serverSetting.upsert({ where: { key: SETTING_KEY }, create: { key: SETTING_KEY, value: JSON.stringify(value) }, update: { value: JSON.stringify(value) } });
  return secret;
}

/** Why this setup secret cannot be used, or null when it can. */
export async function setupLinkProblem(db: Db, secret: string, now = new Date()): Promise<string | null> {
  if ((await db.user.count()) > 0) return "This Forage server already has an admin: sign in instead.";
  const row = await db.serverSetting.findUnique({ where: { key: SETTING_KEY } });
  const stored = row ? (JSON.parse(row.value) as StoredSetupLink) : null;
  if (!stored || !secret || !sameSecret(stored.sha256, sha256Hex(secret))) {
    return "This setup link is not valid: use the newest link `npm start` printed, or create the admin with `npx forage user add <email> --admin --password-stdin`.";
  }
  if (new Date(stored.expiresAt) <= now) return "This setup link has expired: restart Forage (`npm start`) to print a new one.";
  return null;
}

/**
 * Creates the first admin with a valid setup secret and retires the link. The input is checked
 * and the password hashed first, so a refused password does not use the link up; then one
 * conditional delete of the stored link decides which of several simultaneous requests gets it,
 * and the admin is written in the same transaction: exactly one admin can come of a link.
 * Recorded in the audit log as setup-completed, with the new admin as actor.
 * @throws InvalidRequestError
 */
export async function completeSetup(db: Db, secret: string, input: Omit<NewUser, "role">, now = new Date(), address: string | null = null): Promise<UserView> {
  const problem = await setupLinkProblem(db, secret, now);
  if (problem) throw new InvalidRequestError({ token: problem }, "Setup refused");
  const prepared = await prepareUser(db, { ...input, role: "admin" });
  const hashOfSecret = sha256Hex(secret);
  const user = await db.$transaction(async (tx) => {
    const row = await tx.serverSetting.findUnique({ where: { key: SETTING_KEY } });
    const stored = row ? (JSON.parse(row.value) as StoredSetupLink) : null;
    const claimed =
      row && stored && sameSecret(stored.sha256, hashOfSecret) ? (await tx.serverSetting.deleteMany({ where: { key: SETTING_KEY, value: row.value } })).count : 0;
    if (claimed !== 1 || (await tx.user.count()) > 0) {
      throw new InvalidRequestError({ token: "This setup link has already been used: sign in instead." }, "Setup refused");
    }
    return insertUser(tx, prepared);
  });
  const context: AuditContext = { actor: user, address };
  await audit(db, context, "setup-completed", userSubject(user));
  return user;
}
