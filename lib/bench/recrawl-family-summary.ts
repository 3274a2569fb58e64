/**
 * The re-crawl family bench's tables: one line per seed, then distributions per kind of site
 * (marks its changes or not) and run (version 2 after the first crawl, version 3 after that):
 * median, p90 (the hard tenth) and worst of the recall of new files and of requests ÷ the first
 * crawl's, and the share of runs meeting the issue's aim.
 */
import type { NewItemPlacement } from "../sitesim/family";
import { quantile } from "./family-summary";
import { AIM_RECALL, AIM_REQUEST_SHARE, type RecrawlFamilySeedRow, type RecrawlRun } from "./recrawl-family-bench";

/** Median, p90 and worst, where worse is lower (recall) or higher (requests). */
export interface Spread {
  median: number;
  p90: number;
  worst: number;
}

/** Spread of `values`, `higherIsBetter` deciding which end is the worst. */
export function spreadOf(values: readonly number[], higherIsBetter: boolean): Spread | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => (higherIsBetter ? b - a : a - b));
  return { median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), worst: sorted.at(-1)! };
}

export interface RecrawlFamilySummaryRow {
  /** "marks changes", "no marker", where new items are listed ("new items first", …) or "all". */
  sites: string;
  run: "v2" | "v3";
  seeds: number;
  recall: Spread | null;
  shareOfFirst: Spread | null;
  /** Share of the seeds whose run met the aim. */
  aimMet: number;
  /**
   * v3 rows: share of the seeds whose run 3 needed no more requests than run 2 for the same recall,
   * among the `compared` seeds where both runs found a new file.
   */
  run3NoMoreThanRun2: number | null;
  compared: number;
}

const PLACEMENT_NAMES: Record<NewItemPlacement, string> = { first: "new items first", last: "new items appended", "new-section": "new items in a new section" };

/** Distributions per kind of site: marking its changes or not, where its new items are listed, and all. */
export function summarizeRecrawlFamily(rows: readonly RecrawlFamilySeedRow[]): RecrawlFamilySummaryRow[] {
  const groups: [string, RecrawlFamilySeedRow[]][] = [
    ["marks changes", rows.filter((row) => row.marksChanges)],
    ["no marker", rows.filter((row) => !row.marksChanges)],
    ...Object.entries(PLACEMENT_NAMES).map(([placement, name]) => [name, rows.filter((row) => row.placement === placement)] as [string, RecrawlFamilySeedRow[]]),
    ["all", [...rows]],
  ];
  return groups.filter(([, list]) => list.length > 0).flatMap(([sites, list]) =>
    (["v2", "v3"] as const).map((run) => {
      const runs: RecrawlRun[] = list.map((row) => row[run]);
      const compared = list.filter((row) => row.run3NoMoreThanRun2 !== null);
      return {
        sites,
        run,
        seeds: list.length,
        recall: spreadOf(runs.map((r) => r.recall), true),
        shareOfFirst: spreadOf(runs.map((r) => r.shareOfFirst), false),
        aimMet: runs.filter((r) => r.aimMet).length / list.length,
        run3NoMoreThanRun2: run === "v3" && compared.length > 0 ? compared.filter((row) => row.run3NoMoreThanRun2).length / compared.length : null,
        compared: run === "v3" ? compared.length : 0,
      };
    }),
  );
}

const percent = (share: number) => `${(100 * share).toFixed(1)} %`;
const spreadCells = (spread: Spread | null) => (spread === null ? "– | – | –" : `${percent(spread.median)} | ${percent(spread.p90)} | ${percent(spread.worst)}`);

/** One line per seed. */
export function formatRecrawlFamilySeeds(rows: readonly RecrawlFamilySeedRow[]): string {
  const lines = [
    "| seed | marks changes | new items | first crawl: requests, files | v2: new files found | v2: requests ÷ first | v3: new files found | v3: requests ÷ first | of them on old items (v2, v3) | run 3 ≤ run 2 at same recall | aim met (v2, v3) |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of rows) {
    const found = (run: RecrawlRun) => `${run.newFound} / ${run.newTotal} (${percent(run.recall)})`;
    const onOld = (run: RecrawlRun) => `${run.newOnOldItemsFound} / ${run.newOnOldItemsTotal}`;
    lines.push(
      `| ${row.seed} | ${row.marksChanges ? "yes" : "no"} | ${row.placement} | ${row.firstRequests}, ${row.firstFound} / ${row.firstTargets} | ${found(row.v2)} | ${percent(row.v2.shareOfFirst)} | ${found(row.v3)} | ${percent(row.v3.shareOfFirst)} | ${onOld(row.v2)}, ${onOld(row.v3)} | ${row.run3NoMoreThanRun2 === null ? "– (a run found no new file)" : `${row.run3NoMoreThanRun2 ? "yes" : "no"} (${percent(row.run2ToSameRecall)} → ${percent(row.run3ToSameRecall)})`} | ${row.v2.aimMet ? "yes" : "no"}, ${row.v3.aimMet ? "yes" : "no"} |`,
    );
  }
  return lines.join("\n");
}

/** The distributions, per kind of site and run. */
export function formatRecrawlFamilySummary(summary: readonly RecrawlFamilySummaryRow[]): string {
  const aim = `≥ ${AIM_RECALL * 100} % of new files within ${AIM_REQUEST_SHARE * 100} % of the first crawl's requests`;
  const lines = [
    `| sites | run | seeds | new files found: median | p90 | worst | requests ÷ first: median | p90 | worst | ${aim} | run 3 ≤ run 2 |`,
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const row of summary) {
    lines.push(
      `| ${row.sites} | ${row.run} | ${row.seeds} | ${spreadCells(row.recall)} | ${spreadCells(row.shareOfFirst)} | ${percent(row.aimMet)} | ${row.run3NoMoreThanRun2 === null ? "–" : `${percent(row.run3NoMoreThanRun2)} of ${row.compared}`} |`,
    );
  }
  return lines.join("\n");
}
