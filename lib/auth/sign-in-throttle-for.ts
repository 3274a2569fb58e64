import pg from "pg";
import type { ForageConfig } from "../config";
import { dialectOf } from "../store/dialect";
import { SignInThrottle, type SignInLimits } from "./sign-in-throttle";

export interface OpenSignInThrottle {
  throttle: SignInThrottle;
  /** Ends the PostgreSQL pool, if one was opened. */
  close(): Promise<void>;
}

/**
 * The sign-in throttle on the store the database's dialect names: memory for SQLite, the shared
 * table for PostgreSQL, reached through a small pool of its own (rate-limiter-flexible speaks
 * `pg`, not Prisma; its statements are single upserts, so two connections suffice).
 */
export async function openSignInThrottle(config: ForageConfig, limits: Partial<SignInLimits> = {}): Promise<OpenSignInThrottle> {
  if (dialectOf(config).signInLimits === "in-process") {
    return { throttle: await SignInThrottle.create({ kind: "memory" }, limits), close: async () => {} };
  }
  const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 2, connectionTimeoutMillis: 5_000 });
  // An idle connection the server dropped must not crash the dashboard; the next query reconnects.
  pool.on("error", (error) => console.error("sign-in limits pool:", error.message));
  try {
    return { throttle: await SignInThrottle.create({ kind: "postgres", pool }, limits), close: () => pool.end() };
  } catch (error) {
    await pool.end();
    throw error;
  }
}
