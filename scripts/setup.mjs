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

/** The Prisma client is generated code (gitignored): regenerate when the schema changed. */
export function ensurePrismaClient() {
  const generated = path.join(ROOT, "generated/prisma/client.ts");
  if (mtimeMs(generated) >= mtimeMs(path.join(ROOT, "prisma/schema.prisma"))) return;
  log("Generating the Prisma client…");
  run(process.execPath, ["node_modules/prisma/build/index.js", "generate"]);
}

/** `next build` when there is no build or a source file is newer than it. */
export function ensureNextBuild() {
  const buildId = path.join(ROOT, ".next/BUILD_ID");
  const sources = newestMtime(["app", "components", "lib", "public", "next.config.ts", "package-lock.json", "tsconfig.json"]);
  if (mtimeMs(buildId) >= sources && mtimeMs(buildId) > 0) return;
  log("Building the dashboard (next build)…");
  run(process.execPath, ["node_modules/next/dist/bin/next", "build"]);
}

/** Debian's Chromium for the browser tests; installed when missing and we are root. */
export function ensureChromium() {
  if (fs.existsSync("/usr/bin/chromium")) return;
  if (typeof process.getuid === "function" && process.getuid() === 0) {
    log("Installing Chromium from Debian for the browser tests…");
    run("apt-get", ["update", "-qq"]);
    run("apt-get", ["install", "-y", "-qq", "chromium"], { env: { DEBIAN_FRONTEND: "noninteractive" } });
    return;
  }
  log("The browser tests need Debian's Chromium: run `sudo apt-get install -y chromium`, then try again.");
  process.exit(1);
}
