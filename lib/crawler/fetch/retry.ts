/**
 * Retries. Every attempt is a separate counted request (it costs the site as much as the
 * first), so attempts are reported one by one through `onAttempt` and returned in
 * `attempts`: the engine stores one request row per attempt.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { z } from "zod";
import { FetchAbortedError } from "./errors";
import type { HostPoliteness } from "./host-politeness";
import type { FetchRequest, FetchResult, Fetcher } from "./types";

export const retryPolicySchema = z.strictObject({
  /** Retries after the first attempt (so at most maxRetries + 1 requests). @default 3 */
  maxRetries: z.number().int().min(0).default(3),
  /** Back-off before the first retry, doubled (× factor) for each further one. @default 1000 */
  baseDelayMs: z.number().nonnegative().default(1000),
  /** @default 2 */
  factor: z.number().min(1).default(2),
  /** Longest Retry-After we wait for; longer values are cut to this. @default 60000 */
  maxRetryAfterMs: z.number().nonnegative().default(60_000),
  /** HTTP statuses that mean "try again later". @default [429, 503] */
  retryStatuses: z.array(z.number().int()).default([429, 503]),
  /** Source of jitter in [0, 1); inject a constant in tests. @default Math.random */
  random: z.custom<() => number>((v) => typeof v === "function").default(() => Math.random),
});
export type RetryPolicyOptions = z.input<typeof retryPolicySchema>;
export type RetryPolicy = z.output<typeof retryPolicySchema>;

export const DEFAULT_RETRY_POLICY: RetryPolicy = retryPolicySchema.parse({});

/**
 * The one place that decides whether to retry (cf. crawlee `canRequestBeRetried`):
 * after `attempt` attempts (1-based), retry when attempts remain and either the error's
 * class is retryable (network errors, timeouts) or the status says "later" (429, 503).
 * Blocked MIME types, too-large bodies, 4xx/5xx other than those, private-network
 * refusals and caller aborts are final.
 */
export function shouldRetry(result: FetchResult, attempt: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): boolean {
  if (attempt > policy.maxRetries) return false;
  if (result.outcome === "error") return result.error?.retryable ?? false;
  return policy.retryStatuses.includes(result.status);
}

/**
 * Wait before the next attempt: Retry-After when the server sent one (capped by
 * maxRetryAfterMs), otherwise exponential back-off with "equal jitter"
 * (half fixed, half random) so concurrent crawls don't retry in lock-step.
 */
export function retryDelayMs(result: FetchResult, attempt: number, policy: RetryPolicy = DEFAULT_RETRY_POLICY): number {
  const retryAfter = parseRetryAfterMs(result.headers["retry-after"]);
  if (retryAfter !== null) return Math.min(retryAfter, policy.maxRetryAfterMs);
  const exp = policy.baseDelayMs * policy.factor ** Math.max(0, attempt - 1);
  return Math.round(exp / 2 + (exp / 2) * policy.random());
}

/**
 * Retry-After as delta-seconds or an HTTP date, in ms; null when absent or unparsable. Always a
 * safe integer: delta-seconds past 2^53 ms (285,000 years) are cut there, where `Number(text) * 1000`
 * gave a rounded or an Infinite delay that JSON (request rows, events) would store as null.
 */
export function parseRetryAfterMs(value: string | undefined, nowMs = Date.now()): number | null {
  if (value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, Number.MAX_SAFE_INTEGER);
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

/** One attempt as recorded by the engine: a FetchResult plus its place in the series. */
export interface AttemptRecord extends FetchResult {
  /** 1-based attempt number. */
  attempt: number;
  /** Delay before the next attempt, or null when this attempt is final. */
  retryInMs: number | null;
}

export interface FetchWithRetryOptions {
  policy?: RetryPolicyOptions;
  /** When given, every attempt waits for its host slot, and 429 / 503 block the host. */
  politeness?: HostPoliteness;
  /** Per-crawl politeness delay for `politeness.acquire`. */
  delayMs?: number;
  /** robots.txt Crawl-delay for this host, if any. */
  crawlDelayMs?: number | null;
  /** Shown by `politeness.waitingFor()` (e.g. the crawl id). */
  owner?: string;
  /** Called after each attempt, before any wait; await it to store the request row. */
  onAttempt?: (record: AttemptRecord) => void | Promise<void>;
  /** Asked before each retry; return false when the budget is spent. @default () => true */
  canRetry?: () => boolean;
}

/**
 * Fetch with retries. Returns the final result and every attempt.
 * @throws FetchAbortedError when `request.signal` aborts while waiting (politeness slot
 * or back-off); attempts made before that were already reported through `onAttempt`.
 */
export async function fetchWithRetry(
  fetcher: Fetcher,
  request: FetchRequest,
  options: FetchWithRetryOptions = {},
): Promise<{ result: FetchResult; attempts: AttemptRecord[] }> {
  const policy = options.policy ? retryPolicySchema.parse(options.policy) : DEFAULT_RETRY_POLICY;
  const { politeness } = options;
  const signal = request.signal;
  const attempts: AttemptRecord[] = [];
  for (let attempt = 1; ; attempt++) {
    const release = politeness
      ? await politeness.acquire(request.url, {
          delayMs: options.delayMs,
          crawlDelayMs: options.crawlDelayMs,
          signal,
          owner: options.owner,
        })
      : null;
    let result: FetchResult;
    let retry: boolean;
    let rateLimited: boolean;
    let waitMs: number | null;
    try {
      result = await fetcher.fetch(request);
      retry = shouldRetry(result, attempt, policy) && (options.canRetry?.() ?? true);
      rateLimited = policy.retryStatuses.includes(result.status) && result.outcome !== "error";
      waitMs = retry || rateLimited ? retryDelayMs(result, attempt, policy) : null;
      // A 429 / 503 is about the host, not this URL: block it for every crawl sharing it,
      // even when this request is not retried, so the next request waits too. Blocked before
      // the release, so no waiter (of this process or another worker) starts in between.
      if (rateLimited && politeness && waitMs !== null) politeness.blockHostFor(request.url, waitMs);
    } finally {
      release?.();
    }
    const record: AttemptRecord = { ...result, attempt, retryInMs: retry ? waitMs : null };
    attempts.push(record);
    await options.onAttempt?.(record);
    if (!retry) return { result, attempts };
    if (!(rateLimited && politeness)) await wait(waitMs ?? 0, signal);
  }
}

async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (signal?.aborted) throw new FetchAbortedError("Aborted by the caller");
  if (ms <= 0) return;
  try {
    await sleep(ms, undefined, { signal });
  } catch (err) {
    throw new FetchAbortedError("Aborted by the caller", { cause: err });
  }
}
