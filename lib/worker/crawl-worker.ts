import os from "node:os";
import { closeProcessRendering } from "./process-rendering";
import type { ForageConfig } from "../config";
import { readStoredCrawlConfig } from "../crawl-config";
import type { HostWait } from "../crawler/fetch/host-politeness";
import { createHostClock, pruneHostClocks, type ProcessHostClock } from "../store/host-clock";
import { prepareStoredReplay, type StoredReplayParts } from "./stored-replay";
import { runStoredCrawl } from "./run-stored-crawl";
import type { Db } from "../store/prisma-client";
import { discardCrawlFiles } from "../store/commands/crawl-files";
import { WAITING_EVENT_KIND } from "../store/queries/get-crawl";
import { checkpointRequests, deleteCheckpoint, deleteOverCheckpoints } from "../store/checkpoint-store";
import { LeaseLostError } from "../store/crawl-batch";
import { HARVEST_TICK_MS, HarvestTicker } from "../harvest/harvest-ticker";
import { WorkerLoadSampler } from "./worker-load";
import { claimExpiredCrawl, claimNextCrawl, failExpiredLeases, heartbeatLeases, releaseLease } from "./leases";
import { storageLabel } from "../storage/storage-for";
import { StepWatch, type SlowStep } from "../crawler/step-watch";
import { failUnrunnableCrawl, recordWatchdogPause, updateHeldCrawl } from "./held-crawl-updates";
import { HeldCrawlControls } from "./held-crawl-controls";
import { crawlLog, loggerFor, type Logger } from "../log/logger";

export interface CrawlWorkerOptions {
  /** Crawls run at once by this worker. @default 4 */
  maxConcurrentCrawls?: number;
  /** How long a claim stays valid without a heartbeat. @default forage.workerLeaseMs (FORAGE_WORKER_LEASE_MS, 30000) */
  leaseMs?: number;
  /** How often to look for queued crawls. @default 1000 */
  pollMs?: number;
  /** How often a running crawl re-reads its control and live settings. @default 500 */
  controlPollMs?: number;
  /**
   * Grace period of `stop()`: running crawls end their current page and write a checkpoint;
   * after it, in-flight requests are aborted and the previous checkpoint stands. @default 10000
   */
  shutdownGraceMs?: number;
  /**
   * Longest synchronous step of a crawl (a link checked against its rules, a strategy choice);
   * a crawl whose step took longer is paused with an event saying why, since every other crawl
   * of the worker waited meanwhile. @default forage.workerMaxStepMs (FORAGE_WORKER_MAX_STEP_MS, 1000)
   */
  maxStepMs?: number;
  /** Test seam: the clock a crawl's step watch reads. @default performance.now */
  stepClock?: (crawlId: number) => () => number;
  /** Told the crawl whose step runs (0: none): `forage worker` passes its event-loop watchdog's `markStep`. */
  markStep?: (crawlId: number) => void;
  /** The operator log (lib/log). @default the process's, from FORAGE_LOG_LEVEL / FORAGE_LOG_FORMAT */
  log?: Logger;
}

/** Longest run of claims between two turns of the event loop. */
const CLAIM_SLICE_MS = 50;

/** How often checkpoints of crawls that are over (they never resume) and clock rows of idle hosts are removed. */
const HOUSEKEEPING_MS = 5 * 60_000;

interface ActiveCrawl {
  crawlId: number;
  /** Aborts in-flight requests at once (stop, cancel, end of the shutdown grace period). */
  abort: AbortController;
  /** Ends the run at the next page boundary with a checkpoint (shutdown). */
  drain: AbortController;
  live: { delayMs: number; urlPatterns: readonly string[] };
  /** The stored config JSON the live settings were last read from: an unchanged one is not parsed again. */
  liveConfigJson: string;
  /** The control that ended the run: stop, cancel, or null (shutdown). */
  control: "stop" | "cancel" | null;
  paused: boolean;
  /** Wakes the crawl's `waitWhilePaused` (resumed); null while it does not wait. */
  wake: (() => void) | null;
  /** End of the latest rate-limit wait reported as an event, to report each wait once. */
  reportedWaitUntilMs: number;
  /** The crawl this one replays offline (`replayOfCrawlId`), or null for a crawl of the live site. */
  replayOf: number | null;
  strategy: string;
  done: Promise<void>;
}

