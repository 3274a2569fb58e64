import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * A point in a long synchronous-looking loop where the event loop gets a turn once `afterMs` of
 * work has passed since the last turn: timers (heartbeats, politeness clocks, control polls) and
 * I/O of other crawls then run. Cheap when called often: a clock read, no await, until it is due.
 */
export function createYieldPoint(afterMs: number): () => Promise<void> | undefined {
  let last = performance.now();
  return () => {
    if (performance.now() - last < afterMs) return undefined;
    return nextTurn().then(() => {
      last = performance.now();
    });
  };
}
