import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Opaque secrets for sessions, API tokens and the setup link: 32 random bytes (256 bits), so a
 * plain SHA-256 is enough to store them (no salt or slow hash needed: nothing to brute-force).
 * The database keeps only the hash, so a copy of it signs nobody in.
 */
export function newSecret(prefix = ""): string {
  return prefix + randomBytes(32).toString("base64url");
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** Compares two strings in time independent of where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}
