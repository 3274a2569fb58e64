/** The archive import fuzz targets for their CI share, seed 42 (test/unit/fuzz.test.ts runs every target the same way). */
import { describe, expect, it } from "vitest";
import { fuzzTargets } from "../fuzz/archive-import.fuzz";

describe("archive import fuzz targets", () => {
  for (const target of fuzzTargets) {
    it(`${target.name}: ${target.ciRuns} inputs, clean refusals only, bounded memory`, async () => {
      globalThis.gc?.();
      const before = process.memoryUsage().heapUsed;
      await target.run(target.ciRuns, 42);
      globalThis.gc?.();
      expect((process.memoryUsage().heapUsed - before) / 2 ** 20).toBeLessThan(target.memoryBoundMiB);
    }, 60_000);
  }
});
