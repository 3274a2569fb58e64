import { openCrawlWarcRecorder } from "../archive/crawl-warc-recorder";
import type { ForageConfig } from "../config";
import { STOP_REASONS } from "../crawl-status";
import type { Db } from "../store/prisma-client";
import { createBatchWriter, DatabaseCrawlSink } from "../store/database-crawl-sink";
import { LeaseLostError, type CheckpointRow } from "../store/crawl-batch";
import { deleteCheckpoint, storedBodyHashes } from "../store/checkpoint-store";
import { getServerPrivateNetworks } from "../store/queries/get-network-policy";
import { loadCrawlConfig } from "../store/load-crawl-config";
import { loadRecrawlBasis } from "../store/recrawl-store";
import { CheckpointSchedule, type CheckpointScheduleOptions } from "../crawler/engine/checkpoint-schedule";
import { createCrawlEngine, type CreateEngineOptions } from "../crawler/engine/create-engine";
import { processRendering } from "./process-rendering";
import { encodeStateInSlices, ENGINE_STATE_VERSION } from "../crawler/engine/engine-state";
import type { HostPoliteness } from "../crawler/fetch/host-politeness";
import type { Fetcher } from "../crawler/fetch/types";
import { RecoveringFetcher, recoveringPoliteness } from "../crawler/fetch/recovering-fetcher";
import type { LinkOracle } from "../crawler/engine/link-typer";
import type { CrawlCounters, CrawlEnd } from "../crawler/engine/types";
import { EngineMeter } from "../crawler/engine/engine-meter";
import type { StepWatch } from "../crawler/step-watch";
import { crawlApplicationsFor } from "../recipes/crawl-applications-for";
import { failedCrawlRow } from "./held-crawl-updates";
import { NO_CHECKPOINT, recoveryEvent, resumePoint, type CheckpointDocument } from "./stored-crawl-resume";
import { closeWarc, endOfRunEvents, recordChanges, recrawlStartedEvent } from "./stored-crawl-reports";

export interface RunStoredCrawlOptions {
  db: Db;
  forage: ForageConfig;
  crawlId: number;
  politeness: HostPoliteness;
  /** Aborting pauses the crawl at once: the run returns `{ kind: "paused" }` and the caller decides what it means. */
  signal: AbortSignal;
  /**
   * Aborting ends the run at the next page boundary (`{ kind: "paused" }`) and, with
   * checkpoints, writes a final one there: a worker shutting down drains this way.
   */
  drainSignal?: AbortSignal;
  /** Replays give their own fetcher and oracle. */
  fetcher?: Fetcher;
  /**
   * Private networks the crawl may reach. @default the server's network policy, read now (at
   * start or resume): FORAGE_PRIVATE_NETWORKS (`forage.privateNetworks`) and the admin's list
   */
  privateNetworks?: readonly string[];
  oracle?: LinkOracle;
  /** Called after each page with the live counters (progress display). */
  onProgress?: (counters: CrawlCounters) => void;
  /** Live-editable settings, re-read before each request (the worker polls the database). */
  live?: () => { delayMs: number; urlPatterns: readonly string[] };
  /** Awaited before every page (pause in memory). */
  beforePage?: () => Promise<void>;
  /** Accumulates the engine's own time, database flushes included (benchmarks). */
  meter?: EngineMeter;
  /** Measures the engine's synchronous steps (the worker's watchdog); none when absent. */
  stepWatch?: StepWatch;
  /**
   * Write checkpoints of the engine's state with the rows, and resume from the crawl's
   * checkpoint when it has one. Off for runs with their own fetcher (replays): a worker that
   * resumed one would crawl the live site. @default true without `fetcher`
   */
  checkpoints?: boolean;
  /** Checkpoint cadence. @default {@link STORED_CRAWL_CHECKPOINTS} */
  checkpointSchedule?: CheckpointScheduleOptions;
  /** The lease holder: rows are written only while the crawl row still names it. @default null (no check) */
  holderId?: string | null;
  /** A resumed crawl that was paused stays paused (status untouched; `beforePage` holds it). @default false */
  resumePaused?: boolean;
  /**
   * What renders script-built pages (crawl setting `render`). @default the process's Chromium
   * (process-rendering.ts); none for runs with their own fetcher (replays answer from their source)
   */
  rendering?: CreateEngineOptions["rendering"];
}

