/**
 * Serves the hostile site until interrupted, to point a crawl (or a browser) at it by hand:
 *   node --import tsx lib/sitesim/hostile/serve-hostile.ts
 * Prints the root URL and one line per case. It listens on 127.0.0.1: crawl it with 127.0.0.1/32
 * in the server's private networks (FORAGE_PRIVATE_NETWORKS), and its redirects to 10.0.0.1,
 * 127.0.0.2 and 169.254.169.254 meet the network policy's refusal. A short
 * `params.requestDeadlineMs` ends the drips sooner.
 */
import { HOSTILE_CASES } from "./hostile-cases";
import { startHostileSite } from "./hostile-server";

async function main(): Promise<void> {
  const site = await startHostileSite();
  console.log(`Hostile site at ${site.rootUrl}`);
  for (const hostileCase of HOSTILE_CASES) console.log(`  ${hostileCase.path.padEnd(18)} ${hostileCase.description}`);
  console.log(`Honest files to collect: ${site.honestTargets.join(", ")}`);
  const stop = () => void site.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

void main();
