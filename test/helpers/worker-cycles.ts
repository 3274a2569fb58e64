import { pollUntil } from "./poll-until";

/** What {@link holdsStillFor} reads: the worker's row and the counter that must stand still. */
export interface WorkerCycleReads {
  /** The worker row's `heartbeatAt` (written by every heartbeat of a live worker). */
  heartbeatAt: () => Promise<Date>;
  /** The counter that must not move (requests of a paused crawl…). */
  counter: () => Promise<number>;
}

/**
 * "Nothing happens while paused", measured in the worker's own cycles instead of wall time:
 * waits until the worker has written `heartbeats` heartbeats in a row while `counter` kept one
 * value, and returns that value. The counter may still move before (a request in flight when
 * the pause landed); past the timeout it throws with the last reading. A heartbeat proves the
 * worker's event loop went round (its control poll, its pause loop and its batch flushes run
 * on the same loop), so a slow machine makes the window longer, never shorter.
 */
export async function heldStillForHeartbeats(reads: WorkerCycleReads, heartbeats: number, timeoutMs = 30_000): Promise<number> {
  let since: { counter: number; heartbeatAt: number; seen: number } | null = null;
  const last = await pollUntil(
    `${heartbeats} worker heartbeats with the counter standing still`,
    async () => {
      const [heartbeatAt, counter] = [(await reads.heartbeatAt()).getTime(), await reads.counter()];
      if (!since || counter !== since.counter) since = { counter, heartbeatAt, seen: 0 };
      else if (heartbeatAt !== since.heartbeatAt) since = { counter, heartbeatAt, seen: since.seen + 1 };
      return since;
    },
    (state) => state.seen >= heartbeats,
    { timeoutMs, pollMs: 25 },
  );
  return last.counter;
}
