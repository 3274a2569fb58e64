/**
 * Heap growth of a fuzz target while it runs (JS heap and external memory: Buffers count). The peak is sampled after every generated input
 * (targets built with `fuzzTarget` do it through fast-check's `afterEach` hook, calling
 * `afterInput`; other targets may call `sampleHeap` themselves) and on a 5 ms timer, which fires
 * between the awaits of async properties. It includes garbage not yet collected, measured from a
 * heap just collected before the run; a full collection every {@link COLLECT_EVERY_INPUTS}
 * inputs keeps V8's lazy old-space collection from counting the garbage of 100,000 inputs (a
 * first bench showed 235 MiB of it against 1 MiB retained), so the peak is what the live state
 * plus the garbage of at most that many inputs weigh.
 */
import v8 from "node:v8";
import vm from "node:vm";

const MIB = 1024 * 1024;
let peakBytes = 0;

/** `global.gc` when node runs with --expose-gc, else the same function reached through V8's flags. */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc ?? exposedGc();
  gc();
}

let exposed: (() => void) | undefined;
function exposedGc(): () => void {
  if (!exposed) {
    v8.setFlagsFromString("--expose-gc");
    exposed = vm.runInNewContext("gc") as () => void;
  }
  return exposed;
}

/**
 * JS heap plus external memory (Buffers, ArrayBuffers: a decoded body or a gzip bomb lives there,
 * not in the JS heap).
 */
function heapBytes(): number {
  const stats = v8.getHeapStatistics();
  return stats.used_heap_size + stats.external_memory;
}

/** Records the current heap size if it is the largest seen since the run started. */
export function sampleHeap(): void {
  const used = heapBytes();
  if (used > peakBytes) peakBytes = used;
}

/** Inputs between two full collections while a target runs. */
export const COLLECT_EVERY_INPUTS = 2000;
let inputs = 0;

/** Samples the heap after one input, and collects fully every {@link COLLECT_EVERY_INPUTS}. */
export function afterInput(): void {
  sampleHeap();
  if (++inputs % COLLECT_EVERY_INPUTS === 0) collectGarbage();
}

export interface HeapMeasure {
  /** Largest heap seen minus the heap at the start, MiB. */
  peakGrowthMiB: number;
  /** Heap after a full collection at the end minus the start, MiB: what the target leaked or cached. */
  retainedMiB: number;
  seconds: number;
}

/** Runs `work` from a collected heap and reports its peak and retained growth and its duration. */
export async function measureHeap(work: () => Promise<void>): Promise<HeapMeasure> {
  collectGarbage();
  const baseline = heapBytes();
  peakBytes = baseline;
  inputs = 0;
  const timer = setInterval(sampleHeap, 5);
  const started = performance.now();
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  const seconds = (performance.now() - started) / 1000;
  sampleHeap();
  const peak = peakBytes;
  collectGarbage();
  const retained = heapBytes() - baseline;
  return { peakGrowthMiB: (peak - baseline) / MIB, retainedMiB: retained / MIB, seconds };
}
