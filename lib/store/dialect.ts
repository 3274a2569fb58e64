import type { DatabaseProvider } from "../config";

/**
 * What differs between the databases Forage runs on, in one table (after pg-boss's
 * `BACKEND_PROFILES`): code asks for a capability (`dialectOf(config).sessionSetupSql`) instead
 * of testing the provider in every helper. Everything else is written once for both: Prisma's
 * typed queries, and raw SQL with quoted identifiers and parameters bound through the tagged
 * `$queryRaw`/`Prisma.sql` (each adapter writes its own placeholders; hand-written ones differ,
 * `?` against `$1`), `ON CONFLICT (…) DO NOTHING` (SQLite ≥ 3.24), window functions
 * (SQLite ≥ 3.25), `RETURNING` (SQLite ≥ 3.35).
 *
 * Raw SQL on PostgreSQL must not return catalog columns of type `name` (information_schema,
 * pg_catalog): @prisma/adapter-pg 6.19 cannot read them (prisma/orm#27403); cast to text.
 */
export interface DialectProfile {
  /** Prisma migrations folder, relative to the project root. */
  migrationsPath: string;
  /**
   * Prisma CLI config for `migrate deploy`, relative to the project root; null for the root
   * `prisma.config.ts` (the CLI's default).
   */
  prismaConfigPath: string | null;
  /**
   * Statements each new client runs once, through `$queryRawUnsafe` (SQLite's PRAGMAs return a
   * row). SQLite: WAL, so the dashboard's reads never wait for the worker's writes, and
   * synchronous=NORMAL (no fsync per transaction in WAL mode). PostgreSQL needs none.
   */
  sessionSetupSql: readonly string[];
  /** One row when the table named by the single bound parameter exists, none otherwise. */
  tableExistsSql: string;
  /**
   * Most bound parameters one statement takes (SQLite's SQLITE_MAX_VARIABLE_NUMBER since 3.32,
   * PostgreSQL's protocol limit of a 16-bit count).
   */
  maxBindParameters: number;
  /**
   * Two clients of one process may wait on each other's locks. Not on SQLite: better-sqlite3
   * is synchronous, so a connection waiting for a lock blocks the event loop, and with it the
   * other connection that would release it (a deadlock until the busy timeout). Tests that
   * race claimers use one client there, two on PostgreSQL.
   */
  concurrentClientsInOneProcess: boolean;
  /**
   * Where a worker keeps its per-host politeness clocks: in its own memory (SQLite: one
   * machine, usually one worker) or in the database, shared by every worker
   * (lib/store/host-clock-postgres.ts), so two workers crawling one host honour one delay.
   */
  hostClock: "in-process" | "database";
  /**
   * Where the dashboard keeps its sign-in limits (lib/auth/sign-in-limiters.ts): its own memory
   * (SQLite: one dashboard process) or a table every dashboard process shares, so that running
   * several does not multiply an attacker's guesses.
   */
  signInLimits: "in-process" | "database";
}

export const DIALECTS = {
  sqlite: {
    migrationsPath: "prisma/migrations",
    prismaConfigPath: null,
    sessionSetupSql: ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"],
    tableExistsSql: `SELECT 1 AS "found" FROM "sqlite_master" WHERE "type" = 'table' AND "name" = ?`,
    maxBindParameters: 32_766,
    concurrentClientsInOneProcess: false,
    hostClock: "in-process",
    signInLimits: "in-process",
  },
  postgresql: {
    migrationsPath: "prisma/postgres/migrations",
    prismaConfigPath: "prisma/postgres/prisma.config.ts",
    sessionSetupSql: [],
    // to_regclass honours the search_path, as Prisma's own tables do (schema "public" by default).
    tableExistsSql: `SELECT 1 AS "found" WHERE to_regclass(quote_ident($1)) IS NOT NULL`,
    maxBindParameters: 65_535,
    concurrentClientsInOneProcess: true,
    hostClock: "database",
    signInLimits: "database",
  },
} as const satisfies Record<DatabaseProvider, DialectProfile>;

/** The profile of the configured database. */
export function dialectOf(config: { databaseProvider: DatabaseProvider }): DialectProfile {
  return DIALECTS[config.databaseProvider];
}

/** The smallest limit across dialects: SQL sized by it runs on every database unchanged. */
export const PORTABLE_MAX_BIND_PARAMETERS = Math.min(...Object.values(DIALECTS).map((dialect) => dialect.maxBindParameters));
