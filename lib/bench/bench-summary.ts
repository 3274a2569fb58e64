import { SITE_REFERENCE_BFS, type BenchRow } from "./run-bench";

/** One `forage bench` table per seed. */
export interface SeededBenchRows {
  seed: number;
  rows: BenchRow[];
}

/** A strategy on a shape over several seeds: requests to 90 % ÷ each BFS, per seed and mean. */
export interface BenchSummaryRow {
  shape: string;
  strategy: string;
  /** Per seed, in the order of the runs; null when the crawl did not reach 90 %. */
  ratioToBfs90: (number | null)[];
  ratioToPaperBfs90: (number | null)[];
}

/**
 * Summarises several seeds' benchmark tables: the ratios move with the seed (another site of the
 * same shape), so the issue's targets are judged on the means. The site reference row is left
 * out (its ratio to itself is 1).
 */
export function summarizeBenchRuns(runs: SeededBenchRows[]): BenchSummaryRow[] {
  const summary = new Map<string, BenchSummaryRow>();
  for (const [runIndex, run] of runs.entries()) {
    for (const row of run.rows) {
      if (row.strategy === SITE_REFERENCE_BFS) continue;
      const key = `${row.shape}\u0000${row.strategy}`;
      let entry = summary.get(key);
      if (!entry) {
        entry = { shape: row.shape, strategy: row.strategy, ratioToBfs90: Array(runs.length).fill(null), ratioToPaperBfs90: Array(runs.length).fill(null) };
        summary.set(key, entry);
      }
      entry.ratioToBfs90[runIndex] = row.ratioToBfs90;
      entry.ratioToPaperBfs90[runIndex] = row.ratioToPaperBfs90;
    }
  }
  return [...summary.values()];
}

/** Mean of the values, or null when one is missing (a crawl short of 90 % has no ratio). */
export function meanOrNull(values: (number | null)[]): number | null {
  if (values.length === 0 || values.some((value) => value === null)) return null;
  return (values as number[]).reduce((sum, value) => sum + value, 0) / values.length;
}

/** The summary as a Markdown table: per-seed ratios and their mean, against both BFS baselines. */
export function formatBenchSummary(seeds: number[], rows: BenchSummaryRow[]): string {
  const fmt = (value: number | null) => (value === null ? "–" : value.toFixed(2));
  const perSeed = (values: (number | null)[]) => values.map(fmt).join(" / ");
  const lines = [
    `| shape | strategy | ÷ BFS (seeds ${seeds.join(" / ")}) | mean | ÷ paper's BFS (seeds ${seeds.join(" / ")}) | mean |`,
    "|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.shape} | ${row.strategy} | ${perSeed(row.ratioToBfs90)} | ${fmt(meanOrNull(row.ratioToBfs90))} | ` +
        `${perSeed(row.ratioToPaperBfs90)} | ${fmt(meanOrNull(row.ratioToPaperBfs90))} |`,
    );
  }
  return lines.join("\n");
}
