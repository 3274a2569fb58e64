import os from "node:os";
import { loadConfig, type ForageConfig } from "../../config";
import { ensureMigrated, openDatabase } from "../../store";
import type { Db } from "../../store/prisma-client";
import { liveWorkersElsewhere } from "../../store/queries/live-workers-elsewhere";
import { storageLabel } from "../../storage/storage-for";
import { CrawlWorker } from "../../worker/crawl-worker";
import { startEventLoopWatchdog } from "../../worker/event-loop-watchdog";
import { openFileLimit, openFileShortfall } from "../../worker/open-file-limit";
import { CliUsageError } from "../cli-error";
import { parseIntegerOption, parseOptions } from "../parse-options";

/**
 * Most crawls one worker holds. A waiting crawl holds little memory and the worker's periodic
 * work does not grow with the crawls it holds (npm run bench:many measures both up to 2,000
 * crawls of 2,000 hosts); past this, more workers sharing the database are the answer.
 */
export const MAX_WORKER_CONCURRENCY = 5_000;

export const workerHelp = `forage worker [--concurrency N]   run the crawl worker (claims queued crawls, at most N at once, 1 to ${MAX_WORKER_CONCURRENCY}) until SIGTERM/Ctrl-C`;

/** `forage worker`: the process that runs crawls for the dashboard. */
export async function workerCommand(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { concurrency: { type: "string" } });
  const maxConcurrentCrawls = parseIntegerOption("concurrency", values.concurrency, { min: 1 }) ?? 4;
  if (maxConcurrentCrawls > MAX_WORKER_CONCURRENCY) {
    throw new CliUsageError(
      `--concurrency must be between 1 and ${MAX_WORKER_CONCURRENCY}, got ${maxConcurrentCrawls}: one worker holds at most ${MAX_WORKER_CONCURRENCY} crawls; ` +
        `start more workers (on this machine or others sharing the database) for more`,
    );
  }
  const fileShortfall = openFileShortfall(maxConcurrentCrawls, openFileLimit());
  if (fileShortfall) console.error(`[forage worker] warning: ${fileShortfall}`);
  const forage = loadConfig();
  await ensureMigrated(forage, { apply: true });
  const db = await openDatabase(forage);
  const refusal = await storageRefusal(db, forage);
  if (refusal) {
    console.error(`[forage worker] ${refusal}`);
    await db.$disconnect();
    return 1;
  }
  // Not tied to the lease: short leases (tests) would make ordinary pauses (a resume's rollback, a GC) fatal.
  const watchdog = startEventLoopWatchdog({ blockedExitMs: forage.workerBlockedExitMs });
  await watchdog.ready;
  const worker = new CrawlWorker(db, forage, { maxConcurrentCrawls, markStep: watchdog.markStep });
  await worker.start();
  const storage = forage.storage.kind === "local" ? `local folder ${forage.dataDir}` : `s3://${forage.storage.bucket}${forage.storage.prefix ? `/${forage.storage.prefix}` : ""}`;
  console.log(`[forage worker] ${worker.id} ready (up to ${maxConcurrentCrawls} crawls at once; storage: ${storage})`);
  await new Promise<void>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  console.log("[forage worker] stopping…");
  await worker.stop();
  await watchdog.stop();
  await db.$disconnect();
  return 0;
}

/**
 * Why this worker must not start, or null. Workers on several machines must share one bucket:
 * with the local folder as storage, a worker on another host would keep files the dashboard
 * cannot serve, and a crawl another worker takes over would lose its earlier files. So a worker
 * refuses to start on local storage while live workers on other hosts share the database, and on
 * a bucket while a live worker on another host keeps its bytes elsewhere (its folder, another bucket).
 */
async function storageRefusal(db: Db, forage: ForageConfig): Promise<string | null> {
  const others = await liveWorkersElsewhere(db, { hostname: os.hostname(), leaseMs: forage.workerLeaseMs });
  const mine = storageLabel(forage.storage);
  const fix =
    "Set FORAGE_STORAGE_URL=s3://bucket/prefix (with FORAGE_S3_ENDPOINT and AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY) " +
    "to the same bucket on every worker and the dashboard, or run the workers on one machine.";
  const hostsOf = (workers: typeof others) => [...new Set(workers.map((worker) => worker.hostname))].slice(0, 5).join(", ");
  if (forage.storage.kind === "local") {
    if (others.length === 0) return null;
    return (
      `refusing to start: this worker would keep crawled files in its local folder (${forage.dataDir}), but ${others.length} live ` +
      `worker(s) on other machines (${hostsOf(others)}) share this database. ${fix}`
    );
  }
  const elsewhere = others.filter((worker) => worker.storage !== mine);
  if (elsewhere.length === 0) return null;
  const where = [...new Set(elsewhere.map((worker) => (worker.storage === "local" ? "their local folder" : worker.storage)))].slice(0, 3).join(", ");
  return (
    `refusing to start: this worker stores crawled bytes in ${mine}, but ${elsewhere.length} live worker(s) on other machines ` +
    `(${hostsOf(elsewhere)}) keep theirs in ${where}. ${fix}`
  );
}
