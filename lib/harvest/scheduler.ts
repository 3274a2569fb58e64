import { InvalidStateError } from "../errors";
import { addHarvestEvent } from "./add-harvest-event";
import { startHarvestRun } from "./start-harvest-run";
import type { Db } from "../store/prisma-client";
import { dueTimesSince, nextRunAfter } from "./schedule";

/**
 * A due time handled this late was missed while no scheduler ran (workers tick every 15 s):
 * its run is a catch-up, and the event says how many times were missed.
 */
export const CATCH_UP_AFTER_MS = 2 * 60_000;

/** What one due harvest came to. */
export type ScheduledOutcome =
  | { harvestId: number; kind: "started"; crawlId: number; catchUp: boolean; missed: number }
  | { harvestId: number; kind: "skipped"; reason: string }
  | { harvestId: number; kind: "failed"; reason: string };

/**
 * Starts the runs of harvests whose `nextRunAt` has come, as of `now` (injected: tests move the
 * clock, nothing sleeps). Each due time is claimed by one conditional update of `nextRunAt`
 * (where it still holds the value read): of several workers ticking at once exactly one moves
 * it on and starts the run, the others see no row updated and leave it. Several times missed
 * while the service was down give one run (a catch-up); the next time is counted from `now`.
 * A due time while a run is still queued, running or paused is skipped with an event; the
 * partial unique index on active runs backs this when two paths start a run at once.
 */
export async function runDueHarvests(db: Db, now: Date): Promise<ScheduledOutcome[]> {
  const due = await db.harvest.findMany({
    where: { paused: false, cron: { not: null }, nextRunAt: { lte: now } },
    select: { id: true, cron: true, timeZone: true, nextRunAt: true },
    orderBy: { nextRunAt: "asc" },
    take: 50,
  });
  const outcomes: ScheduledOutcome[] = [];
  for (const harvest of due) {
    const dueAt = harvest.nextRunAt!;
    const schedule = { cron: harvest.cron!, timeZone: harvest.timeZone };
    const claimed = await db.harvest.updateMany({
      where: { id: harvest.id, nextRunAt: dueAt, paused: false },
      data: { nextRunAt: nextRunAfter(schedule, now), lastScheduledAt: now },
    });
    if (claimed.count !== 1) continue; // another worker took this due time
    const missed = dueTimesSince(schedule, dueAt, now);
    const catchUp = now.getTime() - dueAt.getTime() > CATCH_UP_AFTER_MS;
    const details = { dueAt: dueAt.toISOString(), at: now.toISOString(), missed };
    try {
      const run = await startHarvestRun(db, harvest.id);
      const after = run.after === null ? "" : ` after crawl ${run.after}`;
      if (catchUp) {
        const times = missed === 1 ? `the run due at ${dueAt.toISOString()} was` : `${missed} scheduled runs since ${dueAt.toISOString()} were`;
        await addHarvestEvent(db, harvest.id, "catch-up", `Catch-up run: crawl ${run.crawlId}${after} (${times} missed while no worker ran)`, { ...details, ...run });
      } else {
        await addHarvestEvent(db, harvest.id, "scheduled-run", `Scheduled run started: crawl ${run.crawlId}${after}`, { ...details, ...run });
      }
      outcomes.push({ harvestId: harvest.id, kind: "started", crawlId: run.crawlId, catchUp, missed });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (error instanceof InvalidStateError) {
        await addHarvestEvent(db, harvest.id, "skipped", `Run due at ${dueAt.toISOString()} skipped: ${reason}`, details);
        outcomes.push({ harvestId: harvest.id, kind: "skipped", reason });
      } else {
        await addHarvestEvent(db, harvest.id, "skipped", `Run due at ${dueAt.toISOString()} could not start: ${reason}`, details);
        outcomes.push({ harvestId: harvest.id, kind: "failed", reason });
      }
    }
  }
  return outcomes;
}
