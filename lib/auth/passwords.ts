import { hash, verify } from "@node-rs/argon2";

/**
 * Password hashing with Argon2id (OWASP's first choice), through @node-rs/argon2: a maintained
 * Rust binding shipped prebuilt in the npm package. Its defaults (19 MiB, 2 passes, 1 lane) are
 * OWASP's minimum recommendation; the hash is a PHC string that carries its own parameters, so
 * they can be raised later without invalidating stored hashes.
 */

export const MIN_PASSWORD_LENGTH = 8;
/** Longer inputs are refused before hashing: a megabyte password must not cost a megabyte of hashing. */
export const MAX_PASSWORD_LENGTH = 256;

/** Why a password cannot be used, or null when it can. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  try {
    return await verify(passwordHash, password);
  } catch {
    return false; // not a PHC string we can read: no password matches it
  }
}

/**
 * A hash of a random password, verified against when the email is unknown, so that a sign-in
 * with an unknown email costs the same time as one with a wrong password (no user enumeration).
 */
let decoy: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoy ??= hash(`decoy-${Math.random()}-${Date.now()}`);
  return decoy;
}
