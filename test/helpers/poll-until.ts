/** Settings of {@link pollUntil}. */
export interface PollOptions {
  timeoutMs: number;
  /** Pause between two reads. */
  pollMs: number;
  /** Appended to the timeout message (e.g. a worker process's output). */
  context?: () => string;
}

/**
 * Reads `read()` until `accept` holds and returns that value; past the timeout, throws with what
 * was awaited and the last value read (bigints as numbers). The worker and resume tests wait on
 * database rows this way.
 */
export async function pollUntil<T>(what: string, read: () => Promise<T> | T, accept: (value: T) => boolean, options: PollOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline) {
      const last = JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? Number(v) : v));
      const context = options.context?.() ?? "";
      throw new Error(`timed out waiting for ${what}; last value ${last}${context ? `\n${context}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}
