import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { loadConfig } from "../../lib/config";
import { applyMigrations, redact } from "../../lib/store/migrations";
import { PROJECT_ROOT } from "./paths";

// PostgreSQL for the tests: Debian's cluster on 127.0.0.1:5432 and a role with CREATEDB
// (scripts/setup.mjs `ensurePostgres` provides both; .ci/run installs the package). Each test
// file gets its own database, cloned from a template that migrations were applied to once
// (graphile-worker's template helper): a clone costs ~0.2 s, `prisma migrate deploy` on
// PostgreSQL ~13 s because the CLI lingers after its work.
// No vitest imports here: the global setup (main process) uses this module too.

/** A login role with CREATEDB, connected to a database that always exists. */
export const POSTGRES_ADMIN_URL = process.env.FORAGE_TEST_POSTGRES_URL || "postgresql://forage:forage@127.0.0.1:5432/postgres";

export type PostgresStatus =
  | { available: true; adminUrl: string; template: string }
  | { available: false; reason: string };

/** Serialises template builds of concurrent test runs (any constant: the admin database scopes it). */
const TEMPLATE_LOCK_KEY = 0x706f7267; // "forg"
/** Test databases whose run crashed before dropping them are removed after this. */
const STALE_TEST_DATABASE_SECS = 6 * 3600;
const TEST_DATABASE_PREFIX = "forage_test_";

/** The connection string of another database on the same server and role. */
export function postgresDatabaseUrl(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * DROP DATABASE … WITH (FORCE), retried while it fails with 42501: FORCE must be allowed to
 * terminate every session on the database, and an autovacuum worker that started on it (after a
 * test wrote many rows) is not ours to terminate; it finishes within moments.
 */
async function dropDatabase(client: pg.Client, name: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== "42501" || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

async function withAdmin<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Null when the server answers, else why it does not. */
async function probe(adminUrl: string): Promise<string | null> {
  try {
    await withAdmin(adminUrl, (client) => client.query("SELECT 1"));
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || String((error as { code?: string }).code) : String(error);
  }
}

/**
 * Makes PostgreSQL ready for this test run: starts the local cluster and creates the role when
 * they are installed but not running (the default URL only), then builds or reuses the
 * migrated template. Never throws for a missing server: the caller decides (skip or fail).
 */
export async function preparePostgres(adminUrl = POSTGRES_ADMIN_URL): Promise<PostgresStatus> {
  let problem = await probe(adminUrl);
  if (problem && !process.env.FORAGE_TEST_POSTGRES_URL) {
    const setup = spawnSync(process.execPath, [path.join(PROJECT_ROOT, "scripts/setup.mjs"), "postgres"], { cwd: PROJECT_ROOT, encoding: "utf8" });
    const setupProblem = setup.status === 0 ? null : (setup.stderr || setup.stdout).trim().replace(/^\[forage\] PostgreSQL not ready: /, "");
    problem = setupProblem ?? (await probe(adminUrl));
  }
  if (problem) return { available: false, reason: `no PostgreSQL server at ${redact(adminUrl)}: ${problem}` };
  return { available: true, adminUrl, template: await ensureTemplate(adminUrl) };
}

/** Name of the template for the shipped PostgreSQL migrations: a content hash, so a changed migration gets a new one. */
function templateName(): string {
  const dir = path.join(PROJECT_ROOT, "prisma/postgres/migrations");
  const hash = crypto.createHash("sha256");
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name, "migration.sql");
    if (fs.existsSync(file)) hash.update(`${name}\0`).update(fs.readFileSync(file)).update("\0");
  }
  return `forage_template_${hash.digest("hex").slice(0, 12)}`;
}

/**
 * The migrated template database, built at most once per migration set and kept between runs
 * (a second run costs one query). Built under another name and renamed when complete, so a
 * crash never leaves a half-migrated template behind; concurrent runs wait on an advisory lock.
 */
async function ensureTemplate(adminUrl: string): Promise<string> {
  const template = templateName();
  return withAdmin(adminUrl, async (client) => {
    await client.query("SELECT pg_advisory_lock($1)", [TEMPLATE_LOCK_KEY]);
    try {
      await dropStaleDatabases(client);
      const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [template]);
      if (found.rowCount === 0) {
        const build = `forage_template_build_${process.pid}`;
        await client.query(`DROP DATABASE IF EXISTS "${build}" WITH (FORCE)`);
        await client.query(`CREATE DATABASE "${build}"`);
        // The application's own path (lib/store/migrations.ts → prisma migrate deploy with
        // prisma/postgres/prisma.config.ts), so the tests cover it.
        await applyMigrations(loadConfig({ DATABASE_URL: postgresDatabaseUrl(adminUrl, build) }));
        await client.query(`ALTER DATABASE "${build}" RENAME TO "${template}"`);
        // No connections: CREATE DATABASE … TEMPLATE fails while anyone is connected to it.
        await client.query(`ALTER DATABASE "${template}" WITH ALLOW_CONNECTIONS false`);
      }
      return template;
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [TEMPLATE_LOCK_KEY]);
    }
  });
}

/** Test databases of runs that crashed hours ago, and template builds of dead processes. */
async function dropStaleDatabases(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE 'forage\\_test\\_%' OR datname LIKE 'forage\\_template\\_build\\_%'`,
  );
  const nowSecs = Date.now() / 1000;
  for (const { datname } of rows) {
    const build = /^forage_template_build_(\d+)$/.exec(datname);
    const test = /^forage_test_(\d+)_/.exec(datname);
    const stale = build ? !processAlive(Number(build[1])) : test ? nowSecs - Number(test[1]) > STALE_TEST_DATABASE_SECS : false;
    if (stale) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => undefined);
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface PostgresTestDatabase {
  url: string;
  name: string;
  /** Drops the database, closing any connection left (WITH FORCE). */
  drop(): Promise<void>;
}

/** A fresh database cloned from the migrated template, or an empty one (`migrated: false`). */
export async function createPostgresDatabase(
  status: Extract<PostgresStatus, { available: true }>,
  { migrated = true }: { migrated?: boolean } = {},
): Promise<PostgresTestDatabase> {
  const name = `${TEST_DATABASE_PREFIX}${Math.floor(Date.now() / 1000)}_${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
  await withAdmin(status.adminUrl, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(migrated ? `CREATE DATABASE "${name}" TEMPLATE "${status.template}"` : `CREATE DATABASE "${name}"`);
        return;
      } catch (error) {
        // 55006 "source database is being accessed by other users": someone connected to the
        // template (a superuser can despite ALLOW_CONNECTIONS false); retry briefly.
        if ((error as { code?: string }).code !== "55006" || attempt >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 + 50 * attempt));
      }
    }
  });
  return {
    url: postgresDatabaseUrl(status.adminUrl, name),
    name,
    drop: () => withAdmin(status.adminUrl, (client) => dropDatabase(client, name)),
  };
}
