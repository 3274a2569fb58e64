import type { CrawlConfig } from "../../crawl-config";
import type { StopReason } from "../../crawl-status";
import type { CrawlCounters } from "./types";

/**
 * The crawl's budget: requests (GET + HEAD), optionally bytes received and running time.
 * Checked before every counted request, so a crawl never overspends by more than the
 * attempts of one retry series (each retry is asked `canRequest` too).
 */
export class Budget {
  constructor(
    private readonly budget: CrawlConfig["budget"],
    private readonly counters: CrawlCounters,
    private readonly activeMs: () => number,
  ) {}

  /** Why no further request may be made, or null while budget remains. */
  exhaustedReason(): StopReason | null {
    if (this.counters.requests >= this.budget.requests) return "budget-requests";
    if (this.budget.bytes !== null && this.counters.targetBytes + this.counters.nonTargetBytes >= this.budget.bytes) {
      return "budget-bytes";
    }
    if (this.budget.seconds !== null && this.activeMs() >= this.budget.seconds * 1000) return "budget-time";
    return null;
  }

  canRequest(): boolean {
    return this.exhaustedReason() === null;
  }
}
