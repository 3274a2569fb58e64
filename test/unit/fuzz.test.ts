/**
 * The CI share of the fuzz targets (test/fuzz/*.fuzz.ts): each runs its `ciRuns` inputs from one
 * fixed seed, so a failure here replays identically; `npm run bench:fuzz` runs 100,000 each.
 * Each target must also keep its heap growth under its stated bound.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { fuzzFiles, loadTargets, runMeasured } from "../fuzz/load-targets";

/** One seed for every target: CI runs are reproducible; the bench takes `--seed`. */
const CI_SEED = 20_261_128;

for (const file of fuzzFiles()) {
  const targets = await loadTargets(file);
  describe(path.basename(file), () => {
    for (const target of targets) {
      it(`${target.name}: ${target.ciRuns} inputs, no crash, result as the reference, heap under ${target.memoryBoundMiB} MiB`, async () => {
        const report = await runMeasured(target, target.ciRuns, CI_SEED);
        expect(report.failure).toBeNull();
        expect(report.peakGrowthMiB).toBeLessThan(target.memoryBoundMiB);
      }, 60_000);
    }
  });
}
