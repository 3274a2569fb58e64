// Derives the PostgreSQL variant of the Prisma schema from the one source, prisma/schema.prisma.
// Plain Node, no dependencies (it runs in `postinstall`).
//
// Prisma allows one datasource provider per schema, and a generated client serves one provider
// only: the client embeds the query compiler of its provider (query_compiler_bg.sqlite.wasm…)
// and refuses another adapter ("The Driver Adapter `@prisma/adapter-pg`, based on `postgres`,
// is not compatible with the provider `sqlite`", checked with 6.19.3). So PostgreSQL gets:
//   prisma/postgres/schema.prisma       this script's output: provider swapped, client output
//                                       ../../generated/prisma-postgres, models byte-for-byte
//   generated/prisma-postgres/          its client (gitignored), same model types
//   prisma/postgres/migrations/         its own migrations, one folder per SQLite migration
//   prisma/postgres/prisma.config.ts    the CLI config (PrismaPg adapter + OID shim)
//
// Usage:
//   node scripts/prisma-postgres.mjs             write prisma/postgres/schema.prisma (when changed)
//   node scripts/prisma-postgres.mjs --generate  … and generate its client (postinstall, setup)
//   node scripts/prisma-postgres.mjs --check     exit 1 when the generated schema or the
//                                                migration folders are out of sync (a test runs it)
//
// A new migration: after `prisma migrate diff … -o prisma/migrations/NNNN_x/migration.sql` for
// SQLite, run this script, then write the PostgreSQL one from the previous PostgreSQL schema:
//   git show HEAD:prisma/postgres/schema.prisma > /tmp/prev.prisma
//   npx prisma migrate diff --from-schema-datamodel /tmp/prev.prisma \
//     --to-schema-datamodel prisma/postgres/schema.prisma --script -o prisma/postgres/migrations/NNNN_x/migration.sql
// (0001_init came from `--from-empty`; neither needs a database.)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SOURCE_SCHEMA = path.join(ROOT, "prisma/schema.prisma");
export const POSTGRES_SCHEMA = path.join(ROOT, "prisma/postgres/schema.prisma");
export const POSTGRES_CONFIG = path.join(ROOT, "prisma/postgres/prisma.config.ts");
const SQLITE_MIGRATIONS = path.join(ROOT, "prisma/migrations");
const POSTGRES_MIGRATIONS = path.join(ROOT, "prisma/postgres/migrations");

const HEADER =
  "// GENERATED from prisma/schema.prisma by scripts/prisma-postgres.mjs: do not edit.\n" +
  "// Edit the source schema, then run `node scripts/prisma-postgres.mjs --generate`.\n\n";

/** The exact rewrites, each required to match once: a source schema they no longer fit is an error, not a silent copy. */
const REWRITES = [
  { what: "the datasource provider", from: /(datasource db \{[^}]*?provider\s*=\s*)"sqlite"/, to: '$1"postgresql"' },
  { what: "the client output", from: /(generator client \{[^}]*?output\s*=\s*)"\.\.\/generated\/prisma"/, to: '$1"../../generated/prisma-postgres"' },
];

/** The PostgreSQL schema text for a source schema text. */
export function derivePostgresSchema(source) {
  let text = source;
  for (const rewrite of REWRITES) {
    if (!rewrite.from.test(text)) throw new Error(`prisma/schema.prisma: cannot find ${rewrite.what} to rewrite for PostgreSQL`);
    text = text.replace(rewrite.from, rewrite.to);
  }
  return HEADER + text;
}

function migrationNames(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort();
}

/** Problems that make the PostgreSQL side disagree with the source; empty when in sync. */
export function checkPostgresSchema() {
  const problems = [];
  const expected = derivePostgresSchema(fs.readFileSync(SOURCE_SCHEMA, "utf8"));
  const actual = fs.existsSync(POSTGRES_SCHEMA) ? fs.readFileSync(POSTGRES_SCHEMA, "utf8") : null;
  if (actual !== expected) {
    problems.push("prisma/postgres/schema.prisma is not the one derived from prisma/schema.prisma: run `node scripts/prisma-postgres.mjs --generate`");
  }
  const sqlite = migrationNames(SQLITE_MIGRATIONS);
  const postgres = migrationNames(POSTGRES_MIGRATIONS);
  if (sqlite.join("\n") !== postgres.join("\n")) {
    problems.push(
      `the migration folders differ: prisma/migrations has [${sqlite.join(", ")}], prisma/postgres/migrations has [${postgres.join(", ")}] ` +
        "(every SQLite migration needs its PostgreSQL twin; see the header of scripts/prisma-postgres.mjs)",
    );
  }
  const lock = path.join(POSTGRES_MIGRATIONS, "migration_lock.toml");
  if (!fs.existsSync(lock) || !/provider\s*=\s*"postgresql"/.test(fs.readFileSync(lock, "utf8"))) {
    problems.push('prisma/postgres/migrations/migration_lock.toml must say provider = "postgresql"');
  }
  return problems;
}

/** Writes the PostgreSQL schema when its content changed (keeps the mtime otherwise). */
export function writePostgresSchema() {
  const expected = derivePostgresSchema(fs.readFileSync(SOURCE_SCHEMA, "utf8"));
  const current = fs.existsSync(POSTGRES_SCHEMA) ? fs.readFileSync(POSTGRES_SCHEMA, "utf8") : null;
  if (current === expected) return false;
  fs.mkdirSync(path.dirname(POSTGRES_SCHEMA), { recursive: true });
  fs.writeFileSync(POSTGRES_SCHEMA, expected);
  return true;
}

/** `prisma generate` for the PostgreSQL schema (no database needed). */
export function generatePostgresClient() {
  const result = spawnSync(process.execPath, [path.join(ROOT, "node_modules/prisma/build/index.js"), "generate", "--config", POSTGRES_CONFIG], {
    cwd: ROOT,
    stdio: "inherit",
    env: { ...process.env, CHECKPOINT_DISABLE: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
  if (result.status !== 0) throw new Error(`prisma generate (PostgreSQL) failed (exit ${result.status ?? result.signal})`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = new Set(process.argv.slice(2));
  if (args.has("--check")) {
    const problems = checkPostgresSchema();
    for (const problem of problems) process.stderr.write(`[forage] ${problem}\n`);
    if (problems.length === 0) process.stdout.write("[forage] prisma/postgres is in sync with prisma/schema.prisma\n");
    process.exit(problems.length === 0 ? 0 : 1);
  }
  if (writePostgresSchema()) process.stdout.write("[forage] wrote prisma/postgres/schema.prisma\n");
  if (args.has("--generate")) generatePostgresClient();
}
