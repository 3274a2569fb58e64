/** Settings of {@link pollUntil}. */
export interface PollOptions<T = unknown> {
  /**
   * How long to wait. With `progress`, how long to wait without progress: a slow machine moves
   * the deadline on, a stuck one times out as soon as on an idle machine.
   */
  timeoutMs: number;
  /** Pause between two reads. */
  pollMs: number;
  /** Appended to the timeout message (e.g. a worker process's output). */
  context?: () => string;
  /** A number that grows while the awaited work advances (requests made, rows written). */
  progress?: (value: T) => number;
}

/**
 * Reads `read()` until `accept` holds and returns that value; past the timeout, throws with what
 * was awaited and the last value read (bigints as numbers). The worker and resume tests wait on
 * database rows this way.
 */
export async function pollUntil<T>(what: string, read: () => Promise<T> | T, accept: (value: T) => boolean, options: PollOptions<T>): Promise<T> {
  let deadline = Date.now() + options.timeoutMs;
  let progress = Number.NEGATIVE_INFINITY;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    const now = options.progress?.(value);
    if (now !== undefined && now > progress) {
      progress = now;
      deadline = Date.now() + options.timeoutMs;
    }
    if (Date.now() > deadline) {
      const last = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
      const context = options.context?.() ?? "";
      const stalled = options.progress ? ` (no progress in its last ${options.timeoutMs} ms)` : "";
      throw new Error(`timed out waiting for ${what}${stalled}; last value ${last}${context ? `\n${context}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}

/**
 * `work`, or an error naming `what` once `timeoutMs` has passed: a step with no deadline of its
 * own (a download, a child process) fails with a message instead of running into the test's
 * timeout. The work itself is not cancelled.
 */
export async function withDeadline<T>(what: string, work: Promise<T>, timeoutMs: number, context?: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      const extra = context?.() ?? "";
      reject(new Error(`${what} did not finish within ${timeoutMs} ms${extra ? `\n${extra}` : ""}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
