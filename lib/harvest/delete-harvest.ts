import { NotFoundError } from "../errors";
import { audit, type AuditContext } from "../auth/audit-context";
import type { Db } from "../store/prisma-client";

/**
 * Deletes a harvest, its events and pending webhook deliveries. Its runs stay, as plain crawls
 * (their `harvestId` set null by the foreign key): a run in progress finishes, unscheduled.
 * Recorded in the audit log when `context` says who asked.
 * @throws NotFoundError
 */
export async function deleteHarvest(db: Db, id: number, context?: AuditContext): Promise<void> {
  const harvest = await db.harvest.findUnique({ where: { id }, select: { name: true } });
  const deleted = await db.harvest.deleteMany({ where: { id } });
  if (deleted.count === 0) throw new NotFoundError(`Harvest ${id}`);
  if (context) await audit(db, context, "harvest-deleted", `harvest ${id}`, { name: harvest?.name ?? null });
}
