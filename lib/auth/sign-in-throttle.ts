import { createHash } from "node:crypto";
import ipaddr from "ipaddr.js";
import { RateLimiterRes } from "rate-limiter-flexible";
import { ServiceBusyError, TooManyRequestsError } from "../errors";
import { createSignInLimiters, type SignInLimiters, type SignInLimiterStore } from "./sign-in-limiters";

/**
 * Limits password guessing without handing anyone a way to lock an account.
 *
 * Every attempt is *reserved* before the password is checked, by one atomic increment of the
 * address's attempt count (rate-limiter-flexible `penalty`: an upsert returning the new count), so
 * requests sent at once each get their own number and cannot all pass a check made before any of
 * them failed. Per client address: the first `freeAttemptsPerAddress - 1` attempts within
 * `addressWindowSecs` go ahead; from the last free one on, each attempt must also take the
 * address's single gate token (an atomic `consume` of one point), which the taking attempt keeps
 * for a delay of `firstDelaySecs` doubling per attempt up to `maxDelaySecs`. However many
 * requests arrive together, at most `freeAttemptsPerAddress` are checked, then one per delay (a
 * guesser from one address gets about a dozen guesses an hour). The address is what pays: its
 * owner is the attacker. A refused request is not counted (it cost nothing); a successful
 * sign-in gives its attempt back.
 *
 * Per account: the same count, from all addresses; past `accountAttemptsBeforePacing` within
 * `accountWindowSecs` each attempt must take the account's token, one per `accountPaceSecs`. Never
 * refused for longer, so a stranger can slow the owner's sign-in but not stop it, and a
 * successful sign-in clears the count. Unknown emails share 4096 buckets (by hash) instead of a
 * key each: they pace like real accounts (the answers tell nobody which emails exist), and a
 * flood of invented emails cannot grow memory past the buckets.
 *
 * Memory (the in-process store): keys stay until they expire, never evicted to make room, so
 * flooding other emails or addresses frees nothing. What bounds them is that they expire: per
 * address at most two keys (IPv6 addresses count per /64, the block one subscriber gets), per
 * account two, plus the buckets: about 200 bytes each, so 100,000 distinct attacking addresses
 * within an hour cost ~40 MB.
 */
export interface SignInLimits {
  /** @default 5 */
  freeAttemptsPerAddress: number;
  /** @default 3600 */
  addressWindowSecs: number;
  /** @default 10 */
  firstDelaySecs: number;
  /** @default 900 */
  maxDelaySecs: number;
  /** @default 10 */
  accountAttemptsBeforePacing: number;
  /** @default 900 */
  accountWindowSecs: number;
  /** @default 2 */
  accountPaceSecs: number;
}

export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  freeAttemptsPerAddress: 5,
  addressWindowSecs: 3600,
  firstDelaySecs: 10,
  maxDelaySecs: 900,
  accountAttemptsBeforePacing: 10,
  accountWindowSecs: 900,
  accountPaceSecs: 2,
};

const UNKNOWN_EMAIL_BUCKETS = 4096;

/** Who is trying: the email typed, whether it names an account, and the client's address (lib/api/client-address.ts). */
export interface SignInAttempt {
  email: string;
  accountExists: boolean;
  address: string;
}

/** A slow-down that just began, for the audit log. */
export type SlowDown = { kind: "address"; address: string; delaySecs: number; attempts: number } | { kind: "account"; email: string; paceSecs: number; attempts: number };

export class SignInThrottle {
  private constructor(
    private readonly limiters: SignInLimiters,
    readonly limits: SignInLimits,
  ) {}

  static async create(store: SignInLimiterStore, limits: Partial<SignInLimits> = {}): Promise<SignInThrottle> {
    const all = { ...DEFAULT_SIGN_IN_LIMITS, ...limits };
    const limiters = await createSignInLimiters(store, {
      // Counters without a ceiling (the delay grows instead): their points are never reached.
      addressAttempts: { points: Number.MAX_SAFE_INTEGER, durationSecs: all.addressWindowSecs },
      addressGate: { points: 1, durationSecs: all.firstDelaySecs },
      accountAttempts: { points: Number.MAX_SAFE_INTEGER, durationSecs: all.accountWindowSecs },
      accountPace: { points: 1, durationSecs: all.accountPaceSecs },
    });
    return new SignInThrottle(limiters, all);
  }

