import type pg from "pg";
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from "rate-limiter-flexible";

/**
 * The counters behind the sign-in throttle (lib/auth/sign-in-throttle.ts), from
 * rate-limiter-flexible: each `consume` is one atomic increment-and-compare, so a reservation
 * holds however many requests arrive at once.
 * - `memory`: the process's memory (SQLite: one dashboard process). Keys live until they expire,
 *   never evicted early, so no flood of other keys can free a throttled one.
 * - `postgres`: one table shared by every dashboard process of a PostgreSQL database (each
 *   `consume` one `INSERT … ON CONFLICT DO UPDATE … RETURNING`; rows expired an hour ago swept
 *   every 5 minutes). rate-limiter-flexible creates the table itself (`CREATE TABLE IF NOT
 *   EXISTS`, a concurrent creation by another process tolerated): it is a cache of counters, not
 *   data Prisma's migrations need to know about, and losing it only forgets recent failures.
 */
export interface SignInLimiterSpecs {
  /** Attempts reserved by an address (each before its password is checked). */
  addressAttempts: LimiterSpec;
  /** One token per address, held for the current delay once its free attempts are used. */
  addressGate: LimiterSpec;
  /** Attempts reserved for an account (or a bucket of unknown emails), from any address. */
  accountAttempts: LimiterSpec;
  /** One token per account, held for the pace once it has had too many attempts. */
  accountPace: LimiterSpec;
}

export interface LimiterSpec {
  points: number;
  durationSecs: number;
}

export type SignInLimiters = Record<keyof SignInLimiterSpecs, RateLimiterAbstract>;

export type SignInLimiterStore = { kind: "memory" } | { kind: "postgres"; pool: pg.Pool };

/** The table rate-limiter-flexible keeps sign-in counters in on PostgreSQL. */
export const SIGN_IN_LIMITS_TABLE = "forage_sign_in_limits";

/** The four limiters on the store; on PostgreSQL, resolves once their table exists. */
export async function createSignInLimiters(store: SignInLimiterStore, specs: SignInLimiterSpecs): Promise<SignInLimiters> {
  const names = Object.keys(specs) as Array<keyof SignInLimiterSpecs>;
  const optionsOf = (name: keyof SignInLimiterSpecs) => ({ keyPrefix: `sign-in-${name}`, points: specs[name].points, duration: specs[name].durationSecs });
  if (store.kind === "memory") return Object.fromEntries(names.map((name) => [name, new RateLimiterMemory(optionsOf(name))])) as unknown as SignInLimiters;
  const postgres = (name: keyof SignInLimiterSpecs, tableCreated: boolean) =>
    new Promise<RateLimiterPostgres>((resolve, reject) => {
      const limiter: RateLimiterPostgres = new RateLimiterPostgres(
        { ...optionsOf(name), storeClient: store.pool, storeType: "pool", tableName: SIGN_IN_LIMITS_TABLE, tableCreated },
        // Called within the constructor when the table is known to exist: wait until `limiter` is assigned.
        (error?: Error) =>
          queueMicrotask(() => (error ? reject(new Error(`Cannot create the sign-in limits table ${SIGN_IN_LIMITS_TABLE}: ${error.message}`, { cause: error })) : resolve(limiter))),
      );
    });
  // The first creates the table (if absent); the others share it.
  const [first, ...rest] = names;
  const limiters: Partial<SignInLimiters> = { [first!]: await postgres(first!, false) };
  for (const name of rest) limiters[name] = await postgres(name, true);
  return limiters as SignInLimiters;
}
