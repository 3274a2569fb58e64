import type { CrawlConfig } from "../crawl-config";
import type { StopReason } from "../../crawl-status";
import type { CrawlCounters } from "./types";

/**
 * The crawl's budget: requests (GET + HEAD), optionally bytes received and running time, and the
 * disk quota (target bytes stored, `params.diskQuotaBytes`). Checked before every counted
 * request, so a crawl never overspends by more than the attempts of one retry series (each retry
 * is asked `canRequest` too); a download is cut where it would cross the quota
 * (`remainingDiskBytes`), so the files stored never exceed it.
 */
export class Budget {
  private storedBytes: number;
  /** A download was cut at the quota: what is left is less than the file the site offered. */
  private quotaCut = false;

  constructor(
    private readonly budget: CrawlConfig["budget"],
    private readonly counters: CrawlCounters,
    private readonly activeMs: () => number,
    private readonly diskQuotaBytes: number = Number.POSITIVE_INFINITY,
    /** Target bytes stored before (a resumed crawl's checkpoint). */
    storedTargetBytes = 0,
  ) {
    this.storedBytes = storedTargetBytes;
  }

  /** Why no further request may be made, or null while budget remains. */
  exhaustedReason(): StopReason | null {
    if (this.counters.requests >= this.budget.requests) return "budget-requests";
    if (this.budget.bytes !== null && this.counters.targetBytes + this.counters.nonTargetBytes >= this.budget.bytes) {
      return "budget-bytes";
    }
    if (this.diskQuotaReached()) return "budget-bytes";
    if (this.budget.seconds !== null && this.activeMs() >= this.budget.seconds * 1000) return "budget-time";
    return null;
  }

  canRequest(): boolean {
    return this.exhaustedReason() === null;
  }

  /** Counts a target file kept on disk. */
  noteStored(bytes: number): void {
    this.storedBytes += bytes;
  }

  /** Target bytes stored so far (checkpointed). */
  get storedTargetBytes(): number {
    return this.storedBytes;
  }

  /** Decoded bytes the next target may still take. */
  remainingDiskBytes(): number {
    return Math.max(0, this.diskQuotaBytes - this.storedBytes);
  }

  /** A download was cut because it would have crossed the quota: the quota counts as reached. */
  noteQuotaCut(): void {
    this.quotaCut = true;
  }

  diskQuotaReached(): boolean {
    return this.quotaCut || this.storedBytes >= this.diskQuotaBytes;
  }

  /** The disk quota in words, for the stop detail and the event. */
  describeDiskQuota(): string {
    return `disk quota reached: ${this.storedBytes} bytes of target files stored, quota ${this.diskQuotaBytes} (diskQuotaBytes)`;
  }
}
