/**
 * Per-host politeness, shared by every crawl in a worker process: a minimum gap between two
 * requests to one host, a cap on requests in flight per host, and back-off when the host says
 * 429 / 503. Hosts are keyed "hostname:port", so two crawls of one site share one clock.
 * Waiters are served FIFO per host.
 *
 * The gap counts from the END of the previous request (its response read or abandoned), as
 * Nutch and Heritrix count it, not from its start: a request's start says nothing about when
 * it reached the site. A new connection, a DNS lookup or a busy event loop delays the first
 * request while the next one leaves at once on a pooled connection, and a start-to-start
 * clock let a site see robots.txt and the first page closer together than the delay. The end
 * of a request comes after the site received it, so a next start at least `delay` after that
 * end reaches the site at least `delay` after it: with one request in flight per host (the
 * default), the site never sees two requests closer than the delay. With more in flight,
 * starts are spaced by the delay as well. The clock is `performance` time (sub-millisecond,
 * monotonic) so that rounding to whole milliseconds cannot shave the gap.
 *
 * A zero delay with a free slot takes a synchronous fast path with no timer: benchmarks
 * against the local demo site run thousands of requests per second through here.
 */
import { z } from "zod";
import { FetchAbortedError } from "./errors";

export const hostPolitenessOptionsSchema = z.strictObject({
  /** Gap after a request to a host before the next starts, when the caller gives no `delayMs`. @default 1000 */
  defaultDelayMs: z.number().nonnegative().default(1000),
  /** Requests in flight at once per host. @default 1 */
  maxInFlightPerHost: z.number().int().positive().default(1),
  /** Upper bound on a robots.txt Crawl-delay (a site asking for 1 h would stall the crawl). @default 30000 */
  crawlDelayCapMs: z.number().nonnegative().default(30_000),
});
export type HostPolitenessOptions = z.input<typeof hostPolitenessOptionsSchema>;

export interface AcquireOptions {
  /** This crawl's delay between two requests to the host. @default options.defaultDelayMs */
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
  lastEndMs: number;
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

/**
 * A per-host politeness clock: what the engine, robots.txt and retries ask of one. Two
 * implementations: {@link InProcessHostPoliteness} below (one process: every crawl of a worker,
 * or the CLI) and the database's (lib/store/host-clock-postgres.ts: every worker sharing a
 * PostgreSQL database honours one clock per host).
 */
export interface HostPoliteness {
  /** Waits for a slot on the URL's host; resolves with the release function. */
  acquire(url: string | URL, options?: AcquireOptions): Promise<Release>;
  /** No request to this host starts before `untilEpochMs` (never shortens an existing block). */
  blockHostUntil(hostOrUrl: string | URL, untilEpochMs: number): void;
  /** No request to this host starts within `durationMs` from now, e.g. for Retry-After. */
  blockHostFor(hostOrUrl: string | URL, durationMs: number): void;
  /** Hosts with someone waiting, for "running — waiting for <host> (rate limited)". */
  waitingFor(): HostWait[];
}

/** The delay a request waits for: the crawl's, or the robots.txt Crawl-delay (capped) when larger. */
export function effectiveDelayMs(options: AcquireOptions, defaults: { defaultDelayMs: number; crawlDelayCapMs: number }): number {
  const crawlDelay = Math.min(options.crawlDelayMs ?? 0, defaults.crawlDelayCapMs);
  return Math.max(options.delayMs ?? defaults.defaultDelayMs, crawlDelay, 0);
}

const PRUNE_EVERY = 1024;

/** The clock of one process: every crawl of a worker (SQLite) or of a CLI run. */
export class InProcessHostPoliteness implements HostPoliteness {
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
    const now = clockMs();
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

  /** No request to this host starts within `durationMs` from now, e.g. for Retry-After. */
  blockHostFor(hostOrUrl: string | URL, durationMs: number): void {
    this.blockHostUntil(hostOrUrl, clockMs() + durationMs);
  }

  /** Hosts with someone waiting, for "running — waiting for <host> (rate limited)". */
  waitingFor(): HostWait[] {
    const now = clockMs();
    const out: HostWait[] = [];
    for (const [host, state] of this.hosts) {
      const head = state.queue[0];
      if (!head) continue;
      const owners = [...new Set(state.queue.map((w) => w.owner).filter((o): o is string => o !== undefined))];
      out.push({
        host,
        untilMs: Math.ceil(Math.max(now, readyAt(state, head.delayMs))),
        reason: state.blockedUntilMs > now ? "rate-limited" : "politeness",
        waiters: state.queue.length,
        owners,
      });
    }
    return out;
  }

  private effectiveDelay(options: AcquireOptions): number {
    return effectiveDelayMs(options, this.options);
  }

  private state(key: string): HostState {
    let state = this.hosts.get(key);
    if (!state) {
      state = { lastStartMs: -Infinity, lastEndMs: -Infinity, lastDelayMs: 0, inFlight: 0, blockedUntilMs: 0, queue: [], timer: null };
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
      state.lastEndMs = Math.max(state.lastEndMs, clockMs());
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
      const now = clockMs();
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
    const now = clockMs();
    for (const [key, state] of this.hosts) {
      if (state.queue.length === 0 && state.inFlight === 0 && now >= readyAt(state, 0)) this.hosts.delete(key);
    }
  }
}

/**
 * The in-process clock under the name callers construct (`new HostPoliteness()`); as a type,
 * `HostPoliteness` is the interface above.
 */
export const HostPoliteness = InProcessHostPoliteness;

/**
 * Earliest start for a caller with `delayMs`: the delay after the previous request's end (and
 * its start, which matters only with several in flight). The gap is the larger of its delay
 * and ours: when crawls with 1 s and 5 s delays share a host, a request next to one of the 5 s
 * crawl's is 5 s away from it (the larger delay wins), while the 1 s crawl alone still runs at
 * its own pace.
 */
function readyAt(state: HostState, delayMs: number): number {
  const gapMs = Math.max(delayMs, state.lastDelayMs);
  return Math.max(state.blockedUntilMs, state.lastStartMs + gapMs, state.lastEndMs + gapMs);
}

/** Epoch milliseconds, sub-millisecond and monotonic (Date.now() may step back, and rounds). */
function clockMs(): number {
  return performance.timeOrigin + performance.now();
}
