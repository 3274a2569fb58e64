import { openCrawlWarcRecorder } from "../archive/crawl-warc-recorder";
import type { ForageConfig } from "../config";
import type { CrawlConfig } from "../crawl-config";
import { STOP_REASONS } from "../crawl-status";
import type { Db } from "../store/prisma-client";
import { createBatchWriter, DatabaseCrawlSink } from "../store/database-crawl-sink";
import { LeaseLostError, type CheckpointRow } from "../store/crawl-batch";
import { deleteCheckpoint, loadCheckpoint, rollBackToCheckpoint, storedBodyHashes } from "../store/checkpoint-store";
import { getServerPrivateNetworks } from "../store/queries/get-network-policy";
import { loadCrawlConfig } from "../store/load-crawl-config";
import { loadRecoveryLog } from "../store/recovery-journal";
import { loadRecrawlBasis, saveRecrawlRecord, type UncheckedCounts } from "../store/recrawl-store";
import { CheckpointSchedule, type CheckpointScheduleOptions } from "../crawler/engine/checkpoint-schedule";
import { createCrawlEngine, type CrawlRun, type CreateEngineOptions } from "../crawler/engine/create-engine";
import { processRendering } from "./process-rendering";
import { addCrawlEvent } from "../store/commands/add-crawl-event";
import { CHANGES_EVENT_KIND } from "../store/queries/get-crawl-changes";
import { checkEngineState, decodeState, encodeState, ENGINE_STATE_VERSION, type EngineState } from "../crawler/engine/engine-state";
import type { HostPoliteness } from "../crawler/fetch/host-politeness";
import type { Fetcher } from "../crawler/fetch/types";
import { RecoveringFetcher, recoveringPoliteness, type RecoveryEnd, type RecoveryLog } from "../crawler/fetch/recovering-fetcher";
import type { LinkOracle } from "../crawler/engine/link-typer";
import type { CrawlCounters, CrawlEnd, EventRow } from "../crawler/engine/types";
import { EngineMeter } from "../crawler/engine/engine-meter";
import type { StepWatch } from "../crawler/step-watch";
import { crawlApplicationsFor } from "../recipes/crawl-applications-for";

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

