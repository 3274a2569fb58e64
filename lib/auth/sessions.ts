import type { Db } from "../store/prisma-client";
import { newSecret, sha256Hex } from "./secrets";
import { toUserView, type UserView } from "./users";

/** How long a session lasts without use; each use (at most once an hour) extends it. @default 14 days */
export const SESSION_TTL_MS = 14 * 24 * 3600_000;
const TOUCH_INTERVAL_MS = 3600_000;

export interface NewSession {
  /** The cookie's value; only its SHA-256 is stored. */
  secret: string;
  expiresAt: Date;
}

export async function createSession(db: Db, userId: number, now = new Date()): Promise<NewSession> {
  const secret = newSecret();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  await db.session.create({ data: { id: sha256Hex(secret), userId, expiresAt, createdAt: now, lastSeenAt: now } });
  // Expired sessions are removed here rather than by a timer: sign-ins are rare, and this keeps the table small.
  await db.session.deleteMany({ where: { expiresAt: { lt: now } } });
  return { secret, expiresAt };
}

/** The user signed in by this cookie value, or null (unknown, expired). Extends the session at most once an hour. */
export async function sessionUser(db: Db, secret: string, now = new Date()): Promise<UserView | null> {
  if (!secret || secret.length > 200) return null;
  const session = await db.session.findUnique({
    where: { id: sha256Hex(secret) },
    select: { id: true, expiresAt: true, lastSeenAt: true, user: { select: { id: true, email: true, role: true, createdAt: true } } },
  });
  if (!session || session.expiresAt <= now) return null;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await db.session.update({ where: { id: session.id }, data: { lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_MS) } });
  }
  return toUserView(session.user);
}

export async function deleteSession(db: Db, secret: string): Promise<void> {
  await db.session.deleteMany({ where: { id: sha256Hex(secret) } });
}
