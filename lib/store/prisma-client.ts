import fs from "node:fs";
import path from "node:path";
import type { PrismaClient } from "../../generated/prisma/client";
import type { DatabaseProvider, ForageConfig } from "../config";
import { dialectOf } from "./dialect";

/**
 * The Prisma client type of every store function, whichever database is open. Each provider
 * has its own generated client (a client embeds its provider's query compiler and refuses an
 * adapter of another: see scripts/prisma-postgres.mjs), generated from the same models; the
 * SQLite client's type stands for both. The PostgreSQL client's API is a superset (e.g.
 * `mode: "insensitive"` filters), so code typed against this one runs on both.
 */
export type Db = PrismaClient;

/** Busy timeout for SQLite writers: the dashboard reads while the worker writes. @default 10000 */
const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/**
 * How each provider opens a client through its driver adapter (no engine binary). Imports are
 * dynamic so a process only loads its own driver and query compiler (~2 MB of WASM each).
 */
const CLIENT_FACTORIES: Record<DatabaseProvider, (config: ForageConfig) => Promise<Db>> = {
  async sqlite(config) {
    fs.mkdirSync(path.dirname(config.sqlitePath!), { recursive: true });
    const [{ PrismaBetterSQLite3 }, { PrismaClient }] = await Promise.all([
      import("@prisma/adapter-better-sqlite3"),
      import("../../generated/prisma/client"),
    ]);
    return new PrismaClient({ adapter: new PrismaBetterSQLite3({ url: config.databaseUrl, timeout: SQLITE_BUSY_TIMEOUT_MS }) });
  },
  async postgresql(config) {
    const [{ PrismaPg }, { PrismaClient }] = await Promise.all([import("@prisma/adapter-pg"), import("../../generated/prisma-postgres/client")]);
    const adapter = new PrismaPg({
      connectionString: config.databaseUrl,
      // Columns are `timestamp without time zone` holding UTC (Prisma's convention): a UTC
      // session makes the database's own defaults (CURRENT_TIMESTAMP in raw inserts) agree.
      options: "-c TimeZone=UTC",
      // Idle pooled connections do not keep the process alive: a CLI command whose last write
      // was fire-and-forget (a lease release) exits at once instead of after the pool's 10 s
      // idle timeout. Servers and workers stay up on their own handles.
      allowExitOnIdle: true,
    });
    return new PrismaClient({ adapter }) as unknown as Db;
  },
};

/** Opens a Prisma client on the configured database and applies its session settings. */
export async function openDatabase(config: ForageConfig): Promise<Db> {
  const db = await CLIENT_FACTORIES[config.databaseProvider](config);
  for (const sql of dialectOf(config).sessionSetupSql) await db.$queryRawUnsafe(sql);
  return db;
}