  /**
   * Reserves one attempt, before the password is checked; returns the slow-downs it started.
   * @throws TooManyRequestsError (429, Retry-After) while the address is delayed or the account paced
   * @throws ServiceBusyError when the limits' store cannot be reached
   */
  async reserve(attempt: SignInAttempt): Promise<SlowDown[]> {
    const address = addressKey(attempt.address);
    const account = accountKey(attempt);
    const slowDowns: SlowDown[] = [];

    const byAddress = (await this.store(this.limiters.addressAttempts.penalty(address))).consumedPoints;
    const over = byAddress - this.limits.freeAttemptsPerAddress;
    if (over >= 0) {
      const delaySecs = Math.min(this.limits.firstDelaySecs * 2 ** over, this.limits.maxDelaySecs);
      const refused = await this.refusal(this.limiters.addressGate.consume(address, 1, { customDuration: delaySecs }));
      if (refused) {
        await this.store(this.limiters.addressAttempts.reward(address));
        throw new TooManyRequestsError(`Too many sign-in attempts from your address: try again in ${seconds(refused.msBeforeNext)} s`, seconds(refused.msBeforeNext));
      }
      slowDowns.push({ kind: "address", address: attempt.address, delaySecs, attempts: byAddress });
    }

    const byAccount = (await this.store(this.limiters.accountAttempts.penalty(account))).consumedPoints;
    if (byAccount > this.limits.accountAttemptsBeforePacing) {
      const refused = await this.refusal(this.limiters.accountPace.consume(account));
      if (refused) {
        await this.store(this.limiters.accountAttempts.reward(account));
        await this.store(this.limiters.addressAttempts.reward(address));
        throw new TooManyRequestsError(
          `This account has had many failed sign-ins: attempts are slowed to one every ${this.limits.accountPaceSecs} s; try again in ${seconds(refused.msBeforeNext)} s`,
          seconds(refused.msBeforeNext),
        );
      }
      if (attempt.accountExists && byAccount === this.limits.accountAttemptsBeforePacing + 1) {
        slowDowns.push({ kind: "account", email: attempt.email, paceSecs: this.limits.accountPaceSecs, attempts: byAccount });
      }
    }
    return slowDowns;
  }

  /**
   * The password was right: the attempt is given back to the address (not more: an attacker can
   * sign in to an account of their own), and the account's count and pace are forgotten.
   */
  async succeeded(attempt: SignInAttempt): Promise<void> {
    const account = accountKey(attempt);
    await this.store(this.limiters.addressAttempts.reward(addressKey(attempt.address)));
    await this.store(this.limiters.accountAttempts.delete(account));
    await this.store(this.limiters.accountPace.delete(account));
  }

  /** A `consume`'s refusal (over the limit), or null when the point was taken. */
  private async refusal(consume: Promise<RateLimiterRes>): Promise<RateLimiterRes | null> {
    try {
      await consume;
      return null;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return rejection;
      throw unavailable(rejection);
    }
  }

  /** Any other limiter call (these never reject for being over a limit). */
  private async store<T>(call: Promise<T>): Promise<T> {
    try {
      return await call;
    } catch (rejection) {
      throw unavailable(rejection);
    }
  }
}

/** A store failure (the database unreachable) refuses the sign-in with 503 rather than letting it through unthrottled. */
function unavailable(cause: unknown): ServiceBusyError {
  console.error("sign-in limits:", cause);
  return new ServiceBusyError("Sign-in is unavailable for a moment: its limits cannot be read", 5, { cause });
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** The address as a key: IPv6 per /64 (one subscriber's block: an attacker holding one must not get 2^64 fresh keys). */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address.slice(0, 100);
  const ip = ipaddr.process(address);
  if (ip.kind() === "ipv4") return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(":")}::/64`;
}

function accountKey(attempt: SignInAttempt): string {
  const digest = createHash("sha256").update(attempt.email.trim().toLowerCase(), "utf8").digest();
  return attempt.accountExists ? `account:${digest.toString("hex")}` : `unknown:${digest.readUInt32BE(0) % UNKNOWN_EMAIL_BUCKETS}`;
}
