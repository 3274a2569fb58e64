import { hash, verify } from "@node-rs/argon2";
import { ServiceBusyError } from "../errors";
import { SlotsFullError, WorkSlots } from "./work-slots";

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

/**
 * Hashes and verifications run through these slots: each takes ~19 MiB and a core for tens of
 * milliseconds on the libuv pool, so a burst of sign-ins run all at once would take every core
 * from every other request (and the pool's 4 threads from file reads). One at a time by default
 * (FORAGE_PASSWORD_HASH_CONCURRENCY), `WAITING_PER_SLOT` waiting per slot; beyond, the request is
 * answered 503 at once instead of waiting behind a flood.
 */
const WAITING_PER_SLOT = 32;
const slots = new WorkSlots(1, WAITING_PER_SLOT);
let hashesRun = 0;

/** Sets how many hashes run at once (the dashboard calls it with FORAGE_PASSWORD_HASH_CONCURRENCY). */
export function setPasswordHashConcurrency(concurrency: number): void {
  slots.resize(concurrency, concurrency * WAITING_PER_SLOT);
}

/** Hashes and verifications started since the process began (tests count the work an attack caused). */
export function passwordHashesRun(): number {
  return hashesRun;
}

async function inSlot<T>(task: () => Promise<T>): Promise<T> {
  try {
    return await slots.run(() => {
      hashesRun++;
      return task();
    });
  } catch (error) {
    if (error instanceof SlotsFullError) throw new ServiceBusyError("The server is busy checking other passwords: try again in a few seconds", 2, { cause: error });
    throw error;
  }
}

/** @throws ServiceBusyError when too many hashes are running and waiting */
export function hashPassword(password: string): Promise<string> {
  return inSlot(() => hash(password));
}

/** @throws ServiceBusyError when too many hashes are running and waiting */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  return inSlot(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false; // not a PHC string we can read: no password matches it
    }
  });
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
