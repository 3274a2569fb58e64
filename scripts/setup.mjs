// Set-up steps shared by `npm start` and `npm test`. Plain Node, no dependencies: these run
// on a fresh clone before node_modules exists.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const quietEnv = { ...process.env, CHECKPOINT_DISABLE: "1", NEXT_TELEMETRY_DISABLED: "1", PRISMA_HIDE_UPDATE_MESSAGE: "1" };

export function log(message) {
  process.stdout.write(`[forage] ${message}\n`);
}

export function run(command, args, { env = {}, allowFailure = false } = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: "inherit", env: { ...quietEnv, ...env } });
  if (result.status !== 0 && !allowFailure) {
    log(`"${[command, ...args].join(" ")}" failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status || 1);
  }
  return result.status === 0;
}

function mtimeMs(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}

/** Newest modification time of the files under the given paths (directories walked). */
function newestMtime(paths) {
  let newest = 0;
  const stack = paths.map((p) => path.join(ROOT, p));
  while (stack.length > 0) {
    const current = stack.pop();
    let stat;
    try {
      stat = fs.statSync(current);
    } catch {
      continue;
    }
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(current)) stack.push(path.join(current, entry));
    } else if (stat.mtimeMs > newest) {
      newest = stat.mtimeMs;
    }
  }
  return newest;
}

/** `npm ci` when node_modules is missing or older than the lock file. */
export function ensureDependencies() {
  const installedMarker = path.join(ROOT, "node_modules/.package-lock.json");
  if (mtimeMs(installedMarker) >= mtimeMs(path.join(ROOT, "package-lock.json")) && mtimeMs(installedMarker) > 0) return;
  log("Installing dependencies (npm ci; about 2 minutes the first time)…");
  run("npm", ["ci", "--no-audit", "--no-fund"]);
}

/**
 * The Prisma clients are generated code (gitignored): regenerate when the schema changed. Two
 * clients, SQLite's and PostgreSQL's (scripts/prisma-postgres.mjs says why), from one schema.
 */
export function ensurePrismaClient() {
  const schemaTime = mtimeMs(path.join(ROOT, "prisma/schema.prisma"));
  if (mtimeMs(path.join(ROOT, "generated/prisma/client.ts")) < schemaTime) {
    log("Generating the Prisma client…");
    run(process.execPath, ["node_modules/prisma/build/index.js", "generate"]);
  }
  if (mtimeMs(path.join(ROOT, "generated/prisma-postgres/client.ts")) < schemaTime) {
    log("Generating the PostgreSQL Prisma client…");
    run(process.execPath, ["scripts/prisma-postgres.mjs", "--generate"]);
  }
}

/** `next build` when there is no build or a source file is newer than it. */
export function ensureNextBuild() {
  const buildId = path.join(ROOT, ".next/BUILD_ID");
  const sources = newestMtime(["app", "components", "lib", "public", "next.config.ts", "package-lock.json", "tsconfig.json"]);
  if (mtimeMs(buildId) >= sources && mtimeMs(buildId) > 0) return;
  log("Building the dashboard (next build)…");
  run(process.execPath, ["node_modules/next/dist/bin/next", "build"]);
}

/**
 * Debian packages the tests use, installed when missing and we are root: Chromium for the browser
 * tests, wget as another crawler whose WARC files `forage import` must read.
 */
export function ensureTestPackages() {
  const missing = [
    { binary: "/usr/bin/chromium", pkg: "chromium" },
    { binary: "/usr/bin/wget", pkg: "wget" },
  ].filter(({ binary }) => !fs.existsSync(binary));
  if (missing.length === 0) return;
  const names = missing.map(({ pkg }) => pkg);
  if (typeof process.getuid === "function" && process.getuid() === 0) {
    log(`Installing ${names.join(" and ")} from Debian for the tests…`);
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", ...names], { env: { DEBIAN_FRONTEND: "noninteractive" } });
    return;
  }
  log(`The tests need Debian's ${names.join(" and ")}: run \`sudo apt-get install -y ${names.join(" ")}\`, then try again.`);
  process.exit(1);
}

/**
 * The PostgreSQL server of the PostgreSQL tests (and of `DATABASE_URL=postgresql://…` runs on
 * this machine): Debian's `postgresql` package, its cluster started, and a login role with
 * CREATEDB (tests create one database per file; Prisma's shadow databases need it too).
 * Idempotent and fast when all is there (~50 ms). Installs the package only with `install`
 * and as root (`npm test` asks for it); otherwise returns what is missing.
 * @returns null when ready, else the reason it is not
 */
export function ensurePostgres({ install = false } = {}) {
  const quiet = { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] };
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const listClusters = () => spawnSync("pg_lsclusters", ["--no-header"], quiet);
  let clusters = listClusters();
  if (clusters.error) {
    if (!install || !isRoot) return "Debian's PostgreSQL is not installed (as root: apt-get install -y postgresql)";
    log("Installing PostgreSQL from Debian for the PostgreSQL tests…");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "postgresql"], { env: { DEBIAN_FRONTEND: "noninteractive" } });
    clusters = listClusters();
  }
  // "15  main 5432 online postgres /var/lib/postgresql/15/main /var/log/…"
  const [version, name, port, status] = (clusters.stdout ?? "").trim().split("\n")[0]?.trim().split(/\s+/) ?? [];
  if (!version || !name) return "PostgreSQL is installed but has no cluster (pg_createcluster 15 main)";
  if (port !== String(POSTGRES_TEST_ROLE.port)) return `the PostgreSQL cluster ${version}/${name} listens on port ${port}, the tests expect ${POSTGRES_TEST_ROLE.port}`;
  if (!isRoot) return status === "online" ? null : `the PostgreSQL cluster ${version}/${name} is down (as root: pg_ctlcluster ${version} ${name} start)`;
  if (status !== "online") {
    log(`Starting the PostgreSQL cluster ${version}/${name}…`);
    const started = spawnSync("pg_ctlcluster", [version, name, "start"], quiet);
    if (started.status !== 0) return `pg_ctlcluster ${version} ${name} start failed: ${(started.stderr || started.stdout).trim()}`;
  }
  const { user, password } = POSTGRES_TEST_ROLE;
  const psql = (sql) => spawnSync("runuser", ["-u", "postgres", "--", "psql", "-p", port, "-X", "-v", "ON_ERROR_STOP=1", "-tAc", sql], quiet);
  const exists = psql(`SELECT 1 FROM pg_roles WHERE rolname = '${user}'`);
  if (exists.status !== 0) return `cannot query PostgreSQL as its superuser: ${(exists.stderr || exists.stdout).trim()}`;
  if (exists.stdout.trim() !== "1") {
    const created = psql(`CREATE ROLE ${user} LOGIN CREATEDB PASSWORD '${password}'`);
    if (created.status !== 0) return `cannot create the role ${user}: ${(created.stderr || created.stdout).trim()}`;
    log(`Created the PostgreSQL role "${user}" (CREATEDB) for the tests.`);
  }
  return null;
}

/** The tests' login role on 127.0.0.1 (test/helpers/postgres.ts builds its URL from it). */
export const POSTGRES_TEST_ROLE = { user: "forage", password: "forage", host: "127.0.0.1", port: 5432 };

// `node scripts/setup.mjs postgres [--install]`: sets up the tests' PostgreSQL by hand (`npm test` calls ensurePostgres itself).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [task, ...flags] = process.argv.slice(2);
  if (task !== "postgres") {
    process.stderr.write("usage: node scripts/setup.mjs postgres [--install]\n");
    process.exit(2);
  }
  const problem = ensurePostgres({ install: flags.includes("--install") });
  if (problem) process.stderr.write(`[forage] PostgreSQL not ready: ${problem}\n`);
  process.exit(problem ? 1 : 0);
}