/**
 * A stored crawl's checkpoint cadence: CheckpointSchedule's, with the maximum interval (10 s)
 * also waiting for 10 pages (at most 60 s). At the default 1 s delay nothing changes; a crawl
 * at a 4 s delay checkpoints every 10 pages instead of every 2 or 3. A crash then repeats at
 * most those pages, answered from the request log (RecoveringFetcher), not by the site.
 */
export const STORED_CRAWL_CHECKPOINTS: CheckpointScheduleOptions = { minPages: 10 };

type CrawlRowUpdate = Parameters<Db["crawl"]["updateMany"]>[0]["data"];

/**
 * Runs a stored crawl to its end (or until the signal pauses it), writing everything through
 * the database sink and recording the outcome on the crawl row: finished with its stop reason,
 * failed with its cause, or left "running" for the caller when paused.
 *
 * Checkpoints: every few seconds (CheckpointSchedule), between two pages, the engine's state
 * goes into `CrawlCheckpoint` in the same transaction as the rows written so far. A run of a
 * crawl that has a checkpoint first rolls its rows back to it (checkpoint-store.ts) and continues
 * from the saved state: the request count goes on, no target is lost or stored twice. The rows
 * rolled back are read first (recovery-journal.ts): the restored engine makes their requests
 * again, and a RecoveringFetcher answers them from those rows instead of the site.
 */
