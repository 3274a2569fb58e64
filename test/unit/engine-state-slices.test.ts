import { describe, expect, it } from "vitest";
import { decodeState, decodeStateAsync, encodeState, encodeStateInSlices } from "../../lib/crawler/engine/engine-state";
import { largeState } from "../helpers/large-engine-state";

/** CPU time of this process (all its threads), in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/**
 * The longest the event loop went without a turn while `work` ran, counting only the process's
 * CPU time in each stretch: on a shared machine a stretch can also be time the process was not
 * scheduled at all, which is not the work's doing. Also the number of turns.
 */
async function longestStretch(work: () => Promise<unknown>): Promise<{ busyMs: number; turns: number }> {
  let running = true;
  let turns = 0;
  let busyMs = 0;
  let lastAt = performance.now();
  let lastCpu = cpuMs();
  const tick = () => {
    const now = performance.now();
    const cpu = cpuMs();
    busyMs = Math.max(busyMs, Math.min(now - lastAt, cpu - lastCpu));
    turns += 1;
    lastAt = now;
    lastCpu = cpu;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  await work();
  running = false;
  return { busyMs, turns };
}

describe("engine state encoded in slices", () => {
  const state = largeState(120_000);

  it("gives the same bytes as encodeState, and both decoders read them", async () => {
    const sync = encodeState(state);
    const { data, workMs } = await encodeStateInSlices(state);
    expect(data.equals(sync)).toBe(true);
    expect(workMs).toBeGreaterThan(0);
    // Compared as text: a deep comparison of a document this large takes many seconds.
    const text = JSON.stringify(state);
    expect(JSON.stringify(decodeState(data)) === text).toBe(true);
    expect(JSON.stringify(await decodeStateAsync(data)) === text).toBe(true);
  });

  it("holds the event loop for a small fraction of what encoding it in one go does", async () => {
    // Warm both paths up: the first call of each pays for compiling them.
    encodeState(largeState(2_000));
    await encodeStateInSlices(largeState(2_000));
    const before = cpuMs();
    encodeState(state);
    const wholeMs = cpuMs() - before;
    // The least of three runs: a block the encoder makes is in every run, one the shared machine
    // makes (a stretch the process was not scheduled while zlib's thread ran) seldom in all three.
    const runs = [];
    for (let run = 0; run < 3; run++) runs.push(await longestStretch(() => encodeStateInSlices(state)));
    // Slices of about ten milliseconds each, against the whole encoding in one block.
    expect(Math.min(...runs.map((r) => r.turns))).toBeGreaterThan(5);
    expect(Math.min(...runs.map((r) => r.busyMs))).toBeLessThan(wholeMs / 3);
  });

  it("an unreadable state is refused by the asynchronous decoder as by the synchronous one", async () => {
    const damaged = Buffer.from("not gzip at all");
    expect(() => decodeState(damaged)).toThrow();
    await expect(decodeStateAsync(damaged)).rejects.toThrow(/incorrect header check/);
  });
});
