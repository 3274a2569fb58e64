import { NotFoundError } from "../../api/errors";
import type { Db } from "../prisma-client";

/**
 * Deletes a harvest, its events and pending webhook deliveries. Its runs stay, as plain crawls
 * (their `harvestId` set null by the foreign key): a run in progress finishes, unscheduled.
 * @throws NotFoundError
 */
export async function deleteHarvest(db: Db, id: number): Promise<void> {
  const deleted = await db.harvest.deleteMany({ where: { id } });
  if (deleted.count === 0) throw new NotFoundError(`Harvest ${id}`);
}