/** What a checkpoint's `state` holds: the engine's state and the sink's row count at that point. */
interface CheckpointDocument {
  engine: EngineState;
  /** Request-log rows written with the checkpoint (see `DatabaseCrawlSink.requestRows`). */
  requestRows: number;
}

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
    await updateCrawl({ status: "failed", stopReason: "failed", stopDetail: cause.slice(0, 500), finishedAt: new Date(), workerId: null, leaseExpiresAt: null });
    throw error;
  }
  const checkpoints = options.checkpoints ?? options.fetcher === undefined;
  const resumeStarted = performance.now();
  const saved = checkpoints ? await loadCheckpoint(db, crawlId) : null;
  let document: CheckpointDocument | null = null;
  try {
    document = saved ? decodeCheckpoint(saved.state, config) : null;
  } catch (error) {
    // An unreadable checkpoint (another format version, corrupt): the crawl cannot go on.
    const cause = `checkpoint unreadable: ${error instanceof Error ? error.message : String(error)}`;
    await updateCrawl({ status: "failed", stopReason: "failed", stopDetail: cause.slice(0, 500), finishedAt: new Date(), workerId: null, leaseExpiresAt: null });
    throw error;
  }
  let resumedMessage: string | null = null;
  let recoveryLog: RecoveryLog | null = null;
  if (document) {
    const engine = document.engine;
    // Read the answers of the rows about to be rolled back first: the resumed crawl repeats those requests.
    // Unreadable (a damaged pack): the crawl resumes as before, asking the site again.
    recoveryLog = await loadRecoveryLog(db, options.forage.dataDir, crawlId, document.requestRows).catch(() => null);
    const rolledBack = await rollBackToCheckpoint(db, options.forage.dataDir, crawlId, {
      requests: engine.counters.requests,
      requestRows: document.requestRows,
      counters: engine.counters,
    });
    resumedMessage =
      `Crawl resumed from its checkpoint at request ${engine.counters.requests} (${engine.counters.targets} targets); ` +
      `${rolledBack.requestRows} request rows and ${rolledBack.targets} targets written after it were rolled back` +
      (recoveryLog?.answers.length ? ` (the log answers their ${recoveryLog.answers.length} requests again)` : "");
  }
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
  if (!document && recrawlBasis) {
    const learned = recrawlBasis.learned;
    sink.event({
      level: "info",
      kind: "recrawl-started",
      message:
        `Re-crawl after crawl ${recrawlBasis.previousCrawlId}: ${recrawlBasis.known.length} known files` +
        (recrawlBasis.checkKnownFiles ? " (checked with conditional requests)" : " (not downloaded again)") +
        (learned ? `, its learned model and ${learned.revisit.length} pages to revisit first` : "; it left no learned state, the model starts afresh"),
      data: { after: recrawlBasis.previousCrawlId, known: recrawlBasis.known.length, revisit: learned?.revisit.length ?? 0 },
    });
  }
  // The resumed engine makes the rolled-back requests again: the log answers them, not the site.
  const recovery = recoveryLog ? new RecoveringFetcher(options.politeness, recoveryLog, (end) => sink.event(recoveryEvent(end))) : null;
  let groupsAt = 0;
  const meter = options.meter ?? new EngineMeter();
  const schedule = new CheckpointSchedule(() => meter.ms, options.checkpointSchedule ?? STORED_CRAWL_CHECKPOINTS);
  const capture = (): CheckpointRow => {
    const state = schedule.take(() => encodeState({ engine: run.captureState(), requestRows: sink.requestRows } satisfies CheckpointDocument));
    return { requests: run.counters.requests, version: ENGINE_STATE_VERSION, state };
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
      if (checkpoints && schedule.due()) await meter.timeAsync(() => sink.flush(capture()));
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
    const last = checkpoints && end.kind === "paused" && run.engine.atPageBoundary ? capture() : null;
    if (end.kind === "stopped" && run.recrawl) {
      const { revisited, deferredCount } = run.recrawl;
      sink.event({
        level: "info",
        kind: "recrawl-revisits",
        message: `${revisited} pages the previous runs had seen were revisited after the new ones; ${deferredCount} were left (no class of them expected to pay: change rates learnt over the runs and this one)`,
        data: { revisited, left: deferredCount },
      });
    }
    if (schedule.count > 0) {
      const { count, totalMs, lastBytes } = schedule;
      sink.event({
        level: "info",
        kind: "checkpoints",
        message: `${count} checkpoints in ${Math.round(totalMs)} ms (${((100 * totalMs) / Math.max(1, meter.ms)).toFixed(1)} % of the engine's time), last ${Math.round(lastBytes / 1024)} KiB`,
        data: { count, totalMs: Math.round(totalMs), lastBytes, engineMs: Math.round(meter.ms) },
      });
    }
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
    const recorded = await updateCrawl({ status: "failed", stopReason: "failed", stopDetail: cause.slice(0, 500), finishedAt: new Date(), workerId: null, leaseExpiresAt: null }).then(
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

/** Waits for the archive's last records; says when it failed (the crawl itself went on). */
async function closeWarc(warc: ReturnType<typeof openCrawlWarcRecorder>, sink: DatabaseCrawlSink): Promise<void> {
  if (!warc) return;
  await warc.close();
  const { failure, records, bytes, files } = warc.writer;
  if (failure) sink.event({ level: "error", kind: "warc-failed", message: `The web archive stopped: ${failure.message}`, data: { records, bytes } });
  else sink.event({ level: "info", kind: "warc-written", message: `Web archive: ${records} records, ${bytes} bytes in ${files.length} WARC files`, data: { records, bytes, files: files.length } });
}

/** Writes the run's change report and learned state (recrawl-store.ts) and logs the four counts; a failure costs the next re-crawl its head start, not this crawl. */
async function recordChanges(db: Db, dataDir: string, crawlId: number, config: CrawlConfig, run: CrawlRun): Promise<void> {
  try {
    const report = await saveRecrawlRecord(db, dataDir, {
      crawlId,
      rootUrl: config.rootUrl,
      engine: run.captureState(),
      outcomes: run.recrawl?.outcomes ?? null,
      previousCrawlId: config.after,
      checkedKnownFiles: config.checkKnownFiles,
    });
    const { counts } = report;
    await addCrawlEvent(db, crawlId, {
      level: "info",
      kind: CHANGES_EVENT_KIND,
      message:
        config.after === null
          ? `${counts.new} files collected (the next re-crawl starts from this crawl's learned state)`
          : `Since crawl ${config.after}: ${counts.new} new, ${counts.changed} changed, ${counts.unchanged} unchanged, ${counts.gone} gone` + uncheckedText(report.unchecked),
      data: counts,
    });
  } catch (error) {
    await addCrawlEvent(db, crawlId, { level: "warn", kind: "changes-not-recorded", message: `The change report could not be written: ${error instanceof Error ? error.message : String(error)}` }).catch(() => undefined);
  }
}

/** What a re-crawl without "Check known files" left unverified, for its changes event. */
function uncheckedText(unchecked: UncheckedCounts | undefined): string {
  if (!unchecked || unchecked.linked + unchecked.unlinked === 0) return "";
  return ` (not checked: ${unchecked.linked} known files linked again and taken as unchanged, ${unchecked.unlinked} not linked by any page read)`;
}

function recoveryEvent(end: RecoveryEnd): EventRow {
  const stopped =
    end.reason === "exhausted"
      ? "all of them"
      : end.reason === "diverged"
        ? `then the crawl asked for ${end.divergedAt} where the log had ${end.left} more (sent to the site)`
        : `the run ended with ${end.left} left`;
  return {
    level: "info",
    kind: "recovered-from-log",
    message: `${end.answered} requests answered from the request log instead of the site in ${end.ms} ms: ${stopped}`,
    data: { answered: end.answered, left: end.left, reason: end.reason, ms: end.ms },
  };
}

function decodeCheckpoint(state: Uint8Array, config: CrawlConfig): CheckpointDocument {
  const document = decodeState(state) as CheckpointDocument;
  if (!document || typeof document.requestRows !== "number") throw new TypeError("Invalid checkpoint: no request row count");
  return { engine: checkEngineState(document.engine, config), requestRows: document.requestRows };
}
