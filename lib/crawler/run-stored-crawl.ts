import type { ForageConfig } from "../config";
import { crawlConfigSchema, type CrawlConfig } from "../crawl-config";
import { STOP_REASONS } from "../crawl-status";
import type { Db } from "../store/prisma-client";
import { createBatchWriter, DatabaseCrawlSink } from "../store/database-crawl-sink";
import { createCrawlEngine } from "./engine/create-engine";
import type { HostPoliteness } from "./fetch/host-politeness";
import type { Fetcher } from "./fetch/types";
import type { LinkOracle } from "./engine/link-typer";
import type { CrawlCounters, CrawlEnd } from "./engine/types";
import { EngineMeter } from "./engine/engine-meter";

export interface RunStoredCrawlOptions {
  db: Db;
  forage: ForageConfig;
  crawlId: number;
  politeness: HostPoliteness;
  /** Aborting pauses the crawl: the run returns `{ kind: "paused" }` and the caller decides what it means. */
  signal: AbortSignal;
  /** Replays give their own fetcher and oracle. */
  fetcher?: Fetcher;
  oracle?: LinkOracle;
  /** Called after each page with the live counters (progress display). */
  onProgress?: (counters: CrawlCounters) => void;
  /** Live-editable settings, re-read before each request (the worker polls the database). */
  live?: () => { delayMs: number; urlPatterns: readonly string[] };
  /** Awaited before every page (pause in memory). */
  beforePage?: () => Promise<void>;
  /** Accumulates the engine's own time, database flushes included (benchmarks). */
  meter?: EngineMeter;
}

export class CrawlNotFoundError extends Error {
  override name = "CrawlNotFoundError";
}

/** Reads a crawl's stored settings (validated again: the stored JSON is an input too). */
export async function loadCrawlConfig(db: Db, crawlId: number): Promise<CrawlConfig> {
  const row = await db.crawl.findUnique({ where: { id: crawlId }, select: { config: true, seed: true } });
  if (!row) throw new CrawlNotFoundError(`Crawl ${crawlId} not found`);
  return { ...crawlConfigSchema.parse(JSON.parse(row.config)), seed: row.seed };
}

/**
 * Runs a stored crawl to its end (or until the signal pauses it), writing everything through
 * the database sink and recording the outcome on the crawl row: finished with its stop reason,
 * failed with its cause, or left "running" for the caller when paused.
 */
export async function runStoredCrawl(options: RunStoredCrawlOptions): Promise<CrawlEnd> {
  const { db, crawlId } = options;
  const config = await loadCrawlConfig(db, crawlId);
  const sink = new DatabaseCrawlSink(createBatchWriter(db, options.forage), crawlId, options.forage.dataDir);
  await db.crawl.update({ where: { id: crawlId }, data: { status: "running", startedAt: new Date() } });
  sink.event({ level: "info", kind: "started", message: `Crawl started (${config.strategy}, seed ${config.seed})` });
  let groupsAt = 0;
  const meter = options.meter ?? new EngineMeter();
  const run = createCrawlEngine({
    config,
    sink,
    signal: options.signal,
    politeness: options.politeness,
    fetcher: options.fetcher,
    oracle: options.oracle,
    owner: `crawl ${crawlId}`,
    live: options.live,
    beforePage: options.beforePage,
    meter,
    afterPage: async () => {
      options.onProgress?.(run.counters);
      // Group snapshots cost one statement per group: every 2 s is plenty for the cockpit.
      if (Date.now() - groupsAt > 2_000) {
        groupsAt = Date.now();
        meter.time(() => sink.groups(run.engine.groupRows()));
      }
      // Counters ride on every flush (not only on metric points every 10 requests): at the
      // default 1 s politeness delay the cockpit would otherwise lag by 10 s.
      meter.time(() => sink.counters({ ...run.counters, frontierSize: run.engine.frontierSize() }));
      await meter.timeAsync(() => sink.flushIfDue());
    },
  });
  try {
    const end = await run.engine.run();
    sink.groups(run.engine.groupRows());
    if (end.kind === "stopped") {
      sink.event({ level: "info", kind: "finished", message: `Crawl finished: ${STOP_REASONS[end.reason]}` });
    }
    await sink.flush();
    if (end.kind === "stopped") {
      await db.crawl.update({
        where: { id: crawlId },
        data: { status: "finished", stopReason: end.reason, stopDetail: end.detail ?? null, finishedAt: new Date(), pendingControl: null },
      });
    }
    return end;
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    sink.event({ level: "error", kind: "failed", message: `Crawl failed: ${cause}` });
    await sink.flush().catch(() => undefined);
    await db.crawl.update({
      where: { id: crawlId },
      data: { status: "failed", stopReason: "failed", stopDetail: cause.slice(0, 500), finishedAt: new Date() },
    });
    throw error;
  } finally {
    sink.close();
    await run.close();
  }
}
