import type { Db } from "../store/prisma-client";

/**
 * Kinds of harvest events: a run started by hand or by the schedule, one catch-up run for
 * times missed while no worker ran, a due time skipped because a run was still going, and
 * each webhook attempt.
 */
export type HarvestEventKind =
  | "created"
  | "updated"
  | "run-started"
  | "scheduled-run"
  | "catch-up"
  | "skipped"
  | "webhook-delivered"
  | "webhook-failed"
  | "webhook-gave-up";

/** Appends one line to the harvest's log. */
export async function addHarvestEvent(db: Db, harvestId: number, kind: HarvestEventKind, message: string, details?: unknown): Promise<void> {
  await db.harvestEvent.create({ data: { harvestId, kind, message, details: details === undefined ? null : JSON.stringify(details) } });
}
