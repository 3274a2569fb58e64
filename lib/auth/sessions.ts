import type { Db } from "../store/prisma-client";
import { newSecret, sha256Hex } from "./secrets";
import { toUserView, userSelect, type UserView } from "./users";

/** How long a session lasts without use; each use (at most once an hour) extends it. @default 14 days */
export const SESSION_TTL_MS = 14 * 24 * 3600_000;
/**
 * How long a session lasts at most, however often it is used: a stolen cookie stops working
 * within this time even if the thief keeps it busy, and everyone types their password again. @default 30 days
 */
export const SESSION_MAX_AGE_MS = 30 * 24 * 3600_000;
const TOUCH_INTERVAL_MS = 3600_000;

export interface NewSession {
  /** The cookie's value; only its SHA-256 is stored. */
  secret: string;
  expiresAt: Date;
}

/** When a session created at `createdAt` and used at `now` expires: the idle limit, capped by the absolute one. */
function expiryOf(createdAt: Date, now: Date): Date {
  return new Date(Math.min(now.getTime() + SESSION_TTL_MS, createdAt.getTime() + SESSION_MAX_AGE_MS));
}

export async function createSession(db: Db, userId: number, now = new Date()): Promise<NewSession> {
  const secret = newSecret();
  const expiresAt = expiryOf(now, now);
  await db.session.create({ data: { id: sha256Hex(secret), userId, expiresAt, createdAt: now, lastSeenAt: now } });
  // Expired sessions are removed here rather than by a timer: sign-ins are rare, and this keeps the table small.
  await db.session.deleteMany({ where: { expiresAt: { lt: now } } });
  return { secret, expiresAt };
}

/**
 * The user signed in by this cookie value, or null: unknown, idle too long, older than
 * SESSION_MAX_AGE_MS, or its user disabled. Extends the session at most once an hour.
 */
export async function sessionUser(db: Db, secret: string, now = new Date()): Promise<UserView | null> {
  if (!secret || secret.length > 200) return null;
  const session = await db.session.findUnique({
    where: { id: sha256Hex(secret) },
    select: { id: true, createdAt: true, expiresAt: true, lastSeenAt: true, user: { select: userSelect } },
  });
  if (!session || session.expiresAt <= now) return null;
  // Checked on every request, not only when the session is extended: rows written before the cap existed, or backdated, obey it too.
  if (session.createdAt.getTime() + SESSION_MAX_AGE_MS <= now.getTime()) return null;
  if (session.user.disabledAt !== null) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.session.update({ where: { id: session.id }, data: { lastSeenAt: now, expiresAt: expiryOf(session.createdAt, now) } });
  }
  return toUserView(session.user);
}

export async function deleteSession(db: Db, secret: string): Promise<void> {
  await db.session.deleteMany({ where: { id: sha256Hex(secret) } });
}

/** Ends every session of a user, except the one whose cookie is `keepSecret` (the browser asking). @returns how many ended */
export async function deleteUserSessions(db: Pick<Db, "session">, userId: number, keepSecret?: string | null): Promise<number> {
  const { count } = await db.session.deleteMany({ where: { userId, ...(keepSecret ? { id: { not: sha256Hex(keepSecret) } } : {}) } });
  return count;
}
