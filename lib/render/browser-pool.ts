import { chromium, type Browser, type BrowserContext, type BrowserContextOptions } from "playwright-core";
import { ContextSlots } from "./context-slots";
import { settleWithin } from "./settle-within";
import { childWithArgument, treeCpuMs, treeRssBytes } from "./process-tree";

/**
 * Chromium flags that keep the browser from reaching the network by itself. Every request a page
 * makes is intercepted and answered by the engine; these are the second wall for whatever might
 * slip past interception: all traffic, loopback included (`<-loopback>`), goes to a proxy on port 9
 * where nothing listens, so it fails; no DNS prefetching; WebRTC only through that proxy, so no UDP
 * (STUN/TURN would otherwise send datagrams from the page: no HTTP proxy carries UDP, and request
 * interception never sees them; the switch is `--webrtc-ip-handling-policy`, Chromium knows no
 * `--force-` form of it); none of the browser's own background traffic (updates, sync, metrics).
 */
export const ISOLATION_FLAGS: readonly string[] = [
  "--proxy-server=http://127.0.0.1:9",
  "--proxy-bypass-list=<-loopback>",
  "--dns-prefetch-disable",
  "--webrtc-ip-handling-policy=disable_non_proxied_udp",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-domain-reliability",
  "--disable-client-side-phishing-detection",
  "--disable-breakpad",
  "--no-pings",
  "--no-first-run",
  "--disable-quic",
  "--disable-gpu",
];

/** How long closing one context may take before the browser is taken for broken and closed. */
const CONTEXT_CLOSE_MS = 5_000;
/** How long the browser may take to start. */
const LAUNCH_MS = 30_000;
/** How long a browser being let go may take to close before its process is killed. */
const BROWSER_CLOSE_MS = 5_000;
/** How long a context kept for its site may stay unused before it is closed. */
export const IDLE_CONTEXT_MS = 30_000;

export interface BrowserPoolOptions {
  /** The Chromium executable (`findChromium`). */
  executablePath: string;
  /** Browser contexts open at once (FORAGE_RENDER_CONTEXTS), idle ones kept for their site included; more wait in order. */
  maxContexts: number;
  /** How long an idle context is kept for its key. @default IDLE_CONTEXT_MS */
  idleContextMs?: number;
}

/** What `use` may tell the pool about the context it was given. */
export interface ContextLease {
  /** The context is not fit for reuse (a time limit, an abort, a failure): it is closed after `use`, never kept. */
  discard(): void;
}

export interface WithContextOptions {
  /**
   * The context is kept idle under this key after a healthy use, and the next use with the same
   * key takes it as it is (cookies, storage, cache and open pages included); no key: a fresh
   * context, closed after use. Uses with one key must ask for the same `contextOptions`.
   */
  key?: string;
  contextOptions?: BrowserContextOptions;
  /** Ends the wait for a slot (the use itself watches it too). */
  signal?: AbortSignal;
}

/** The browser could not be started (a wrong executable, a missing library): the pages wait for no one. */
export class BrowserLaunchError extends Error {
  override name = "BrowserLaunchError";
}

let launches = 0;

/**
 * One Chromium per process, started on first use and again after it disconnected or crashed. A use
 * without a key gets a fresh context, closed after use whatever happened; a use with a key may
 * get the context a previous use with that key left idle (see `withContext`). At most
 * `maxContexts` are open at once, idle ones included: one wanted for another key closes the least
 * recently used idle one; an idle one closes by itself after `idleContextMs` unused.
 */
export class BrowserPool {
  private readonly slots: ContextSlots<BrowserContext>;
  private created = 0;
  private browser: Promise<Browser> | null = null;
  /** The browser `browser` resolved to, once started. */
  private started: Browser | null = null;
  private pid: number | null = null;
  private closed = false;

  constructor(private readonly options: BrowserPoolOptions) {
    if (!Number.isInteger(options.maxContexts) || options.maxContexts < 1) throw new Error(`maxContexts must be a positive integer, not ${options.maxContexts}`);
    this.slots = new ContextSlots<BrowserContext>({ size: options.maxContexts, idleMs: options.idleContextMs ?? IDLE_CONTEXT_MS, close: (context) => this.closeContext(context) });
  }

  /**
   * Runs `use` with a context once a slot is free: one left idle under `options.key` by an earlier
   * use, else a fresh one. When `use` ends, the context is kept idle under the key if `use`
   * succeeded without `discard()`, and closed otherwise (also when it throws, or without a key).
   * `use`'s result is returned at once, while the context closes (a page whose script never
   * yields can take a moment); its slot is free only once it has closed.
   */
  async withContext<T>(use: (context: BrowserContext, lease: ContextLease) => Promise<T>, options: WithContextOptions = {}): Promise<T> {
    if (this.closed) throw new Error("the browser pool is closed");
    const key = options.key ?? null;
    const grant = await this.slots.acquire(key, options.signal);
    let context: BrowserContext | null = null;
    let fit = key !== null;
    try {
      if (grant.kind === "kept" && (await this.answers(grant.item))) context = grant.item;
      else {
        // A kept context of a browser that has since crashed: its slot goes to a fresh one.
        if (grant.kind === "kept") void grant.item.close().catch(() => undefined);
        context = await this.newContext(options.contextOptions ?? {});
        this.created++;
      }
      return await use(context, { discard: () => (fit = false) });
    } catch (error) {
      fit = false;
      throw error;
    } finally {
      if (!context) this.slots.release();
      else if (fit && key !== null && !this.closed && this.isLive(context)) this.slots.keep(key, context);
      else this.slots.releaseWhen(this.closeContext(context));
    }
  }

