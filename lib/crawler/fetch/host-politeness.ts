/**
 * Per-host politeness, shared by every crawl in a worker process: a minimum gap between
 * request *starts* to one host, a cap on requests in flight per host, and back-off when
 * the host says 429 / 503. Hosts are keyed "hostname:port", so two crawls of one site share
 * one clock. Waiters are served FIFO per host.
 *
 * A zero delay with a free slot takes a synchronous fast path with no timer: benchmarks
 * against the local demo site run thousands of requests per second through here.
 */
import { z } from "zod";
import { FetchAbortedError } from "./errors";

export const hostPolitenessOptionsSchema = z.strictObject({
  /** Gap between request starts when the caller gives no `delayMs`. @default 1000 */
  defaultDelayMs: z.number().nonnegative().default(1000),
  /** Requests in flight at once per host. @default 1 */
  maxInFlightPerHost: z.number().int().positive().default(1),
  /** Upper bound on a robots.txt Crawl-delay (a site asking for 1 h would stall the crawl). @default 30000 */
  crawlDelayCapMs: z.number().nonnegative().default(30_000),
});
export type HostPolitenessOptions = z.input<typeof hostPolitenessOptionsSchema>;

export interface AcquireOptions {
  /** This crawl's delay between starts to the host. @default options.defaultDelayMs */
  delayMs?: number;
  /** robots.txt Crawl-delay; the larger of it (capped) and `delayMs` applies. */
  crawlDelayMs?: number | null;
  /** Aborting rejects the wait with FetchAbortedError and gives the place up. */
  signal?: AbortSignal;
  /** Who is waiting (e.g. a crawl id), reported by `waitingFor()`. */
  owner?: string;
}

/** Call once when the request is over (idempotent). */
export type Release = () => void;

export interface HostWait {
  host: string;
  /** Epoch ms when the first waiter may start (at the earliest; a slot may still be busy). */
  untilMs: number;
  reason: "politeness" | "rate-limited";
  waiters: number;
  owners: string[];
}

interface Waiter {
  delayMs: number;
  owner: string | undefined;
  resolve: (release: Release) => void;
  reject: (err: Error) => void;
  cleanup: () => void;
}

interface HostState {
  lastStartMs: number;
  lastDelayMs: number;
  inFlight: number;
  blockedUntilMs: number;
  queue: Waiter[];
  timer: NodeJS.Timeout | null;
}

/** "hostname:port" with the default port filled in; accepts a URL, a URL string or a key. */
export function hostKey(hostOrUrl: string | URL): string {
  if (typeof hostOrUrl === "string" && !hostOrUrl.includes("://")) return hostOrUrl.toLowerCase();
  const url = typeof hostOrUrl === "string" ? new URL(hostOrUrl) : hostOrUrl;
  return `${url.hostname}:${url.port || (url.protocol === "https:" ? "443" : "80")}`;
}

const PRUNE_EVERY = 1024;

export class HostPoliteness {
  private readonly options: z.output<typeof hostPolitenessOptionsSchema>;
  private readonly hosts = new Map<string, HostState>();
  private acquires = 0;

  constructor(options: HostPolitenessOptions = {}) {
    this.options = hostPolitenessOptionsSchema.parse(options);
  }

