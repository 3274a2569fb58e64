import os from "node:os";
import { loadConfig, type ForageConfig } from "../../config";
import { ensureMigrated, openDatabase } from "../../store";
import type { Db } from "../../store/prisma-client";
import { liveWorkersElsewhere } from "../../store/queries/live-workers-elsewhere";
import { CrawlWorker } from "../../worker/crawl-worker";
import { parseIntegerOption, parseOptions } from "../parse-options";

export const workerHelp = "forage worker [--concurrency N]   run the crawl worker (claims queued crawls) until SIGTERM/Ctrl-C";

/** `forage worker`: the process that runs crawls for the dashboard. */
export async function workerCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { concurrency: { type: "string" } });
  const maxConcurrentCrawls = parseIntegerOption("concurrency", values.concurrency, { min: 1, max: 64 }) ?? 4;
  const forage = loadConfig();
  await ensureMigrated(forage, { apply: true });
  const db = await openDatabase(forage);
  const refusal = await localStorageRefusal(db, forage);
  if (refusal) {
    console.error(`[forage worker] ${refusal}`);
    await db.$disconnect();
    return 1;
  }
  const worker = new CrawlWorker(db, forage, { maxConcurrentCrawls });
  await worker.start();
  const storage = forage.storage.kind === "local" ? `local folder ${forage.dataDir}` : `s3://${forage.storage.bucket}${forage.storage.prefix ? `/${forage.storage.prefix}` : ""}`;
  console.log(`[forage worker] ${worker.id} ready (up to ${maxConcurrentCrawls} crawls at once; storage: ${storage})`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  console.log("[forage worker] stopping…");
  await worker.stop();
  await db.$disconnect();
  return 0;
}

/**
 * Why this worker must not start, or null. With the local folder as storage, every worker and
 * the dashboard must share one machine: a worker on another host would keep files the
 * dashboard cannot serve and a crawl it takes over would lose its earlier files.
 */
async function localStorageRefusal(db: Db, forage: ForageConfig): Promise<string | null> {
  if (forage.storage.kind !== "local") return null;
  const others = await liveWorkersElsewhere(db, { hostname: os.hostname(), leaseMs: forage.workerLeaseMs });
  if (others.length === 0) return null;
  const hosts = [...new Set(others.map((worker) => worker.hostname))].slice(0, 5).join(", ");
  return (
    `refusing to start: this worker would keep crawled files in its local folder (${forage.dataDir}), but ${others.length} live ` +
    `worker(s) on other machines (${hosts}) share this database. Set FORAGE_STORAGE_URL=s3://bucket/prefix ` +
    `(with FORAGE_S3_ENDPOINT and AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY) on every worker and the dashboard, ` +
    `or run the workers on one machine.`
  );
}
