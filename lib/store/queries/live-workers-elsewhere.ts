import type { Db } from "../prisma-client";

/**
 * Workers of this database alive on another machine: a "running" row whose heartbeat is
 * younger than a lease and whose hostname is not `hostname`.
 */
export async function liveWorkersElsewhere(
  db: Db,
  { hostname, leaseMs, now = new Date() }: { hostname: string; leaseMs: number; now?: Date },
): Promise<Array<{ id: string; hostname: string; storage: string }>> {
  return db.worker.findMany({
    where: { state: "running", hostname: { not: hostname }, heartbeatAt: { gt: new Date(now.getTime() - leaseMs) } },
    select: { id: true, hostname: true, storage: true },
    orderBy: { id: "asc" },
  });
}
