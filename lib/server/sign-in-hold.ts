import type { IncomingMessage, ServerResponse } from "node:http";

/**
 * Holds each client address's sign-in requests at the door of the dashboard server, before
 * Next.js parses them, so that a client flooding them costs the server almost nothing and other
 * users' requests stay fast. Refusing alone does not do that: even instant 401s, sent as fast as
 * a client can, fill the two cores. So per address:
 * - one sign-in at a time is passed on (an Argon2 hash and a database write each);
 * - after a refused one (401, 429, 503) the next waits, the wait doubling per consecutive refusal
 *   up to `maxDelayMs` (a signed-in answer resets it);
 * - up to `maxQueuedPerAddress` wait in line; more are held `overflowHoldMs` and answered 429 with
 *   Retry-After (a held socket costs a file descriptor, not CPU);
 * - beyond `maxHeldPerAddress` connections the socket is closed at once.
 * A user sharing an address (a NAT) with a flooding client waits with it: the throttle behind
 * (lib/auth/sign-in-throttle.ts) still keys on the address too, so nothing is lost by waiting.
 */
export interface SignInHoldOptions {
  /** @default 8 */
  maxQueuedPerAddress: number;
  /** Queued, held and passed-on connections of one address together. @default 128 */
  maxHeldPerAddress: number;
  /** @default 2000 */
  overflowHoldMs: number;
  /** Wait after the first refused sign-in of an address. @default 250 */
  baseDelayMs: number;
  /** @default 5000 */
  maxDelayMs: number;
  /** An address idle this long after its wait is forgotten. @default 60000 */
  forgetAfterMs: number;
}

export const DEFAULT_SIGN_IN_HOLD: SignInHoldOptions = {
  maxQueuedPerAddress: 8,
  maxHeldPerAddress: 128,
  overflowHoldMs: 2000,
  baseDelayMs: 250,
  maxDelayMs: 5000,
  forgetAfterMs: 60_000,
};

/** The paths whose requests are held: the two that hash a password before anyone is signed in. */
export const HELD_PATHS: ReadonlySet<string> = new Set(["/api/auth/sign-in", "/api/auth/setup"]);

interface Waiting {
  req: IncomingMessage;
  res: ServerResponse;
  pass: () => void;
}

interface AddressLine {
  busy: boolean;
  queue: Waiting[];
  /** Connections held for an overflow answer. */
  overflow: number;
  refusals: number;
  nextReleaseAt: number;
  timer: NodeJS.Timeout | null;
}

export class SignInHold {
  private readonly lines = new Map<string, AddressLine>();
  private readonly sweeper: NodeJS.Timeout;
  readonly options: SignInHoldOptions;

  constructor(options: Partial<SignInHoldOptions> = {}) {
    this.options = { ...DEFAULT_SIGN_IN_HOLD, ...options };
    this.sweeper = setInterval(() => this.forgetIdle(Date.now()), Math.max(1000, this.options.forgetAfterMs / 2));
    this.sweeper.unref();
  }

  /** Whether this request is one the hold applies to. */
  static applies(req: IncomingMessage): boolean {
    return req.method === "POST" && HELD_PATHS.has((req.url ?? "").split("?")[0]!);
  }

  /** Passes the request on (`pass`) when its address's turn comes, or answers or closes it itself. */
  admit(address: string, req: IncomingMessage, res: ServerResponse, pass: () => void): void {
    const line = this.lineOf(address);
    const held = line.queue.length + line.overflow + (line.busy ? 1 : 0);
    if (held >= this.options.maxHeldPerAddress) {
      req.socket.destroy();
      return;
    }
    if (line.queue.length >= this.options.maxQueuedPerAddress) {
      line.overflow++;
      const holdMs = Math.max(this.options.overflowHoldMs, line.nextReleaseAt - Date.now());
      setTimeout(() => {
        line.overflow--;
        refuse(res, holdMs);
      }, holdMs);
      return;
    }
    line.queue.push({ req, res, pass });
    this.pump(line);
  }

  /** Stops the sweeper and forgets every address (held requests are left to their sockets). */
  close(): void {
    clearInterval(this.sweeper);
    for (const line of this.lines.values()) if (line.timer) clearTimeout(line.timer);
    this.lines.clear();
  }

  /** Addresses currently remembered (for tests). */
  get size(): number {
    return this.lines.size;
  }

  private lineOf(address: string): AddressLine {
    let line = this.lines.get(address);
    if (!line) {
      line = { busy: false, queue: [], overflow: 0, refusals: 0, nextReleaseAt: 0, timer: null };
      this.lines.set(address, line);
    }
    return line;
  }

  private pump(line: AddressLine): void {
    while (!line.busy && line.queue.length > 0 && line.timer === null) {
      const wait = line.nextReleaseAt - Date.now();
      if (wait > 0) {
        line.timer = setTimeout(() => {
          line.timer = null;
          this.pump(line);
        }, wait);
        return;
      }
      const next = line.queue.shift()!;
      if (next.req.destroyed || next.res.destroyed) continue; // the client gave up while waiting
      line.busy = true;
      next.res.once("close", () => {
        line.busy = false;
        const refused = next.res.statusCode >= 400 || !next.res.writableFinished;
        line.refusals = refused ? line.refusals + 1 : 0;
        line.nextReleaseAt = refused ? Date.now() + Math.min(this.options.baseDelayMs * 2 ** (line.refusals - 1), this.options.maxDelayMs) : 0;
        this.pump(line);
      });
      next.pass();
    }
  }

  private forgetIdle(now: number): void {
    for (const [address, line] of this.lines) {
      const idle = !line.busy && line.queue.length === 0 && line.overflow === 0 && line.timer === null;
      if (idle && now - line.nextReleaseAt > this.options.forgetAfterMs) this.lines.delete(address);
    }
  }
}

/** 429 in the API's error shape, the connection closed after it (the client sends its next one on a new one). */
function refuse(res: ServerResponse, holdMs: number): void {
  if (res.destroyed || res.headersSent) return;
  const retryAfterSeconds = Math.max(1, Math.ceil(holdMs / 1000));
  const message = `Too many sign-in attempts from this address at once: try again in ${retryAfterSeconds} s`;
  res.writeHead(429, { "content-type": "application/json", "retry-after": String(retryAfterSeconds), connection: "close" });
  res.end(JSON.stringify({ error: { code: "too_many_requests", message, status: 429 } }));
}