/**
 * The crawl worker: claims queued crawls from the database, runs them (several at once,
 * sharing one per-host politeness clock, kept in the database on PostgreSQL), keeps their leases alive, applies the controls and
 * live settings the API writes, and releases everything on shutdown. The dashboard never
 * crawls; everything between the two goes through the database.
 */
export class CrawlWorker {
  readonly id: string;
  /** One clock per host for every crawl of this worker; on PostgreSQL, for every worker of the database. */
  private readonly politeness: ProcessHostClock;
  private readonly active = new Map<number, ActiveCrawl>();
  private readonly options: Required<Omit<CrawlWorkerOptions, "stepClock" | "markStep" | "log">> & Pick<CrawlWorkerOptions, "stepClock" | "markStep">;
  /** Operator log lines, each with this worker's id; a crawl's lines carry its id too. */
  private readonly log: Logger;
  private timers: NodeJS.Timeout[] = [];
  /** Kept until the very end of a shutdown: draining crawls must keep their leases. */
  private heartbeatTimer: NodeJS.Timeout | null = null;
  /** Created at start, sampled with each heartbeat. */
  private load: WorkerLoadSampler | null = null;
  private stopping = false;
  private polling = false;
  private pollingControls = false;
  /** The shared look at every held crawl's controls and live settings. */
  private readonly controls: HeldCrawlControls;

  constructor(
    private readonly db: Db,
    private readonly forage: ForageConfig,
    options: CrawlWorkerOptions = {},
  ) {
    this.id = forage.workerId ?? `${os.hostname()}:${process.pid}`;
    this.politeness = createHostClock(db, forage, this.id);
    this.controls = new HeldCrawlControls(db, this.id);
    this.log = (options.log ?? loggerFor(forage, "forage-worker")).child({ workerId: this.id });
    this.options = {
      maxConcurrentCrawls: options.maxConcurrentCrawls ?? 4,
      leaseMs: options.leaseMs ?? forage.workerLeaseMs ?? 30_000,
      pollMs: options.pollMs ?? 1_000,
      controlPollMs: options.controlPollMs ?? 500,
      shutdownGraceMs: options.shutdownGraceMs ?? 10_000,
      maxStepMs: options.maxStepMs ?? forage.workerMaxStepMs ?? 1_000,
      stepClock: options.stepClock,
      markStep: options.markStep,
    };
  }

