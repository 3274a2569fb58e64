// `npm test`: every layer (unit, integration, browser) in one run. Installs what it needs first.
import { ensureChromium, ensureDependencies, ensureNextBuild, ensurePrismaClient, run } from "./setup.mjs";

ensureDependencies();
ensurePrismaClient();
ensureChromium();
ensureNextBuild();
const ok = run(process.execPath, ["node_modules/vitest/vitest.mjs", "run", ...process.argv.slice(2)], { allowFailure: true });
process.exit(ok ? 0 : 1);
