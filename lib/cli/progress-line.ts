import type { CrawlCounters } from "../crawler/engine/types";
import { formatDuration, formatHarvestRate } from "../format";

/** Redraws at most this often: a terminal is not a log. */
const REDRAW_EVERY_MS = 250;

/**
 * One self-rewriting status line on a terminal (stderr), or a line every 10 s when stderr is
 * not a terminal (CI logs): requests against the budget, targets, rate and ETA.
 */
export class ProgressLine {
  private lastDrawAt = 0;
  private readonly startedAt = Date.now();
  private readonly tty = Boolean(process.stderr.isTTY);
  private drawn = false;

  constructor(private readonly budgetRequests: number) {}

  update(counters: CrawlCounters): void {
    const now = Date.now();
    if (now - this.lastDrawAt < (this.tty ? REDRAW_EVERY_MS : 10_000)) return;
    this.lastDrawAt = now;
    const elapsedMs = now - this.startedAt;
    const rate = counters.requests / Math.max(elapsedMs / 1000, 0.001);
    const etaMs = rate > 0 ? ((this.budgetRequests - counters.requests) / rate) * 1000 : Number.NaN;
    const line =
      `requests ${counters.requests}/${this.budgetRequests} · targets ${counters.targets} ` +
      `(${formatHarvestRate(counters.targets, counters.requests)}) · ${rate.toFixed(1)} req/s · ` +
      `frontier ${counters.frontierSize} · elapsed ${formatDuration(elapsedMs)} · ETA ≤ ${formatDuration(etaMs)}`;
    if (this.tty) {
      process.stderr.write(`\r\x1b[2K${line}`);
      this.drawn = true;
    } else {
      process.stderr.write(`${line}\n`);
    }
  }

  done(): void {
    if (this.drawn) process.stderr.write("\n");
  }
}
