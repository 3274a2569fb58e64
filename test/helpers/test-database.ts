import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, inject, it } from "vitest";
import { loadConfig, type ForageConfig } from "../../lib/config";
import { openDatabase, type Db } from "../../lib/store";
import type { TestBackend } from "./global-setup";
import { createPostgresDatabase } from "./postgres";

export type { TestBackend };

export interface TestDatabase {
  backend: TestBackend;
  config: ForageConfig;
  db: Db;
  dir: string;
  /** Opens another client on the same database (closed by `dispose`). */
  openClient(): Promise<Db>;
  /** Disconnects every client, drops the database and removes the folder. */
  dispose(): Promise<void>;
}

/** The backend of this run: FORAGE_TEST_DB=postgres runs every database test on PostgreSQL. */
export function testBackend(): TestBackend {
  return inject("testBackend");
}

/**
 * A fresh, migrated database and data folder for one test file, cloned from the template the
 * global setup migrated: a SQLite file copy, or a PostgreSQL `CREATE DATABASE … TEMPLATE`.
 * Real database, real Prisma. `backend` defaults to the run's (FORAGE_TEST_DB).
 */
export async function createTestDatabase({ backend = testBackend() }: { backend?: TestBackend } = {}): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-test-"));
  let databaseUrl: string;
  let dropDatabase = async () => {};
  if (backend === "postgres") {
    const status = inject("postgres");
    if (!status.available) throw new Error(status.reason);
    const database = await createPostgresDatabase(status);
    databaseUrl = database.url;
    dropDatabase = database.drop;
  } else {
    const sqlitePath = path.join(dir, "forage.db");
    fs.copyFileSync(inject("templateDbPath"), sqlitePath);
    databaseUrl = `file:${sqlitePath}`;
  }
  const config = loadConfig({ DATABASE_URL: databaseUrl, FORAGE_DATA_DIR: dir });
  const db = await openDatabase(config);
  const clients = [db];
  return {
    backend,
    config,
    db,
    dir,
    async openClient() {
      const client = await openDatabase(config);
      clients.push(client);
      return client;
    },
    async dispose() {
      await Promise.all(clients.map((client) => client.$disconnect()));
      await dropDatabase();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `describe` for tests that need PostgreSQL whatever FORAGE_TEST_DB says. They are never
 * skipped: without a server one failing test carries the reason (`npm test` installs and starts
 * Debian's PostgreSQL before the tests, so this only happens when that could not be done).
 */
export function describePostgres(name: string, fn: () => void): void {
  const status = inject("postgres");
  if (status.available) {
    describe(name, fn);
  } else {
    describe(name, () => {
      it("needs a PostgreSQL server", () => {
        throw new Error(`${status.reason} (as root, \`node scripts/setup.mjs postgres --install\` sets it up)`);
      });
    });
  }
}
