/** Every `test/fuzz/*.fuzz.ts` file's targets, and one target's run measured (time, heap, failure). */
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { FuzzTarget } from "./fuzz-target";
import { measureHeap, type HeapMeasure } from "./heap-meter";

export const FUZZ_DIR = import.meta.dirname;

/** The fuzz files, sorted, as absolute paths. */
export function fuzzFiles(): string[] {
  return fs
    .readdirSync(FUZZ_DIR)
    .filter((name) => name.endsWith(".fuzz.ts"))
    .sort()
    .map((name) => path.join(FUZZ_DIR, name));
}

export async function loadTargets(file: string): Promise<FuzzTarget[]> {
  const module = (await import(pathToFileURL(file).href)) as { fuzzTargets?: FuzzTarget[] };
  if (!Array.isArray(module.fuzzTargets)) throw new Error(`${file} exports no fuzzTargets array`);
  return module.fuzzTargets;
}

export interface TargetReport extends HeapMeasure {
  name: string;
  inputs: number;
  memoryBoundMiB: number;
  /** fast-check's report (seed, path, counterexample), or null when every input passed. */
  failure: string | null;
}

export async function runMeasured(target: FuzzTarget, runs: number, seed: number): Promise<TargetReport> {
  let failure: string | null = null;
  const measure = await measureHeap(async () => {
    try {
      await target.run(runs, seed);
    } catch (error) {
      // fast-check 4 keeps the predicate's own error as the cause of its report.
      const cause = error instanceof Error && error.cause instanceof Error ? `\nGot ${error.cause.name}: ${error.cause.message}` : "";
      failure = (error instanceof Error ? error.message : String(error)) + cause;
    }
  });
  return { name: target.name, inputs: runs, memoryBoundMiB: target.memoryBoundMiB, failure, ...measure };
}