export async function runStoredCrawl(options: RunStoredCrawlOptions): Promise<CrawlEnd> {
  const { db, crawlId } = options;
  const holderId = options.holderId ?? null;
  /** The crawl row's status; with a holder only while it still holds the crawl (a lost lease: the new owner decides). */
  const updateCrawl = async (data: CrawlRowUpdate): Promise<void> => {
    if (holderId === null) {
      await db.crawl.update({ where: { id: crawlId }, data });
      return;
    }
    const { count } = await db.crawl.updateMany({ where: { id: crawlId, workerId: holderId }, data });
    if (count !== 1) throw new LeaseLostError(`Crawl ${crawlId} is no longer held by ${holderId}`);
  };
  const config = await loadCrawlConfig(db, crawlId);
  let privateNetworks: readonly string[] = [];
  try {
    if (!options.fetcher) privateNetworks = options.privateNetworks ?? (await getServerPrivateNetworks(db, options.forage.privateNetworks));
  } catch (error) {
    // An unreadable network policy: the crawl cannot know where it may connect.
    const cause = error instanceof Error ? error.message : String(error);
    await updateCrawl(failedCrawlRow(cause));
    throw error;
  }
  const checkpoints = options.checkpoints ?? options.fetcher === undefined;
  const resumeStarted = performance.now();
  const { document, recoveryLog, resumedMessage } = checkpoints ? await resumePoint(db, options.forage.dataDir, crawlId, config, updateCrawl) : NO_CHECKPOINT;
  // A re-crawl: the previous run's learned state (used unless resuming) and known files.
  const recrawlBasis = config.after === null ? undefined : await loadRecrawlBasis(db, options.forage.dataDir, config.after, config.checkKnownFiles);
  if (!document) await updateCrawl({ status: "running", startedAt: new Date() });
  else if (!options.resumePaused) await updateCrawl({ status: "running" });
  const bodies = document ? await storedBodyHashes(db, crawlId) : [];
  // A replay (own fetcher) makes no exchange with a site: it archives nothing.
  const warc = options.fetcher ? null : openCrawlWarcRecorder(options.forage.dataDir, crawlId, config);
  const sink = new DatabaseCrawlSink(createBatchWriter(db, options.forage), crawlId, options.forage.dataDir, {
    holderId,
    requestRowsWritten: document?.requestRows ?? 0,
    archive: warc, // the archived pages are read back from it: no second copy in a page pack
  });
  sink.rememberPageBodies(bodies);
  if (!document) sink.event({ level: "info", kind: "started", message: `Crawl started (${config.strategy}, seed ${config.seed})` });
  else sink.event({ level: "info", kind: "resumed-from-checkpoint", message: resumedMessage!, data: { requests: document.engine.counters.requests } });
  if (!document && recrawlBasis) sink.event(recrawlStartedEvent(recrawlBasis));
  // The resumed engine makes the rolled-back requests again: the log answers them, not the site.
  const recovery = recoveryLog ? new RecoveringFetcher(options.politeness, recoveryLog, (end) => sink.event(recoveryEvent(end))) : null;
  let groupsAt = 0;
  const meter = options.meter ?? new EngineMeter();
  const schedule = new CheckpointSchedule(() => meter.ms, options.checkpointSchedule ?? STORED_CRAWL_CHECKPOINTS);
  // Between two pages: the engine waits for the checkpoint, so its state holds still while it
  // is encoded in slices (the worker's other crawls run between them).
  const capture = async (): Promise<CheckpointRow> => {
    const requests = run.counters.requests;
    const document = { engine: run.captureState(), requestRows: sink.requestRows } satisfies CheckpointDocument;
    const state = await schedule.takeAsync(() => encodeStateInSlices(document));
    return { requests, version: ENGINE_STATE_VERSION, state };
  };
  const run = createCrawlEngine({
    config,
    sink,
    signal: options.signal,
    drainSignal: options.drainSignal,
    politeness: recovery ? recoveringPoliteness(options.politeness, recovery) : options.politeness,
    fetcher: options.fetcher,
    privateNetworks,
    wrapFetcher: recovery ? (fetcher) => recovery.over(fetcher) : undefined,
    oracle: options.oracle,
    owner: `crawl ${crawlId}`,
    live: options.live,
    beforePage: options.beforePage,
    meter,
    ...(options.stepWatch ? { stepWatch: options.stepWatch } : {}),
    restore: document?.engine,
    exchangeRecorder: warc ?? undefined,
    recrawl: recrawlBasis,
    rendering: options.rendering !== undefined ? options.rendering : options.fetcher || config.render === "off" ? null : processRendering(options.forage),
    applications: config.applications.use ? crawlApplicationsFor(options.forage.recipesDir, config.applications.recipe, (event) => sink.event(event)) : null,
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
      // Between two pages the state is whole: the checkpoint goes with the rows up to here.
      if (checkpoints && schedule.due()) await meter.timeAsync(async () => sink.flush(await capture()));
      else await meter.timeAsync(() => sink.flushIfDue());
    },
  });
  if (document) {
    const ms = Math.round(performance.now() - resumeStarted);
    sink.event({ level: "info", kind: "resume-time", message: `Restored ${document.engine.links.links.length} frontier links in ${ms} ms`, data: { ms } });
  }
  try {
    const end = await run.engine.run();
    sink.groups(run.engine.groupRows());
    if (end.kind === "stopped") {
      sink.event(
        end.reason === "failed"
          ? { level: "error", kind: "failed", message: `Crawl failed: ${end.detail ?? "unknown cause"}` }
          : { level: "info", kind: "finished", message: `Crawl finished: ${STOP_REASONS[end.reason]}` },
      );
    }
    // A pause between two pages (drained, or paused in memory and aborted) is a clean point:
    // checkpoint it. One in the middle of a page is not; the previous checkpoint stands.
    const last = checkpoints && end.kind === "paused" && run.engine.atPageBoundary ? await capture() : null;
    for (const event of endOfRunEvents(end, run, schedule, meter.ms)) sink.event(event);
    recovery?.close();
    await closeWarc(warc, sink);
    sink.counters({ ...run.counters, frontierSize: run.engine.frontierSize() }); // the final numbers
    await sink.flush(last);
    // What the next run of the site starts from, and what changed since the previous one.
    if (end.kind === "stopped" && end.reason !== "failed" && checkpoints) await recordChanges(db, options.forage.dataDir, crawlId, config, run);
    if (end.kind === "stopped") {
      await updateCrawl({ status: end.reason === "failed" ? "failed" : "finished", stopReason: end.reason, stopDetail: end.detail ?? null, finishedAt: new Date(), pendingControl: null, workerId: null, leaseExpiresAt: null });
      if (checkpoints) await deleteCheckpoint(db, crawlId); // a finished crawl never resumes
    }
    return end;
  } catch (error) {
    // Another holder took the crawl over: its decision stands, nothing more is written.
    if (error instanceof LeaseLostError) throw error;
    const cause = error instanceof Error ? error.message : String(error);
    sink.event({ level: "error", kind: "failed", message: `Crawl failed: ${cause}` });
    await sink.flush().catch(() => undefined);
    // Not ours any more (a zombie run whose files the new owner cleaned up): leave the row alone.
    const recorded = await updateCrawl(failedCrawlRow(cause)).then(
      () => true,
      () => false,
    );
    if (recorded && checkpoints) await deleteCheckpoint(db, crawlId).catch(() => undefined);
    throw error;
  } finally {
    recovery?.close();
    await warc?.close().catch(() => undefined);
    sink.close();
    await run.close();
  }
}
