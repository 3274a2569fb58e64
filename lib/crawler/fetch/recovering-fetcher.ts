import fs from "node:fs";
import { STATUS_CODES } from "node:http";
import { pipeline } from "node:stream/promises";
import type { FetchErrorCode } from "./errors";
import type { AcquireOptions, HostPoliteness, Release } from "./host-politeness";
import { resolveLocation } from "./http-fetcher";
import { emptyFetchResult, type BodyDisposition, type FetchMethod, type FetchOutcome, type FetchRequest, type FetchResult, type Fetcher, type ResponseHead } from "./types";

/**
 * One request of the crawl's durable request log that a crash rolled back, with what is needed
 * to answer it again exactly as the site did: plain data, read by the store (recovery-journal.ts).
 */
export interface LoggedAnswer {
  method: FetchMethod;
  url: string;
  status: number;
  mime: string;
  /** As the fetcher reported them (lower-case names); null when the crawl kept no headers: not answerable. */
  headers: Record<string, string> | null;
  outcome: FetchOutcome;
  error: { code: string; message: string } | null;
  /** Volume of the attempt (headers and body on the wire). */
  bytes: number;
  durationMs: number;
  /** The HTML body kept with the row; null when none was kept. */
  readPage: (() => Buffer) | null;
  /** A file holding the target body this request stored; null when none. */
  targetFile: string | null;
}

/** Requests of the log, in the order the crawl made them, and a release of what holds their bodies. */
export interface RecoveryLog {
  answers: readonly LoggedAnswer[];
  /** Frees what keeps the bodies readable (open packs, kept target files). Idempotent. */
  release(): void;
}

export interface RecoveryEnd {
  /** Requests answered from the log. */
  answered: number;
  /** Requests of the log never asked for again. */
  left: number;
  /** Why the recovery ended: the log was used up, the crawl asked for something else, or the run ended first. */
  reason: "exhausted" | "diverged" | "run-ended";
  /** The first request not answered from the log (divergence). */
  divergedAt: string | null;
  /** From the first request of the recovery to its end. */
  ms: number;
}

/** Errors a new attempt could fix (lib/crawler/fetch/errors.ts: fixed per class). */
const RETRYABLE_CODES = new Set(["connect-timeout", "headers-timeout", "body-timeout", "connection-reset", "connection-refused", "network-error"]);

/**
 * A Fetcher for a crawl resumed after a crash: the engine, restored from its checkpoint, makes
 * the same requests again (same PRNG, same frontier, same answers), and the request log written
 * after the checkpoint already holds their answers. As long as each request is the next one of
 * the log (method and URL), it is answered from the log, without the network and without
 * waiting for the host's politeness slot ({@link recoveringPoliteness}); the first request that
 * is not (or whose answer the log cannot give in full) ends the recovery for good, and from
 * then on every request goes to the live fetcher. robots.txt fetches always go to the site
 * (their bodies are not logged; a resumed crawl reads robots.txt again anyway) and leave the
 * recovery running.
 */
export class RecoveringFetcher implements Fetcher {
  private next = 0;
  private active: boolean;
  private answered = 0;
  private startedAt: number | null = null;
  /** The politeness wait skipped because the log was to answer that URL, with its options. */
  private skippedWaitFor: { url: string; options: AcquireOptions } | null = null;
  /** Whether the latest answer came from the log (its rate limit is history, not news). */
  lastAnswerFromLog = false;

  private live: Fetcher | null = null;

  /** `politeness`: the shared one, owed by a request the log was to answer but could not. */
  constructor(
    private readonly politeness: HostPoliteness,
    private readonly log: RecoveryLog,
    private readonly onEnd: (end: RecoveryEnd) => void,
  ) {
    this.active = log.answers.length > 0;
    if (!this.active) log.release();
  }

  /** Sets the fetcher the requests go to once the recovery is over (the engine's own). */
  over(live: Fetcher): this {
    this.live = live;
    return this;
  }

  /** True while requests are still answered from the log. */
  get recovering(): boolean {
    return this.active;
  }

  /** Whether the next request to `url` would be answered from the log (so need not wait for the host). */
  willAnswer(url: string): boolean {
    return this.active && this.log.answers[this.next]?.url === url;
  }

  /** Called by {@link recoveringPoliteness} when it let a request skip its wait. */
  skippedWait(url: string, options: AcquireOptions): void {
    this.skippedWaitFor = { url, options };
  }

  async fetch(request: FetchRequest): Promise<FetchResult> {
    const skipped = this.skippedWaitFor?.url === request.url ? this.skippedWaitFor.options : null;
    this.skippedWaitFor = null;
    this.lastAnswerFromLog = false;
    this.startedAt ??= performance.now();
    if (request.signal?.aborted) return aborted(request);
    const logged = this.active && !isRobotsFetch(request) ? this.log.answers[this.next] : undefined;
    if (logged && logged.method === request.method && logged.url === request.url) {
      // A body the store cannot read (a pack cut short by a power loss): the site answers instead.
      const result = await this.answer(request, logged).catch(() => null);
      if (result) {
        this.next += 1;
        this.answered += 1;
        this.lastAnswerFromLog = true;
        if (this.next === this.log.answers.length) this.end("exhausted", null);
        return result;
      }
    }
    if (this.active && !isRobotsFetch(request)) this.end("diverged", `${request.method} ${request.url}`);
    // The politeness wait skipped for a request the log was to answer is owed to the site now.
    const release: Release | null = skipped ? await this.politeness.acquire(request.url, { ...skipped, signal: request.signal }).catch(() => null) : null;
    try {
      if (!this.live) throw new Error("RecoveringFetcher: no live fetcher (call over())");
      return await this.live.fetch(request);
    } finally {
      release?.();
    }
  }

