import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import type { ForageConfig } from "../config";
import { dialectOf } from "./dialect";
import { openDatabase, type Db } from "./prisma-client";

/**
 * Project root: lib/store/ is two levels below it. Bundlers (Next.js) may rewrite
 * import.meta.url, so fall back to the working directory, which `npm start` sets to the root.
 */
export const PROJECT_ROOT = findProjectRoot();

function findProjectRoot(): string {
  try {
    const here = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
    if (fs.existsSync(path.join(here, "prisma/schema.prisma"))) return here;
  } catch {
    // not a file URL (bundled): use the working directory
  }
  return process.cwd();
}

export class DatabaseNotReadyError extends Error {
  override name = "DatabaseNotReadyError";
}

function migrationsDir(config: ForageConfig): string {
  return path.join(PROJECT_ROOT, dialectOf(config).migrationsPath);
}

/** Names of the migrations shipped with this version of Forage, in order. */
export function shippedMigrations(config: ForageConfig): string[] {
  const dir = migrationsDir(config);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();
}

/** Migrations shipped but not (successfully) applied to the database. */
export async function pendingMigrations(db: Db, config: ForageConfig): Promise<string[]> {
  const shipped = shippedMigrations(config);
  // Only a missing table means "fresh database": any other failure (unreachable server, bad
  // credentials) must surface, not send the caller into `migrate deploy` with it.
  const table = await db.$queryRawUnsafe<unknown[]>(dialectOf(config).tableExistsSql, "_prisma_migrations");
  if (table.length === 0) return shipped;
  const applied = await db.$queryRawUnsafe<{ migration_name: string }[]>(
    `SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`,
  );
  const done = new Set(applied.map((row) => row.migration_name));
  return shipped.filter((name) => !done.has(name));
}

/**
 * Applies pending migrations with `prisma migrate deploy` (the WASM schema engine: no binary).
 * Every process calls this before touching the database; it is a no-op when nothing is pending.
 * Prisma takes an advisory lock on PostgreSQL; on SQLite the file lock serialises writers.
 * On PostgreSQL the CLI process lingers for seconds after its work (a timer in the WASM schema
 * engine): callers run it once, not per test.
 */
export async function applyMigrations(config: ForageConfig): Promise<void> {
  if (config.sqlitePath) fs.mkdirSync(path.dirname(config.sqlitePath), { recursive: true });
  const require = createRequire(path.join(PROJECT_ROOT, "package.json"));
  const prismaCli = require.resolve("prisma/build/index.js");
  const args = [prismaCli, "migrate", "deploy"];
  const { prismaConfigPath } = dialectOf(config);
  if (prismaConfigPath) args.push("--config", path.join(PROJECT_ROOT, prismaConfigPath));
  const output: string[] = [];
  const code = await new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: config.databaseUrl, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    child.on("error", reject);
    child.on("exit", (exitCode) => resolve(exitCode ?? 1));
  });
  if (code !== 0) {
    const tail = output.join("").trim().split("\n").filter((line) => !/^\s+at /.test(line)).slice(-14).join("\n");
    throw new DatabaseNotReadyError(`Could not apply database migrations to ${redact(config.databaseUrl)}:\n${tail}`);
  }
}

/**
 * Checks the database for pending migrations and, when asked, applies them. The check uses
 * its own short-lived client: an open client holds SQLite locks the schema engine then waits
 * on (it fails with SQLITE_BUSY surfaced as "unknown variant SocketTimeout").
 */
export async function ensureMigrated(config: ForageConfig, { apply }: { apply: boolean }): Promise<string[]> {
  const probe = await openDatabase(config);
  let pending: string[];
  try {
    pending = await pendingMigrations(probe, config);
  } finally {
    await probe.$disconnect();
  }
  if (pending.length === 0) return [];
  if (!apply) {
    throw new DatabaseNotReadyError(
      `The database ${redact(config.databaseUrl)} is missing ${pending.length} migration(s) (${pending.join(", ")}). ` +
        `Run "npm run db:migrate" or start Forage with "npm start", which applies them.`,
    );
  }
  await applyMigrations(config);
  return pending;
}

/** Hides a password in a connection string for messages. */
export function redact(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]+)@/, "//$1:***@");
}
