import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { loadConfig } from "../../lib/config";
import { applyMigrations } from "../../lib/store/migrations";
import { preparePostgres, type PostgresStatus } from "./postgres";

/** The database behind `createTestDatabase()`: FORAGE_TEST_DB=sqlite (default) or postgres. */
export type TestBackend = "sqlite" | "postgres";

declare module "vitest" {
  export interface ProvidedContext {
    templateDbPath: string;
    testBackend: TestBackend;
    postgres: PostgresStatus;
  }
}

/**
 * Migrates one template database per backend and test run; every test file clones it.
 * SQLite: a file copy (~1 ms) of a template migrated here (~1.5 s). PostgreSQL: a
 * `CREATE DATABASE … TEMPLATE` (~0.2 s) of a template built once per migration set and kept
 * between runs (its `migrate deploy` costs ~13 s: the CLI lingers). Mirrors graphile-worker's
 * template-database helper. The SQLite template lives in its own temporary folder so
 * concurrent test runs never share it; PostgreSQL templates are immutable once built.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const backend = (process.env.FORAGE_TEST_DB || "sqlite") as TestBackend;
  if (backend !== "sqlite" && backend !== "postgres") throw new Error(`FORAGE_TEST_DB must be "sqlite" or "postgres", not "${backend}"`);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-template-"));
  const templateDbPath = path.join(dir, "template.db");
  // Unit tests touch no database, and the root config ("") runs no tests of its own (vitest
  // still runs its global setup): no PostgreSQL for them.
  const needsPostgres = project.name !== "unit" && project.name !== "";
  const [, postgres] = await Promise.all([
    applyMigrations(loadConfig({ DATABASE_URL: `file:${templateDbPath}` })),
    needsPostgres ? preparePostgres() : Promise.resolve<PostgresStatus>({ available: false, reason: "no PostgreSQL for this project" }),
  ]);
  if (!postgres.available && needsPostgres) {
    if (backend === "postgres") throw new Error(`FORAGE_TEST_DB=postgres, but ${postgres.reason}`);
    console.warn(`[forage tests] ${postgres.reason}: the PostgreSQL tests FAIL. Set it up with: sudo node scripts/setup.mjs postgres --install`);
  }
  project.provide("templateDbPath", templateDbPath);
  project.provide("testBackend", backend);
  project.provide("postgres", postgres);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}
