import type { CrawlConfig } from "../crawl-config";
import { SETTING_ROWS } from "../settings-table";

type Params = CrawlConfig["params"];

/**
 * The settings that turn every Forage addition off, leaving the paper's SB-CLASSIFIER exactly as
 * docs/ALGORITHM.md states it: a uniformly random link of the chosen action, the raw AUER bonus
 * α·sqrt(ln t / n) with t the counted requests, HNSW grouping at θ, the URL classifier with its
 * HEAD bootstrap and immediate downloads of new targets: the rows of settings-table.ts marked
 * `pinnedBySbPaper`, each with its `paperValue`. Each key names one addition (or the paper's choice
 * of method); the engine or the SB strategy checks it, so `sb` can also switch any single one off
 * (bench `--params`).
 *
 * What stays on for `sb-paper` because it is not a choice of the algorithm but the engine every
 * strategy shares (BFS included): link extraction details (`<base>`, `<meta>` refresh), redirects
 * followed hop by hop, a failed pull counted as a selection with reward 0 (ALGORITHM.md step 5),
 * politeness, robots.txt, size caps, and the fallback to GET typing on a server that refuses HEAD
 * (without it such a site ends on its first page).
 */
export const SB_PAPER_PARAMS: Readonly<Partial<Params>> = Object.freeze(
  Object.fromEntries(SETTING_ROWS.filter((row) => row.pinnedBySbPaper).map((row) => [row.key, row.paperValue])) as Partial<Params>,
);

/**
 * The settings the engine runs a crawl with: for `sb-paper`, the crawl's own with
 * {@link SB_PAPER_PARAMS} on top (whatever the stored settings say: `sb-paper` means the paper);
 * any other strategy runs its settings unchanged.
 */
export function effectiveConfig(config: CrawlConfig): CrawlConfig {
  if (config.strategy !== "sb-paper") return config;
  return { ...config, params: { ...config.params, ...SB_PAPER_PARAMS } };
}
