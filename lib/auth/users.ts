import { z } from "zod";
import { InvalidRequestError } from "../errors";
import { zodFieldErrors } from "../field-errors";
import type { Db } from "../store/prisma-client";
import { passwordStrengthProblem } from "./password-strength";
import { decoyPasswordHash, hashPassword, verifyPassword } from "./passwords";

/** admin: users, tokens, network policy and crawls; member: crawls (the team's, single team). */
export const ROLES = ["admin", "member"] as const;
export type Role = (typeof ROLES)[number];

export interface UserView {
  id: number;
  email: string;
  role: Role;
  createdAt: Date;
  /** Set while an admin has disabled the account (no sign-in, sessions or tokens). */
  disabledAt: Date | null;
}

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, "is longer than 254 characters")
  .email("is not an email address");

export const newUserSchema = z.strictObject({
  email: emailSchema,
  password: z.string(),
  role: z.enum(ROLES).default("member"),
});
export type NewUser = z.input<typeof newUserSchema>;

export const userSelect = { id: true, email: true, role: true, createdAt: true, disabledAt: true } as const;

/** A new user's row, validated and with its password hashed, ready to insert. */
export interface PreparedUser {
  email: string;
  role: Role;
  passwordHash: string;
}

/**
 * Validates a new user and hashes the password, without writing anything (so a caller can do
 * the slow hash before it takes a write lock).
 * @throws InvalidRequestError naming the field (bad email, weak password, email taken).
 */
export async function prepareUser(db: Db, input: NewUser): Promise<PreparedUser> {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) throw new InvalidRequestError(zodFieldErrors(parsed.error, "is not a known field"));
  const { email, password, role } = parsed.data;
  const problem = await passwordStrengthProblem(password, email);
  if (problem) throw new InvalidRequestError({ password: problem });
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new InvalidRequestError({ email: "already has an account" });
  }
  return { email, role, passwordHash: await hashPassword(password) };
}

/** Writes a prepared user. @throws InvalidRequestError when the email was taken meanwhile. */
export async function insertUser(db: Pick<Db, "user">, prepared: PreparedUser): Promise<UserView> {
  try {
    return toUserView(await db.user.create({ data: prepared, select: userSelect }));
  } catch (error) {
    if (isUniqueViolation(error)) throw new InvalidRequestError({ email: "already has an account" });
    throw error;
  }
}

/**
 * Creates a user with an Argon2id password hash.
 * @throws InvalidRequestError naming the field (bad email, weak password, email taken).
 */
export async function createUser(db: Db, input: NewUser): Promise<UserView> {
  return insertUser(db, await prepareUser(db, input));
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}

export async function listUsers(db: Db): Promise<UserView[]> {
  const users = await db.user.findMany({ orderBy: { id: "asc" }, select: userSelect });
  return users.map(toUserView);
}

export async function countUsers(db: Db): Promise<number> {
  return db.user.count();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserView | null> {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) return null;
  const user = await db.user.findUnique({ where: { email: parsed.data }, select: userSelect });
  return user ? toUserView(user) : null;
}

/**
 * The user whose email and password these are, or null; an unknown email costs the same time as
 * a wrong password, and a disabled account is refused after the same work (so neither is revealed).
 */
export async function authenticateUser(db: Db, email: string, password: string): Promise<UserView | null> {
  const parsed = emailSchema.safeParse(email);
  const user = parsed.success ? await db.user.findUnique({ where: { email: parsed.data }, select: { ...userSelect, passwordHash: true } }) : null;
  if (!user) {
    await verifyPassword(await decoyPasswordHash(), password);
    return null;
  }
  const matches = await verifyPassword(user.passwordHash, password);
  return matches && user.disabledAt === null ? toUserView(user) : null;
}

/** A user row as the rest of Forage sees it: an unknown role reads as the lesser one. */
export function toUserView(user: { id: number; email: string; role: string; createdAt: Date; disabledAt?: Date | null }): UserView {
  return { id: user.id, email: user.email, role: user.role === "admin" ? "admin" : "member", createdAt: user.createdAt, disabledAt: user.disabledAt ?? null };
}
