import fs from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "../../generated/prisma/client";
import type { ForageConfig } from "../config";

export type Db = PrismaClient;

/** Busy timeout for SQLite writers: the dashboard reads while the worker writes. @default 10000 */
const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/**
 * Opens a Prisma client on the configured database through a driver adapter (no engine binary).
 * SQLite gets WAL so readers never block the worker's writes.
 */
export async function openDatabase(config: ForageConfig): Promise<Db> {
  if (config.databaseProvider === "sqlite") {
    fs.mkdirSync(path.dirname(config.sqlitePath!), { recursive: true });
    const adapter = new PrismaBetterSQLite3({ url: config.databaseUrl, timeout: SQLITE_BUSY_TIMEOUT_MS });
    const db = new PrismaClient({ adapter });
    // journal_mode returns a row, so it must go through $queryRaw.
    await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await db.$queryRawUnsafe("PRAGMA synchronous = NORMAL");
    return db;
  }
  const { PrismaPg } = await import("@prisma/adapter-pg");
  return new PrismaClient({ adapter: new PrismaPg({ connectionString: config.databaseUrl }) }) as Db;
}
