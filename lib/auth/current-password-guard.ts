import { TooManyRequestsError } from "../errors";

/**
 * Limits guesses of the current password on the Account page: someone holding a borrowed or
 * stolen session could otherwise try passwords there at hashing speed, with no sign-in throttle
 * in the way, and then take the account. After MAX_FAILURES wrong current passwords within
 * WINDOW_MS, the user's password changes are refused (429 with Retry-After) until the oldest
 * failure leaves the window. In this process's memory, per user id (a bounded number of users).
 */
const MAX_FAILURES = 5;
const WINDOW_MS = 15 * 60_000;

const failures = new Map<number, number[]>();

/** @throws TooManyRequestsError while this user's changes are held back. */
export function checkCurrentPasswordGuesses(userId: number, now = Date.now()): void {
  const recent = recentFailures(userId, now);
  if (recent.length < MAX_FAILURES) return;
  const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now) / 1000));
  throw new TooManyRequestsError(`Too many wrong current passwords: try again in ${Math.ceil(retryAfterSeconds / 60)} min`, retryAfterSeconds);
}

export function recordWrongCurrentPassword(userId: number, now = Date.now()): void {
  failures.set(userId, [...recentFailures(userId, now), now]);
}

export function clearCurrentPasswordGuesses(userId: number): void {
  failures.delete(userId);
}

function recentFailures(userId: number, now: number): number[] {
  return (failures.get(userId) ?? []).filter((at) => now - at < WINDOW_MS);
}
