/** Lifecycle of a crawl (PRODUCT.md "Status vocabulary"). */
export const CRAWL_STATUSES = ["queued", "running", "paused", "finished", "failed", "cancelled"] as const;
export type CrawlStatus = (typeof CRAWL_STATUSES)[number];

/** Why a crawl ended. */
export const STOP_REASONS = {
  "budget-requests": "budget spent (requests)",
  "budget-bytes": "budget spent (bytes)",
  "budget-time": "budget spent (time)",
  "site-exhausted": "site exhausted",
  "early-stop": "early stop",
  "user-stop": "stopped by user",
  cancelled: "cancelled",
  failed: "failed",
} as const;
export type StopReason = keyof typeof STOP_REASONS;

export function isActiveStatus(status: string): boolean {
  return status === "queued" || status === "running" || status === "paused";
}

/** The human label of a crawl's state, e.g. "Finished: budget spent (requests)" or "Failed: robots.txt unreachable". */
export function describeStatus(status: string, stopReason: string | null, stopDetail: string | null): string {
  switch (status) {
    case "queued":
      return "Queued";
    case "running":
      return "Running";
    case "paused":
      return "Paused";
    case "cancelled":
      return "Cancelled";
    case "failed":
      return stopDetail ? `Failed: ${stopDetail}` : "Failed";
    case "finished": {
      const reason = stopReason && stopReason in STOP_REASONS ? STOP_REASONS[stopReason as StopReason] : stopReason;
      return reason ? `Finished: ${reason}` : "Finished";
    }
    default:
      return status;
  }
}