  /** Contexts created since the pool was made (a reused one is not created again). */
  contextsCreated(): number {
    return this.created;
  }

  /** Contexts kept idle for their key now. */
  idleContexts(): number {
    return this.slots.idleCount();
  }

  /** Contexts open in the browser now, as the browser lists them (at most `maxContexts`). */
  openContexts(): number {
    return this.started?.contexts().length ?? 0;
  }

  /** Pages waiting for a context now. */
  waitingPages(): number {
    return this.slots.waiting();
  }

  /** The running browser's process id, or null before the first page or after a crash. */
  browserPid(): number | null {
    return this.pid;
  }

  /** Resident memory of the browser and all its processes, in bytes (0 when none runs). */
  memoryBytes(): number {
    return this.pid === null ? 0 : treeRssBytes(this.pid);
  }

  /** CPU time of the browser and all its processes (ended ones included) since it started, in ms. */
  cpuMs(): number {
    return this.pid === null ? 0 : treeCpuMs(this.pid);
  }

  /** Closes the browser; pages still rendering fail, later ones are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await this.slots.closeIdle();
    const browser = this.browser;
    this.browser = null;
    this.started = null;
    this.pid = null;
    if (browser) await browser.then((b) => b.close()).catch(() => undefined);
  }

  /**
   * Whether a kept context still answers: a browser killed a moment ago may not have been heard
   * to disconnect yet, so one round trip to the context (its cookies) makes sure.
   */
  private async answers(context: BrowserContext): Promise<boolean> {
    if (!this.isLive(context)) return false;
    const outcome = await settleWithin(context.cookies(), CONTEXT_CLOSE_MS);
    return outcome.kind === "done" && this.isLive(context);
  }

  /** Whether a context belongs to the running browser (not one that crashed or was let go). */
  private isLive(context: BrowserContext): boolean {
    const browser = context.browser();
    return browser !== null && browser === this.started && browser.isConnected();
  }

  private async newContext(options: BrowserContextOptions): Promise<BrowserContext> {
    const browser = await this.runningBrowser();
    try {
      return await browser.newContext(options);
    } catch (error) {
      // Crashed between the check and the call (its "disconnected" event still on the way): once more with a new one.
      if (browser.isConnected()) throw error;
      this.forget(browser);
      return (await this.runningBrowser()).newContext(options);
    }
  }

  private runningBrowser(): Promise<Browser> {
    if (!this.browser) {
      const launching = this.launch();
      this.browser = launching;
      // A failed start is not kept: the next page tries again.
      launching.catch(() => {
        if (this.browser === launching) this.browser = null;
      });
    }
    return this.browser;
  }

  private async launch(): Promise<Browser> {
    // Playwright does not tell the browser's pid: an argument Chromium ignores finds it in /proc.
    const marker = `--forage-render-pool=${process.pid}.${++launches}`;
    let browser: Browser;
    try {
      browser = await chromium.launch({
        executablePath: this.options.executablePath,
        headless: true,
        args: [...ISOLATION_FLAGS, marker],
        timeout: LAUNCH_MS,
        // The worker decides when to shut down; its close() ends the browser.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (error) {
      throw new BrowserLaunchError(`Chromium (${this.options.executablePath}) did not start: ${firstLine(error)}`);
    }
    if (this.closed) {
      await browser.close().catch(() => undefined);
      throw new Error("the browser pool is closed");
    }
    this.started = browser;
    this.pid = childWithArgument(process.pid, marker);
    browser.on("disconnected", () => this.forget(browser));
    return browser;
  }

  /** The browser is gone (crashed, killed, or found broken): the next page starts another. */
  private forget(browser: Browser): void {
    const pid = this.started === browser ? this.pid : null;
    if (this.started === browser) {
      this.started = null;
      this.browser = null;
      this.pid = null;
    }
    // A wedged browser may not close when asked: its process is killed then.
    const killer = setTimeout(() => {
      if (pid !== null) killQuietly(pid);
    }, BROWSER_CLOSE_MS);
    killer.unref();
    void browser
      .close()
      .catch(() => undefined)
      .finally(() => clearTimeout(killer));
  }

  /** Closes a context; one that does not close in time means a browser past saving, so the browser goes. */
  private async closeContext(context: BrowserContext): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), CONTEXT_CLOSE_MS);
    });
    const closing = context.close().then(
      () => false,
      () => false,
    );
    const stuck = await Promise.race([closing, timedOut]);
    clearTimeout(timer);
    const browser = context.browser();
    if (stuck && browser) this.forget(browser);
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n").find((line) => line.trim() !== "")?.trim() ?? "unknown error";
}
