import type { CrawlDetail, MetricPoint } from "@/components/hooks/api-types";

/** Points of the recent past used for the current rate: enough to smooth a slow page, recent enough to follow a delay change. */
const RECENT_POINTS = 20;

/** Requests per millisecond of running time over the last points of the curve, or over the whole crawl. */
export function currentRequestRate(detail: Pick<CrawlDetail, "requests" | "activeMs">, points: MetricPoint[]): number | null {
  const last = points.at(-1);
  const earlier = points.at(-Math.min(points.length, RECENT_POINTS + 1));
  if (last && earlier && last.activeMs > earlier.activeMs && last.requests > earlier.requests) {
    return (last.requests - earlier.requests) / (last.activeMs - earlier.activeMs);
  }
  return detail.activeMs > 0 && detail.requests > 0 ? detail.requests / detail.activeMs : null;
}

/**
 * Time left before the request budget (or the time limit, if it comes first) is spent, at the
 * current rate. Null when the crawl is not running or has no rate yet. Early stopping or an
 * exhausted site may end it sooner: this is an upper bound, shown as such.
 */
export function estimateRemainingMs(detail: CrawlDetail, points: MetricPoint[]): number | null {
  if (detail.status !== "running" && detail.status !== "paused") return null;
  const rate = currentRequestRate(detail, points);
  if (!rate) return null;
  let remaining = Math.max(0, detail.config.budget.requests - detail.requests) / rate;
  const seconds = detail.config.budget.seconds;
  if (seconds !== null) remaining = Math.min(remaining, Math.max(0, seconds * 1000 - detail.activeMs));
  return remaining;
}
