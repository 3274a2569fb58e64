import { loadConfig } from "../../config";
import { ensureMigrated, openDatabase } from "../../store";
import { CrawlWorker } from "../../worker/crawl-worker";
import { parseIntegerOption, parseOptions } from "../parse-options";

export const workerHelp = "forage worker [--concurrency N]   run the crawl worker (claims queued crawls) until SIGTERM/Ctrl-C";

/** `forage worker`: the process that runs crawls for the dashboard. */
export async function workerCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { concurrency: { type: "string" } });
  const maxConcurrentCrawls = parseIntegerOption("concurrency", values.concurrency, { min: 1, max: 500 }) ?? 4;
  const forage = loadConfig();
  await ensureMigrated(forage, { apply: true });
  const db = await openDatabase(forage);
  const worker = new CrawlWorker(db, forage, { maxConcurrentCrawls });
  await worker.start();
  console.log(`[forage worker] ${worker.id} ready (up to ${maxConcurrentCrawls} crawls at once)`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  console.log("[forage worker] stopping…");
  await worker.stop();
  await db.$disconnect();
  return 0;
}
