/**
 * One reader of outside input under property-based test (fast-check). Each `test/fuzz/*.fuzz.ts`
 * file exports `fuzzTargets`; `test/unit/fuzz.test.ts` runs every target for its `ciRuns` with a
 * fixed seed (the CI share), and `npm run bench:fuzz` runs each for 100,000 inputs and prints a
 * table (inputs, failures, time, peak memory).
 */
export interface FuzzTarget {
  /** What is fuzzed, e.g. "robots.txt rules". */
  name: string;
  /** Inputs in the default test suite; the whole suite's share must stay under a minute. */
  ciRuns: number;
  /** Heap growth this target must stay under while it runs, in MiB. */
  memoryBoundMiB: number;
  /** Runs `runs` generated inputs from `seed`; rejects (fast-check's report) on the first counterexample. */
  run(runs: number, seed: number): Promise<void>;
}
