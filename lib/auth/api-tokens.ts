import { z } from "zod";
import { InvalidRequestError, NotFoundError } from "../errors";
import type { Db } from "../store/prisma-client";
import { newSecret, sha256Hex } from "./secrets";
import { audit, type AuditContext } from "./audit-context";
import { toUserView, userSelect, type UserView } from "./users";

/** Every token starts with this, so secret scanners and people recognise one. */
export const TOKEN_PREFIX = "forage_";
/** Characters of a token kept in clear to show in lists ("forage_Ab3d…"). */
const SHOWN_PREFIX_LENGTH = TOKEN_PREFIX.length + 4;

export const tokenNameSchema = z.string().trim().min(1, "is required").max(100, "is longer than 100 characters");

export interface ApiTokenView {
  id: number;
  name: string;
  /** The token's first characters, e.g. "forage_Ab3d". */
  prefix: string;
  userId: number;
  userEmail: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * Creates a token for a user; the token itself is returned once and never stored.
 * @param context who creates it, for the audit log (none: not recorded, e.g. test fixtures).
 */
export async function createApiToken(db: Db, userId: number, name: string, context?: AuditContext): Promise<{ token: string; view: ApiTokenView }> {
  const parsedName = tokenNameSchema.safeParse(name);
  if (!parsedName.success) throw new InvalidRequestError({ name: parsedName.error.issues[0]!.message });
  const token = newSecret(TOKEN_PREFIX);
  const row = await db.apiToken.create({
    data: { userId, name: parsedName.data, tokenHash: sha256Hex(token), prefix: token.slice(0, SHOWN_PREFIX_LENGTH) },
    select: tokenSelect,
  });
  const view = toView(row);
  if (context) await audit(db, context, "token-created", tokenSubject(view), { name: view.name });
  return { token, view };
}

export async function listApiTokens(db: Db): Promise<ApiTokenView[]> {
  const rows = await db.apiToken.findMany({ orderBy: { id: "asc" }, select: tokenSelect });
  return rows.map(toView);
}

/** Revokes a token (kept in the list as revoked, so its use shows in the record). @throws NotFoundError */
export async function revokeApiToken(db: Db, id: number, now = new Date(), context?: AuditContext): Promise<ApiTokenView> {
  const existing = await db.apiToken.findUnique({ where: { id }, select: { revokedAt: true } });
  if (!existing) throw new NotFoundError("API token", `API token ${id} not found`);
  const row = await db.apiToken.update({ where: { id }, data: { revokedAt: existing.revokedAt ?? now }, select: tokenSelect });
  const view = toView(row);
  if (context && !existing.revokedAt) await audit(db, context, "token-revoked", tokenSubject(view), { name: view.name });
  return view;
}

/** "token 5 (nightly export) of ann@example.org", the audit subject of a token. */
function tokenSubject(view: ApiTokenView): string {
  return `token ${view.id} (${view.name}) of ${view.userEmail}`;
}

/** The user a bearer token acts as, or null (unknown, revoked, its user disabled). Records its last use at most once a minute. */
export async function tokenUser(db: Db, token: string, now = new Date()): Promise<UserView | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const row = await db.apiToken.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: { id: true, revokedAt: true, lastUsedAt: true, user: { select: userSelect } },
  });
  if (!row || row.revokedAt || row.user.disabledAt !== null) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    await db.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return toUserView(row.user);
}

const tokenSelect = {
  id: true,
  name: true,
  prefix: true,
  userId: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  user: { select: { email: true } },
} as const;

function toView(row: { id: number; name: string; prefix: string; userId: number; createdAt: Date; lastUsedAt: Date | null; revokedAt: Date | null; user: { email: string } }): ApiTokenView {
  const { user, ...rest } = row;
  return { ...rest, userEmail: user.email };
}
