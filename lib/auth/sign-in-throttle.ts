import { TooManyRequestsError } from "../api/errors";

/**
 * Slows password guessing: after `maxFailures` failed sign-ins for one email within `windowMs`,
 * further attempts for it are refused (429 with Retry-After) until the oldest failure leaves the
 * window. Kept in the dashboard process's memory: a restart forgets it, which costs an attacker a
 * restart per ten guesses. Keys are bounded (oldest evicted) so a flood of emails cannot grow it.
 */
export class SignInThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly maxFailures = 10,
    private readonly windowMs = 15 * 60_000,
    private readonly maxKeys = 10_000,
  ) {}

  /** @throws TooManyRequestsError while the email is locked. */
  check(email: string, now = Date.now()): void {
    const recent = this.recent(email, now);
    if (recent.length >= this.maxFailures) {
      const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]! + this.windowMs - now) / 1000));
      throw new TooManyRequestsError(`Too many failed sign-ins for this email: try again in ${Math.ceil(retryAfterSeconds / 60)} min`, retryAfterSeconds);
    }
  }

  fail(email: string, now = Date.now()): void {
    const recent = this.recent(email, now);
    recent.push(now);
    this.failures.delete(email);
    this.failures.set(email, recent);
    if (this.failures.size > this.maxKeys) this.failures.delete(this.failures.keys().next().value!);
  }

  succeed(email: string): void {
    this.failures.delete(email);
  }

  private recent(email: string, now: number): number[] {
    return (this.failures.get(email) ?? []).filter((at) => now - at < this.windowMs);
  }
}
