/**
 * The last resort against synchronous code that never ends (a step the StepWatch cannot see end):
 * a `worker_threads` thread watches the main thread's event loop and ends the process when the
 * loop has not turned for `blockedExitMs`.
 *
 * Why a thread and a kill: nothing inside a blocked thread runs (timers, the lease heartbeat, the
 * SIGTERM handler: Node delivers signals to the event loop, and a worker thread receives none),
 * so only another thread can notice, and only ending the whole process stops the code. The main
 * thread counts the turns of a short timer in shared memory; the watchdog reads the count
 * without any help from the main thread, writes why to stderr with a direct write (the
 * thread's `console` goes through the blocked main thread) and sends SIGKILL to the process.
 *
 * What follows is the crash path already tested: the crawls' leases expire and this or another
 * worker resumes them from their checkpoints. A SIGTERM sent while the loop is blocked is thus
 * obeyed within `blockedExitMs` too. Kept under half the lease, a block that the watchdog
 * tolerates never lets a lease lapse while the process lives; kept well above ordinary pauses (a
 * resume's rollback, a garbage collection take hundreds of milliseconds on a loaded machine), it
 * never ends a healthy worker.
 *
 * Cost: one timer every `beatMs` on the main thread (one Atomics.add) and a thread that wakes
 * every `beatMs`.
 */
import { Worker } from "node:worker_threads";

export interface EventLoopWatchdogOptions {
  /** The event loop blocked this long ends the process. */
  blockedExitMs: number;
  /** How often the main thread stamps the time and the watchdog looks. @default 100 */
  beatMs?: number;
  /** First line of the message written to stderr. @default "[forage worker]" */
  label?: string;
}

export interface EventLoopWatchdog {
  /**
   * Notes the crawl whose synchronous step runs now (0: none), for the message if the step never
   * ends: the operator learns which crawl to pause or cancel (every worker resuming it would stall).
   */
  markStep(crawlId: number): void;
  /** Resolves once the thread runs (it watches from then on). */
  readonly ready: Promise<void>;
  /** Stops the timer and the thread (a clean shutdown). */
  stop(): Promise<void>;
}

/** The thread's code: plain JavaScript, so it needs no TypeScript loader. */
const WATCHDOG_SOURCE = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const { beats, blockedExitMs, beatMs, label } = workerData;
let seen = Atomics.load(beats, 0);
let seenAt = performance.now();
let tickAt = seenAt;
setInterval(() => {
  const now = performance.now();
  const count = Atomics.load(beats, 0);
  // This thread itself ran late: the whole process was starved of CPU (a loaded machine, a
  // suspended VM), which says nothing about the main thread. Its clock starts again.
  const starved = now - tickAt > 5 * beatMs;
  tickAt = now;
  if (count !== seen || starved) {
    seen = count;
    seenAt = now;
    return;
  }
  const blockedMs = Math.round(now - seenAt);
  if (blockedMs < blockedExitMs) return;
  const crawl = Atomics.load(beats, 1);
  const culprit = crawl > 0 ? "crawl " + crawl + " is stuck in a step (pause or cancel it: it would stall any worker resuming it)" : "no crawl step was running";
  fs.writeSync(2, label + " watchdog: the event loop has been blocked for " + blockedMs + " ms (limit " + blockedExitMs +
    " ms; " + culprit + "), and timers, the lease heartbeat and SIGTERM cannot run. Ending the process " +
    "(SIGKILL); its crawls resume from their checkpoints once their leases expire.\\n");
  process.kill(process.pid, "SIGKILL");
}, beatMs);
`;

/** Starts the watchdog thread and the main thread's beat. */
export function startEventLoopWatchdog(options: EventLoopWatchdogOptions): EventLoopWatchdog {
  const beatMs = options.beatMs ?? 100;
  // A counter, not a time: each thread judges time on its own monotonic clock.
  // [0]: the beats; [1]: the crawl in a step (markStep).
  const beats = new Int32Array(new SharedArrayBuffer(8));
  const timer = setInterval(() => Atomics.add(beats, 0, 1), beatMs);
  timer.unref();
  const thread = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    // Not the parent's flags (--input-type=module, loaders): the thread's code is plain CommonJS.
    execArgv: [],
    workerData: { beats, blockedExitMs: options.blockedExitMs, beatMs, label: options.label ?? "[forage worker]" },
    stdout: false,
    stderr: false,
  });
  // Held until it runs (so that awaiting `ready` keeps the process alive), then no reason to stay alive.
  const ready = new Promise<void>((resolve) =>
    thread.once("online", () => {
      thread.unref();
      resolve();
    }),
  );
  thread.on("error", (error) => console.error(`${options.label ?? "[forage worker]"} watchdog thread failed: ${error.message}`));
  return {
    markStep: (crawlId) => Atomics.store(beats, 1, crawlId),
    ready,
    async stop() {
      clearInterval(timer);
      await thread.terminate();
    },
  };
}
