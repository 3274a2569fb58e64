/** Builds `FuzzTarget`s from fast-check properties, with the heap sampled after every input (heap-meter.ts). */
import fc from "fast-check";
import type { FuzzTarget } from "./fuzz-target";
import { afterInput } from "./heap-meter";

type AnyProperty = fc.IPropertyWithHooks<any> | fc.IAsyncPropertyWithHooks<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface TargetSpec {
  name: string;
  ciRuns: number;
  memoryBoundMiB: number;
  /** A fresh property per run (a property keeps no state between runs, but its hooks are set here). */
  property: () => AnyProperty;
}

export function fuzzTarget(spec: TargetSpec): FuzzTarget {
  return {
    name: spec.name,
    ciRuns: spec.ciRuns,
    memoryBoundMiB: spec.memoryBoundMiB,
    async run(runs, seed) {
      const property = spec.property();
      if (property.isAsync()) {
        let inputs = 0;
        await fc.assert(
          (property as fc.IAsyncPropertyWithHooks<unknown>).afterEach(async (previous) => {
            await previous();
            afterInput();
            // A turn of the event loop now and then: undici's Request and Response register
            // finalizers that run only there, and 100,000 inputs without one held 230–360 MiB
            // that was the harness's, not the parser's.
            if (++inputs % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
          }),
          { numRuns: runs, seed },
        );
      } else {
        fc.assert(
          (property as fc.IPropertyWithHooks<unknown>).afterEach((previous) => {
            previous();
            afterInput();
          }),
          { numRuns: runs, seed },
        );
      }
    },
  };
}

/**
 * Runs `parse`; a throw passes only when `allowed` says it is the parser's documented error
 * (its class and a message), anything else is rethrown with the input's failure: a crash.
 */
export function expectTypedError(error: unknown, allowed: (error: Error) => boolean): void {
  if (error instanceof Error && error.message !== "" && allowed(error)) return;
  throw new Error(`undocumented exception: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, { cause: error });
}