  /** Ends the recovery now (the run is over): frees the log's bodies. */
  close(): void {
    if (this.active) this.end("run-ended", null);
  }

  private end(reason: RecoveryEnd["reason"], divergedAt: string | null): void {
    this.active = false;
    try {
      this.log.release();
    } catch {
      // Kept bodies that could not be removed now: the next recovery of the crawl clears them.
    }
    const ms = this.startedAt === null ? 0 : Math.round(performance.now() - this.startedAt);
    this.onEnd({ answered: this.answered, left: this.log.answers.length - this.next, reason, divergedAt, ms });
  }

  /** The logged answer as the live fetcher returned it; null when the log cannot give all the engine will read. */
  private async answer(request: FetchRequest, logged: LoggedAnswer): Promise<FetchResult | null> {
    if (logged.headers === null) return null;
    if (logged.error?.code === "aborted") return null; // a pause, not an answer of the site
    const result = emptyFetchResult(request);
    const head: ResponseHead = { url: request.url, method: request.method, status: logged.status, headers: { ...logged.headers }, mime: logged.mime, contentLength: contentLength(logged.headers) };
    const headerBytes = Math.min(estimateHeaderBytes(logged.status, logged.headers), logged.bytes);
    Object.assign(result, { status: logged.status, headers: head.headers, mime: logged.mime, location: resolveLocation(logged.headers.location, request.url), headerBytes, wireBytes: logged.bytes - headerBytes, durationMs: logged.durationMs, outcome: logged.outcome });
    if (logged.outcome === "error") {
      const code = logged.error?.code ?? "network-error";
      result.error = { code: code as FetchErrorCode, message: logged.error?.message ?? "", retryable: RETRYABLE_CODES.has(code) };
      return result;
    }
    if (logged.outcome !== "ok" || request.method === "HEAD") return result;
    const disposition: BodyDisposition = request.wantBody ? request.wantBody(logged.mime, head) : true;
    if (disposition === false) return result;
    if (disposition === true) {
      if (!logged.readPage) return null;
      const body = logged.readPage();
      if (body.length > request.maxBodyBytes) return null;
      return Object.assign(result, { body, bodyBytes: body.length });
    }
    if (!logged.targetFile || !request.openSink) return null;
    const size = fileSize(logged.targetFile);
    if (size === null || size > request.maxBodyBytes) return null;
    const sink = request.openSink(head);
    result.streamed = true;
    try {
      await pipeline(fs.createReadStream(logged.targetFile), sink, { signal: request.signal });
    } catch {
      sink.destroy();
      if (!request.signal?.aborted) return null; // the site answers; its sink replaces this one
      result.outcome = "error";
      result.error = { code: "aborted", message: "Aborted by the caller", retryable: false };
      return result;
    }
    result.bodyBytes = size;
    return result;
  }
}

/**
 * The host politeness for a crawl with a {@link RecoveringFetcher}: a request the log will
 * answer does not wait for the host's slot (it costs the site nothing), nor does a rate limit
 * answered from the log block the host (it is history). Everything else goes to the shared
 * politeness unchanged.
 */
export function recoveringPoliteness(shared: HostPoliteness, fetcher: RecoveringFetcher): HostPoliteness {
  const noWait: Release = () => undefined;
  return new Proxy(shared, {
    get(target, property) {
      if (property === "acquire") {
        return (url: string | URL, options: AcquireOptions = {}) => {
          const href = String(url);
          if (!fetcher.willAnswer(href)) return target.acquire(url, options);
          fetcher.skippedWait(href, options);
          return Promise.resolve(noWait);
        };
      }
      if (property === "blockHostFor") {
        return (url: string | URL, durationMs: number) => {
          if (!fetcher.lastAnswerFromLog) target.blockHostFor(url, durationMs);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The engine's robots.txt fetches are the only ones that truncate instead of refusing big bodies. */
function isRobotsFetch(request: FetchRequest): boolean {
  return request.method === "GET" && request.overflow === "truncate";
}

function aborted(request: FetchRequest): FetchResult {
  return { ...emptyFetchResult(request), outcome: "error", error: { code: "aborted", message: "Aborted by the caller", retryable: false } };
}

function contentLength(headers: Record<string, string>): number | null {
  const length = headers["content-length"];
  return length !== undefined && /^\d+$/.test(length.trim()) ? Number(length) : null;
}

function fileSize(file: string): number | null {
  try {
    return fs.statSync(file).size;
  } catch {
    return null;
  }
}

/** Same estimate as the HTTP fetcher: status line, one `name: value\r\n` per header, blank line. */
function estimateHeaderBytes(status: number, headers: Record<string, string>): number {
  let bytes = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\n`.length + 2;
  for (const [name, value] of Object.entries(headers)) bytes += name.length + value.length + 4;
  return bytes;
}
