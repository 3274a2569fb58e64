/**
 * Distributions of the family bench per strategy: a crawler is judged on the whole family, so
 * the table gives the median (the typical site), p90 (the hard tenth) and the worst seed, of
 * requests to 90 % ÷ the BFS reference and ÷ the floor. A crawl that did not reach 90 % of the
 * targets within its budget counts as worse than any ratio ("miss").
 */
import type { FamilySeedRow } from "./family-bench";

export interface Distribution {
  median: number;
  p90: number;
  worst: number;
}

export interface FamilySummaryRow {
  strategy: string;
  seeds: number;
  /** Seeds where the crawl reached 90 % of the targets within its budget. */
  reached: number;
  toBfs: Distribution | null;
  toFloor: Distribution | null;
  /** Median of process CPU ms per request over the seeds (null for the reference rows). */
  cpuMsPerRequest: number | null;
}

/** Nearest-rank quantile (q in (0, 1]) of ascending `sorted`: the value at rank ceil(q × n). */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new RangeError("quantile of an empty list");
  return sorted[Math.max(1, Math.ceil(q * sorted.length - 1e-9)) - 1]!;
}

/** Median / p90 / worst of the values, a missing value (null) counting as +∞; null for no values. */
export function distributionOf(values: readonly (number | null)[]): Distribution | null {
  if (values.length === 0) return null;
  const sorted = values.map((value) => value ?? Number.POSITIVE_INFINITY).sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), worst: sorted.at(-1)! };
}

/** One summary row per strategy, in the order the rows name them. */
export function summarizeFamily(rows: readonly FamilySeedRow[]): FamilySummaryRow[] {
  const byStrategy = new Map<string, FamilySeedRow[]>();
  for (const row of rows) {
    const list = byStrategy.get(row.strategy) ?? [];
    list.push(row);
    byStrategy.set(row.strategy, list);
  }
  return [...byStrategy].map(([strategy, list]) => {
    const cpu = list.map((row) => row.cpuMsPerRequest).filter((value): value is number => value !== null).sort((a, b) => a - b);
    return {
      strategy,
      seeds: list.length,
      reached: list.filter((row) => row.to90 !== null).length,
      toBfs: distributionOf(list.map((row) => row.ratioToBfs90)),
      toFloor: distributionOf(list.map((row) => row.ratioToFloor90)),
      cpuMsPerRequest: cpu.length ? quantile(cpu, 0.5) : null,
    };
  });
}

const ratio = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "miss");
const cells = (d: Distribution | null) => (d === null ? "– | – | –" : `${ratio(d.median)} | ${ratio(d.p90)} | ${ratio(d.worst)}`);

/** The summary as a Markdown table. */
export function formatFamilySummary(rows: readonly FamilySummaryRow[]): string {
  const lines = [
    "| strategy | seeds | reached 90 % | ÷ BFS median | ÷ BFS p90 | ÷ BFS worst | ÷ floor median | ÷ floor p90 | ÷ floor worst | CPU ms/req (median) |",
    "|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    const cpu = row.cpuMsPerRequest === null ? "–" : row.cpuMsPerRequest.toFixed(2);
    lines.push(`| ${row.strategy} | ${row.seeds} | ${row.reached} | ${cells(row.toBfs)} | ${cells(row.toFloor)} | ${cpu} |`);
  }
  return lines.join("\n");
}

/**
 * Median requests to 90 % ÷ the BFS reference per strategy (rows) and density regime (columns),
 * with the seed count of each regime: where in the family a strategy wins or loses.
 */
export function formatFamilyByRegime(rows: readonly FamilySeedRow[]): string {
  const regimes = ["dense", "medium", "sparse", "needle"].filter((regime) => rows.some((row) => row.regime === regime));
  const seedsOf = (regime: string) => new Set(rows.filter((row) => row.regime === regime).map((row) => row.seed)).size;
  const lines = [
    `| strategy | ${regimes.map((regime) => `${regime} (${seedsOf(regime)})`).join(" | ")} |`,
    `|---|${regimes.map(() => "---|").join("")}`,
  ];
  for (const strategy of [...new Set(rows.map((row) => row.strategy))]) {
    const medians = regimes.map((regime) => distributionOf(rows.filter((row) => row.strategy === strategy && row.regime === regime).map((row) => row.ratioToBfs90)));
    lines.push(`| ${strategy} | ${medians.map((d) => (d === null ? "–" : ratio(d.median))).join(" | ")} |`);
  }
  return lines.join("\n");
}

const CSV_COLUMNS: readonly (keyof FamilySeedRow)[] = [
  "seed", "split", "size", "regime", "strategy", "targets", "found", "requests", "to90", "bfsTo90", "floorTo90", "ratioToBfs90", "ratioToFloor90", "cpuMsPerRequest", "stopReason",
];

/** The per-seed rows as CSV (header line first; empty cell for a missing value). */
export function familyRowsCsv(rows: readonly FamilySeedRow[]): string {
  const lines = [CSV_COLUMNS.join(",")];
  for (const row of rows) lines.push(CSV_COLUMNS.map((column) => (row[column] === null ? "" : String(row[column]))).join(","));
  return lines.join("\n") + "\n";
}
