import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { Prisma } from "../../generated/prisma/client";
import { loadConfig, type ForageConfig } from "../../lib/config";
import { DatabaseNotReadyError, ensureMigrated, openDatabase, pendingMigrations } from "../../lib/store";
import { createPostgresDatabase, postgresDatabaseUrl, type PostgresTestDatabase } from "../helpers/postgres";
import { startNodeProcess } from "../helpers/processes";
import { describePostgres } from "../helpers/test-database";

// The one test that pays for `prisma migrate deploy` on PostgreSQL (~13 s: the CLI lingers after
// its work); every other file clones the template the global setup migrated.

/** The PostgreSQL migrations in the repository, oldest first. */
const MIGRATIONS = fs
  .readdirSync(path.join(import.meta.dirname, "../../prisma/postgres/migrations"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

let database: PostgresTestDatabase;
let config: ForageConfig;
let dir: string;

beforeAll(async () => {
  const status = inject("postgres");
  if (!status.available) return;
  database = await createPostgresDatabase(status, { migrated: false });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-pg-migrate-"));
  config = loadConfig({ DATABASE_URL: database.url, FORAGE_DATA_DIR: dir });
});

afterAll(async () => {
  await database?.drop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** `forage migrate` as a user runs it, with DATABASE_URL pointing at PostgreSQL. */
async function forageMigrate(): Promise<{ code: number | null; output: string; ms: number }> {
  const started = Date.now();
  const child = startNodeProcess(["bin/forage.mjs", "migrate"], { DATABASE_URL: config.databaseUrl, FORAGE_DATA_DIR: dir });
  const code = await new Promise<number | null>((resolve) => child.child.once("exit", resolve));
  return { code, output: child.output(), ms: Date.now() - started };
}

describePostgres("PostgreSQL migrations (prisma/postgres/migrations through the CLI)", () => {
  it("reports a fresh database as not ready instead of touching it", async () => {
    await expect(ensureMigrated(config, { apply: false })).rejects.toThrow(DatabaseNotReadyError);
    await expect(ensureMigrated(config, { apply: false })).rejects.toThrow(`missing ${MIGRATIONS.length} migration(s) (${MIGRATIONS.join(", ")})`);
  });

  it("applies every migration to a fresh database with `forage migrate`, then has nothing pending", async () => {
    const first = await forageMigrate();
    expect(MIGRATIONS.length).toBeGreaterThanOrEqual(2);
    expect(first.output).toContain(`Applied ${MIGRATIONS.length} migration(s)`);
    expect(first.code).toBe(0);

    const db = await openDatabase(config);
    try {
      expect(await pendingMigrations(db, config)).toEqual([]);
      // Every model field is a column, and no column is left over: migrations match the schema.
      // Catalog names are of type "name", which the adapter cannot read (prisma/orm#27403): text.
      const columns = await db.$queryRaw<{ table_name: string; column_name: string }[]>`
        SELECT table_name::text AS table_name, column_name::text AS column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name <> '_prisma_migrations'`;
      const actual = new Map<string, string[]>();
      for (const row of columns) actual.set(row.table_name, [...(actual.get(row.table_name) ?? []), row.column_name].sort());
      const expected = new Map(
        Object.keys(Prisma.ModelName).map((model) => [model, Object.keys(Prisma[`${model}ScalarFieldEnum` as keyof typeof Prisma] as object).sort()]),
      );
      expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
    } finally {
      await db.$disconnect();
    }

    // Up to date: no CLI run at all, so none of its linger.
    const second = await forageMigrate();
    expect(second.output).toContain("is up to date");
    expect(second.code).toBe(0);
    expect(second.ms).toBeLessThan(8_000);
  });

  it("surfaces an unreachable database instead of calling it fresh", async () => {
    const missing = loadConfig({ DATABASE_URL: postgresDatabaseUrl(config.databaseUrl, "forage_no_such_database"), FORAGE_DATA_DIR: dir });
    const db = await openDatabase(missing);
    try {
      await expect(pendingMigrations(db, missing)).rejects.toThrow(/does not exist/);
    } finally {
      await db.$disconnect();
    }
  });
});