  async start(): Promise<void> {
    await this.db.worker.upsert({
      where: { id: this.id },
      create: { id: this.id, hostname: os.hostname(), pid: process.pid, storage: storageLabel(this.forage.storage) },
      update: { pid: process.pid, startedAt: new Date(), heartbeatAt: new Date(), state: "running", storage: storageLabel(this.forage.storage) },
    });
    this.load = new WorkerLoadSampler();
    this.timers.push(setInterval(() => void this.poll(), this.options.pollMs));
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), Math.max(250, this.options.leaseMs / 2));
    this.timers.push(setInterval(() => void this.pollControls(), this.options.controlPollMs));
    this.timers.push(setInterval(() => void this.sweepHousekeeping(), HOUSEKEEPING_MS));
    // Harvests: due scheduled runs, webhooks of ended runs (lib/harvest).
    const harvests = new HarvestTicker(this.db, this.forage, this.id, this.log);
    this.timers.push(setInterval(() => void harvests.tick(), HARVEST_TICK_MS));
    void harvests.tick();
    this.log.info({ concurrency: this.options.maxConcurrentCrawls, leaseMs: this.options.leaseMs, storage: storageLabel(this.forage.storage) }, "worker started");
    await this.sweepHousekeeping();
    await this.poll();
  }

  /** Crawls this worker is running now. */
  activeCrawlIds(): number[] {
    return [...this.active.keys()];
  }

  /**
   * Shutdown (SIGTERM): stops claiming, lets every running crawl end its current page and write
   * a checkpoint (drain), aborts what is still running after the grace period (their previous
   * checkpoint stands), then hands the crawls back: queued again (or left paused) without a
   * holder, so this or another worker resumes them from their checkpoint.
   */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.log.info({ activeCrawls: this.active.size }, "worker stopping: running crawls checkpoint and are handed back");
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    for (const crawl of this.active.values()) crawl.drain.abort();
    const drained = () => Promise.all([...this.active.values()].map((crawl) => crawl.done));
    const timeout = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
    await Promise.race([drained(), timeout(this.options.shutdownGraceMs)]);
    for (const crawl of this.active.values()) crawl.abort.abort();
    await Promise.race([drained(), timeout(5_000)]);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
    this.load?.stop();
    await this.politeness.close();
    await closeProcessRendering();
    await this.db.worker.update({ where: { id: this.id }, data: { state: "stopped", heartbeatAt: new Date(), crawlsHeld: 0, pagesPerSecond: 0 } }).catch(() => undefined);
    this.log.info("worker stopped");
  }

  private async poll(): Promise<void> {
    if (this.polling || this.stopping) return;
    this.polling = true;
    try {
      // Not the crawls running here: after a stall longer than the lease, this poll may come
      // before the heartbeat that renews them, and this worker would fail or restart its own crawl.
      await failExpiredLeases(this.db, this.activeCrawlIds());
      // Once no expired crawl is left, this poll stops asking.
      let expiredLeft = true;
      let sliceStarted = performance.now();
      while (!this.stopping && this.active.size < this.options.maxConcurrentCrawls) {
        // Crawls of a dead worker first: they were running before anything queued.
        const expired: Awaited<ReturnType<typeof claimExpiredCrawl>> = expiredLeft ? await claimExpiredCrawl(this.db, this.id, this.options.leaseMs, this.activeCrawlIds()) : null;
        expiredLeft = expired !== null;
        if (expired) {
          crawlLog(this.log, expired.id).info({ status: expired.status }, "crawl claimed after its holder's lease expired: resuming from its checkpoint");
          await this.launch(expired.id, expired.status === "paused");
        } else {
          const crawlId = await claimNextCrawl(this.db, this.id, this.options.leaseMs);
          if (crawlId === null) break;
          crawlLog(this.log, crawlId).info("crawl claimed");
          await this.launch(crawlId, false);
        }
        // SQLite's queries answer synchronously, so a claim and the start of its crawl are a chain
        // of microtasks: without a turn of the event loop now and then, a worker claiming thousands
        // of queued crawls would hold its timers (heartbeat, watchdog beats) for the whole batch.
        // Not a turn per claim: in a busy worker a turn is long, and claims crawled along.
        if (performance.now() - sliceStarted >= CLAIM_SLICE_MS) {
          await new Promise((resolve) => setImmediate(resolve));
          sliceStarted = performance.now();
        }
      }
    } catch (error) {
      this.log.error({ err: error }, "poll for queued crawls failed");
    } finally {
      this.polling = false;
    }
  }

  private async launch(crawlId: number, paused: boolean): Promise<void> {
    const row = await this.db.crawl.findUniqueOrThrow({ where: { id: crawlId }, select: { config: true, replayOfCrawlId: true } });
    const parsed = readStoredCrawlConfig(row.config);
    if (!parsed.ok) {
      crawlLog(this.log, crawlId).warn({ fields: parsed.fields }, "crawl failed: its stored settings are refused");
      return failUnrunnableCrawl(this.db, this.id, crawlId, parsed.fields);
    }
    const config = parsed.config;
    const crawl: ActiveCrawl = {
      crawlId,
      abort: new AbortController(),
      drain: new AbortController(),
      live: { delayMs: config.politeness.delayMs, urlPatterns: config.blocklist.urlPatterns },
      liveConfigJson: row.config,
      control: null,
      paused,
      wake: null,
      reportedWaitUntilMs: 0,
      replayOf: row.replayOfCrawlId,
      strategy: config.strategy,
      done: Promise.resolve(),
    };
    this.active.set(crawlId, crawl);
    crawl.done = this.runCrawl(crawl).finally(() => this.active.delete(crawlId));
  }

  private async runCrawl(crawl: ActiveCrawl): Promise<void> {
    const { crawlId } = crawl;
    const log = crawlLog(this.log, crawlId);
    let replay: StoredReplayParts | null = null;
    try {
      replay = crawl.replayOf === null ? null : await this.prepareReplay(crawl, crawl.replayOf);
      if (crawl.replayOf !== null && !replay) {
        log.warn({ replayOf: crawl.replayOf }, "replay failed: its source cannot be replayed");
        return;
      }
      log.info({ strategy: crawl.strategy, paused: crawl.paused, ...(crawl.replayOf !== null ? { replayOf: crawl.replayOf } : {}) }, "crawl started");
      const started = performance.now();
      const end = await runStoredCrawl({
        db: this.db,
        forage: this.forage,
        crawlId,
        politeness: replay?.politeness ?? this.politeness,
        signal: crawl.abort.signal,
        drainSignal: crawl.drain.signal,
        live: () => crawl.live,
        beforePage: () => {
          this.load?.pageStarted();
          return this.waitWhilePaused(crawl);
        },
        stepWatch: new StepWatch({
          limitMs: this.options.maxStepMs,
          onSlowStep: (slow) => this.pauseSlowCrawl(crawl, slow),
          ...(this.options.stepClock ? { now: this.options.stepClock(crawlId) } : {}),
          ...(this.options.markStep ? { onStepChange: (running: boolean) => this.options.markStep!(running ? crawlId : 0) } : {}),
        }),
        // A replay answers from its source: no network, no politeness, done in seconds, and
        // without checkpoints (a replay cut by a shutdown fails and is simply asked for again).
        ...(replay ? { fetcher: replay.fetcher, oracle: replay.oracle, checkpoints: false } : { checkpoints: true }),
        holderId: this.id,
        resumePaused: crawl.paused,
      });
      const runMs = Math.round(performance.now() - started);
      if (end.kind === "paused") {
        log.info({ control: crawl.control ?? "shutdown", runMs }, crawl.control === null ? "crawl interrupted by the worker's shutdown" : `crawl ended by the user (${crawl.control})`);
        await this.endInterrupted(crawl);
      } else if (end.reason === "failed") log.error({ reason: end.reason, detail: end.detail, runMs }, "crawl failed");
      else log.info({ reason: end.reason, runMs }, "crawl finished");
    } catch (error) {
      if (error instanceof LeaseLostError) log.warn({ err: error }, "lease lost: another holder continues the crawl");
      else log.error({ err: error }, "crawl failed in the worker");
    } finally {
      replay?.close();
      await releaseLease(this.db, crawlId, this.id).catch(() => undefined);
    }
  }

  /**
   * The offline fetcher of a replay crawl (lib/worker/stored-replay.ts). A source that is
   * gone or no longer replayable fails the replay with the reason; null then.
   */
  private async prepareReplay(crawl: ActiveCrawl, sourceCrawlId: number): Promise<StoredReplayParts | null> {
    try {
      return await prepareStoredReplay(this.db, this.forage, sourceCrawlId, crawl.strategy);
    } catch (error) {
      const cause = `replay impossible: ${error instanceof Error ? error.message : String(error)}`;
      if (await this.updateHeld(crawl.crawlId, { status: "failed", stopReason: "failed", stopDetail: cause.slice(0, 500), finishedAt: new Date(), workerId: null, leaseExpiresAt: null })) {
        await this.event(crawl.crawlId, "failed", `Crawl failed: ${cause}`, "error");
      }
      return null;
    }
  }

  /**
   * An aborted run: stopped or cancelled by the user, or cut by a worker shutdown. Every write is
   * conditional on this worker still holding the crawl: when the API took it over (its lease had
   * expired), the API's decision stands.
   */
  private async endInterrupted(crawl: ActiveCrawl): Promise<void> {
    const { crawlId } = crawl;
    const now = new Date();
    if (crawl.control === "cancel") {
      // Files first: once the status says cancelled, nothing of the crawl's data may be left.
      await discardCrawlFiles(this.db, this.forage, crawlId);
      if (await this.updateHeld(crawlId, { status: "cancelled", stopReason: "cancelled", finishedAt: now, pendingControl: null, workerId: null, leaseExpiresAt: null })) {
        await this.event(crawlId, "cancelled", "Crawl cancelled: its files were discarded");
      }
    } else if (crawl.control === "stop") {
      if (await this.updateHeld(crawlId, { status: "finished", stopReason: "user-stop", finishedAt: now, pendingControl: null, workerId: null, leaseExpiresAt: null })) {
        await this.event(crawlId, "stopped", "Crawl stopped by user");
        await deleteCheckpoint(this.db, crawlId);
      }
    } else {
      await this.handBack(crawl);
    }
  }

  /**
   * Shutdown: the crawl goes back to the queue (or stays paused) without a holder, and resumes
   * from its checkpoint on the next claim. A control the API recorded meanwhile is applied here
   * (this worker will not poll again). Without a checkpoint the state is lost: failed.
   */
  private async handBack(crawl: ActiveCrawl): Promise<void> {
    const { crawlId } = crawl;
    const row = await this.db.crawl.findUnique({ where: { id: crawlId }, select: { pendingControl: true } });
    const pending = row?.pendingControl ?? null;
    if (pending === "stop" || pending === "cancel") {
      crawl.control = pending;
      return this.endInterrupted(crawl);
    }
    const requests = await checkpointRequests(this.db, crawlId);
    if (requests === null) {
      const detail = "interrupted: the worker stopped before the crawl's first checkpoint";
      if (await this.updateHeld(crawlId, { status: "failed", stopReason: "failed", stopDetail: detail, finishedAt: new Date(), workerId: null, leaseExpiresAt: null })) {
        crawlLog(this.log, crawlId).warn("crawl failed: the worker stopped before its first checkpoint");
        await this.event(crawlId, "failed", "Crawl interrupted: the worker stopped", "error");
      }
      return;
    }
    const paused = pending === "pause" || (crawl.paused && pending !== "resume");
    const released = { workerId: null, leaseExpiresAt: null, pendingControl: null };
    if (await this.updateHeld(crawlId, { status: paused ? "paused" : "queued", ...released })) {
      const next = paused ? "it stays paused and resumes" : "it is queued again and resumes";
      crawlLog(this.log, crawlId).info({ checkpointRequests: requests, status: paused ? "paused" : "queued" }, "crawl handed back for another claim");
      await this.event(crawlId, "handed-back", `Worker stopped: ${next} from its checkpoint at request ${requests}`);
    }
  }

  /** Updates the crawl only while this worker holds it; false when it no longer does. */
  private updateHeld(crawlId: number, data: Parameters<Db["crawl"]["updateMany"]>[0]["data"]): Promise<boolean> {
    return updateHeldCrawl(this.db, this.id, crawlId, data);
  }

  /** A step of the crawl held the event loop past the limit: paused in memory at once (before its next page), then in the database. */
  private pauseSlowCrawl(crawl: ActiveCrawl, slow: SlowStep): void {
    if (crawl.paused) return;
    crawl.paused = true;
    const log = crawlLog(this.log, crawl.crawlId);
    log.warn({ step: slow.step, stepMs: Math.round(slow.ms), limitMs: slow.limitMs }, "watchdog: crawl paused, one of its steps held the event loop too long");
    recordWatchdogPause(this.db, this.id, crawl.crawlId, slow).catch((error) => {
      log.error({ err: error }, "watchdog pause not recorded");
    });
  }

  /**
   * A paused crawl keeps its state in memory and waits here until resumed, stopped or cancelled
   * (or drained by a shutdown). It holds no timer: the control poll's resume, or either signal,
   * wakes it; a worker holding thousands of paused crawls spends nothing on them.
   */
  private async waitWhilePaused(crawl: ActiveCrawl): Promise<void> {
    const { abort, drain } = crawl;
    while (crawl.paused && !abort.signal.aborted && !drain.signal.aborted) {
      let wake = () => {};
      await new Promise<void>((resolve) => {
        wake = resolve;
        crawl.wake = wake;
        abort.signal.addEventListener("abort", wake, { once: true });
        drain.signal.addEventListener("abort", wake, { once: true });
      });
      crawl.wake = null;
      abort.signal.removeEventListener("abort", wake);
      drain.signal.removeEventListener("abort", wake);
    }
  }

  /**
   * Applies the API's pending controls and live settings to running crawls: one look for all of
   * them (held-crawl-controls.ts), a few rows whatever their number.
   */
  private async pollControls(): Promise<void> {
    if (this.active.size === 0 || this.pollingControls) return;
    this.pollingControls = true;
    try {
      await this.applyControls();
    } catch (error) {
      this.log.error({ err: error }, "poll for controls and live settings failed");
    } finally {
      this.pollingControls = false;
    }
  }

  private async applyControls(): Promise<void> {
    const { controls, configs } = await this.controls.look(this.activeCrawlIds());
    for (const row of configs) {
      const crawl = this.active.get(row.id);
      // Validating a whole config costs about as much as a page's links: only edited ones are.
      const config = !crawl || row.config === crawl.liveConfigJson ? null : readStoredCrawlConfig(row.config);
      if (crawl && config?.ok) {
        crawl.liveConfigJson = row.config;
        const { delayMs } = config.config.politeness;
        const urlPatterns = config.config.blocklist.urlPatterns;
        if (delayMs !== crawl.live.delayMs || JSON.stringify(urlPatterns) !== JSON.stringify(crawl.live.urlPatterns)) {
          crawl.live = { delayMs, urlPatterns };
        }
      }
    }
    // One look at the host clock for all crawls (it lists every host with a waiter).
    const rateLimited = this.politeness.waitingFor().filter((wait) => wait.reason === "rate-limited");
    if (rateLimited.length > 0) for (const crawl of this.active.values()) await this.reportRateLimit(crawl, rateLimited);
    for (const row of controls) {
      const crawl = this.active.get(row.id);
      if (!crawl) continue;
      const control = row.pendingControl;
      if (control === "pause") {
        if (await this.updateHeld(row.id, { status: "paused", pendingControl: null })) {
          crawl.paused = true;
          crawlLog(this.log, row.id).info("crawl paused");
          await this.event(row.id, "paused", "Crawl paused");
        }
      } else if (control === "resume") {
        if (await this.updateHeld(row.id, { status: "running", pendingControl: null })) {
          crawl.paused = false;
          crawl.wake?.();
          crawlLog(this.log, row.id).info("crawl resumed");
          await this.event(row.id, "resumed", "Crawl resumed");
        }
      } else if (control === "stop" || control === "cancel") {
        crawl.control = control;
        crawl.abort.abort();
      } else {
        await this.updateHeld(row.id, { pendingControl: null });
      }
    }
  }

  /** "Running — waiting for <host> (rate limited)": one event per Retry-After block of this crawl's host. */
  private async reportRateLimit(crawl: ActiveCrawl, rateLimited: readonly HostWait[]): Promise<void> {
    const owner = `crawl ${crawl.crawlId}`;
    const wait = rateLimited.find((w) => w.owners.includes(owner));
    if (!wait || wait.untilMs <= crawl.reportedWaitUntilMs) return;
    crawl.reportedWaitUntilMs = wait.untilMs;
    crawlLog(this.log, crawl.crawlId).info({ host: wait.host, until: new Date(wait.untilMs).toISOString() }, "waiting for a rate-limited host (Retry-After)");
    await this.db.crawlEvent.create({
      data: {
        crawlId: crawl.crawlId,
        level: "warn",
        kind: WAITING_EVENT_KIND,
        message: `Waiting for ${wait.host} (rate limited) until ${new Date(wait.untilMs).toISOString()}`,
        data: JSON.stringify({ host: wait.host, untilMs: wait.untilMs }),
      },
    });
  }

  /** Housekeeping every few minutes: checkpoints of crawls that are over, clock rows of idle hosts. */
  private async sweepHousekeeping(): Promise<void> {
    await deleteOverCheckpoints(this.db).catch((error) => {
      this.log.error({ err: error }, "checkpoint sweep failed");
    });
    await pruneHostClocks(this.db, this.forage).catch((error) => {
      this.log.error({ err: error }, "pruning idle hosts' clock rows failed");
    });
  }

  private async heartbeat(): Promise<void> {
    const crawlIds = this.activeCrawlIds();
    await heartbeatLeases(this.db, this.id, crawlIds, this.options.leaseMs, this.load?.sample(crawlIds.length)).catch((error) => {
      this.log.error({ err: error }, "heartbeat failed: the worker's leases may lapse");
    });
  }

  private async event(crawlId: number, kind: string, message: string, level: "info" | "error" = "info"): Promise<void> {
    await this.db.crawlEvent.create({ data: { crawlId, level, kind, message } });
  }
}
