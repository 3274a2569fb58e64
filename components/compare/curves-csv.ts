import { csvLine } from "@/lib/export/csv";
import type { CrawlComparison } from "@/components/hooks/use-compare-queries";

/** The compared curves as one long CSV table: a row per crawl and point (tidy data for R, pandas, spreadsheets). */
export function curvesCsv(comparison: CrawlComparison): string {
  let text = csvLine(["crawl_id", "strategy", "seed", "replay_of", "requests", "targets", "target_bytes", "non_target_bytes"]);
  for (const crawl of comparison.crawls) {
    for (const point of crawl.points) {
      text += csvLine([crawl.id, crawl.strategy, crawl.seed, crawl.replayOfCrawlId, point.requests, point.targets, point.targetBytes, point.nonTargetBytes]);
    }
  }
  return text;
}
