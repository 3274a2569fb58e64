/** How a piece of work ended: its value, its error, the time limit, or the caller's abort. */
export type Settled<T> = { kind: "done"; value: T } | { kind: "failed"; error: unknown } | { kind: "time-limit" } | { kind: "aborted" };

/**
 * Waits for `work` at most `ms` and no longer than `signal` allows. The work is not cancelled
 * (the caller closes what it runs in); its later failure is caught here, never unhandled.
 */
export function settleWithin<T>(work: Promise<T>, ms: number, signal?: AbortSignal): Promise<Settled<T>> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const settle = (outcome: Settled<T>) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const onAbort = () => settle({ kind: "aborted" });
    work.then(
      (value) => settle({ kind: "done", value }),
      (error: unknown) => settle({ kind: "failed", error }),
    );
    if (signal?.aborted) return settle({ kind: "aborted" });
    signal?.addEventListener("abort", onAbort, { once: true });
    timer = setTimeout(() => settle({ kind: "time-limit" }), ms);
  });
}
