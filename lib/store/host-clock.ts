import type { DatabaseProvider } from "../config";
import { HostPoliteness, type HostPoliteness as HostClock } from "../crawler/fetch/host-politeness";
import { dialectOf } from "./dialect";
import { PostgresHostClock } from "./host-clock-postgres";
import type { Db } from "./prisma-client";

/**
 * The politeness clock a process that crawls (a worker, a foreground `forage crawl`) uses: the
 * database's on PostgreSQL, so every process sharing it honours one delay per host; its own
 * memory on SQLite (one machine). `holderId` names this process in the `HostClock` rows.
 */
export function createHostClock(db: Db, config: { databaseProvider: DatabaseProvider }, holderId: string): HostClock {
  return dialectOf(config).hostClock === "database" ? new PostgresHostClock(db, { holderId }) : new HostPoliteness();
}
