// `npm test`: every layer (unit, integration, browser) in one run. Installs what it needs first.
import { ensureDependencies, ensureNextBuild, ensurePostgres, ensurePrismaClient, ensureTestPackages, log, run } from "./setup.mjs";

ensureDependencies();
ensurePrismaClient();
ensureTestPackages();
// The PostgreSQL tests always run: a skipped test checks nothing.
const postgresProblem = ensurePostgres({ install: true });
if (postgresProblem) {
  log(`The PostgreSQL tests need a server: ${postgresProblem}. As root, \`node scripts/setup.mjs postgres --install\` sets it up.`);
  process.exit(1);
}
ensureNextBuild();
const ok = run(process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)], { allowFailure: true });
process.exit(ok ? 0 : 1);
