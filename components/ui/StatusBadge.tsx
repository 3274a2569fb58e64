import { describeStatus } from "@/lib/crawl-status";

/** The crawl's status as a coloured pill with the human reason ("Finished: early stop"). */
export function StatusBadge({ status, stopReason, stopDetail }: { status: string; stopReason: string | null; stopDetail: string | null }) {
  return (
    <span className={`status status-${status}`} data-testid="crawl-status">
      {status === "running" ? <span className="pulse" aria-hidden="true" /> : null}
      {describeStatus(status, stopReason, stopDetail)}
    </span>
  );
}