  /** Waits for a slot on the URL's host; resolves with the release function. */
  acquire(url: string | URL, options: AcquireOptions = {}): Promise<Release> {
    if (++this.acquires % PRUNE_EVERY === 0) this.prune();
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(new FetchAbortedError("Aborted while waiting for the host"));
    const key = hostKey(url);
    const delayMs = this.effectiveDelay(options);
    const state = this.state(key);
    const now = Date.now();
    if (state.queue.length === 0 && state.inFlight < this.options.maxInFlightPerHost && now >= readyAt(state, delayMs)) {
      return Promise.resolve(this.start(state, delayMs, now));
    }
    return new Promise<Release>((resolve, reject) => {
      const onAbort = () => {
        const index = state.queue.indexOf(waiter);
        if (index >= 0) state.queue.splice(index, 1);
        reject(new FetchAbortedError("Aborted while waiting for the host"));
        if (index === 0) this.pump(state);
      };
      const waiter: Waiter = {
        delayMs,
        owner: options.owner,
        resolve,
        reject,
        cleanup: () => signal?.removeEventListener("abort", onAbort),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      state.queue.push(waiter);
      if (state.queue.length === 1) this.pump(state);
    });
  }

  /** No request to this host starts before `untilEpochMs` (never shortens an existing block). */
  blockHostUntil(hostOrUrl: string | URL, untilEpochMs: number): void {
    const state = this.state(hostKey(hostOrUrl));
    state.blockedUntilMs = Math.max(state.blockedUntilMs, untilEpochMs);
    this.pump(state);
  }

  /** `blockHostUntil(host, Date.now() + durationMs)`, e.g. for Retry-After. */
  blockHostFor(hostOrUrl: string | URL, durationMs: number): void {
    this.blockHostUntil(hostOrUrl, Date.now() + durationMs);
  }

  /** Hosts with someone waiting, for "running — waiting for <host> (rate limited)". */
  waitingFor(): HostWait[] {
    const now = Date.now();
    const out: HostWait[] = [];
    for (const [host, state] of this.hosts) {
      const head = state.queue[0];
      if (!head) continue;
      const owners = [...new Set(state.queue.map((w) => w.owner).filter((o): o is string => o !== undefined))];
      out.push({
        host,
        untilMs: Math.max(now, readyAt(state, head.delayMs)),
        reason: state.blockedUntilMs > now ? "rate-limited" : "politeness",
        waiters: state.queue.length,
        owners,
      });
    }
    return out;
  }

  private effectiveDelay(options: AcquireOptions): number {
    const crawlDelay = Math.min(options.crawlDelayMs ?? 0, this.options.crawlDelayCapMs);
    return Math.max(options.delayMs ?? this.options.defaultDelayMs, crawlDelay, 0);
  }

  private state(key: string): HostState {
    let state = this.hosts.get(key);
    if (!state) {
      state = { lastStartMs: -Infinity, lastDelayMs: 0, inFlight: 0, blockedUntilMs: 0, queue: [], timer: null };
      this.hosts.set(key, state);
    }
    return state;
  }

  private start(state: HostState, delayMs: number, now: number): Release {
    state.inFlight++;
    state.lastStartMs = now;
    state.lastDelayMs = delayMs;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      state.inFlight--;
      if (state.queue.length > 0) this.pump(state);
    };
  }

  /** Starts every waiter that may start now, then arms one timer for the next. */
  private pump(state: HostState): void {
    if (state.timer) {
      clearTimeout(state.timer);
      state.timer = null;
    }
    while (state.queue.length > 0 && state.inFlight < this.options.maxInFlightPerHost) {
      const head = state.queue[0]!;
      const now = Date.now();
      const at = readyAt(state, head.delayMs);
      if (at > now) {
        state.timer = setTimeout(() => this.pump(state), at - now);
        return;
      }
      state.queue.shift();
      head.cleanup();
      head.resolve(this.start(state, head.delayMs, now));
    }
  }

  /** Forgets idle hosts whose clock no longer constrains anything. */
  private prune(): void {
    const now = Date.now();
    for (const [key, state] of this.hosts) {
      if (state.queue.length === 0 && state.inFlight === 0 && now >= readyAt(state, 0)) this.hosts.delete(key);
    }
  }
}

/**
 * Earliest start for a caller with `delayMs`. The gap after the previous start is the
 * larger of its delay and ours: when crawls with 1 s and 5 s delays share a host, a start
 * next to one of the 5 s crawl's starts is 5 s away from it (the larger delay wins), while
 * the 1 s crawl alone still runs at its own pace.
 */
function readyAt(state: HostState, delayMs: number): number {
  return Math.max(state.blockedUntilMs, state.lastStartMs + Math.max(delayMs, state.lastDelayMs));
}
