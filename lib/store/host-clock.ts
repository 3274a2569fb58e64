import type { DatabaseProvider } from "../config";
import { HostPoliteness, type HostPoliteness as HostClock } from "../crawler/fetch/host-politeness";
import { dialectOf } from "./dialect";
import { PostgresHostClock, pruneIdleHostClocks } from "./host-clock-postgres";
import type { Db } from "./prisma-client";

/** A process's politeness clock, with what it holds to give back when the process stops. */
export interface ProcessHostClock extends HostClock {
  /** Hands back the hosts it holds (PostgreSQL's leases), so other processes need not wait for them to lapse. */
  close(): Promise<void>;
}

/**
 * The politeness clock a process that crawls (a worker, a foreground `forage crawl`) uses: the
 * database's on PostgreSQL, so every process sharing it honours one delay per host; its own
 * memory on SQLite (one machine). `holderId` names this process in the `HostClock` rows.
 */
export function createHostClock(db: Db, config: { databaseProvider: DatabaseProvider }, holderId: string): ProcessHostClock {
  if (dialectOf(config).hostClock === "database") return new PostgresHostClock(db, { holderId });
  return Object.assign(new HostPoliteness(), { close: () => Promise.resolve() });
}

/**
 * A host's clock row is kept this long after its last request: longer than the largest delay a
 * crawl may set (10 min), so a pruned host was due anyway.
 */
export const HOST_CLOCK_IDLE_MS = 60 * 60_000;

/** Removes the database clock rows of hosts idle for an hour (PostgreSQL; SQLite's clock lives in memory). */
export async function pruneHostClocks(db: Db, config: { databaseProvider: DatabaseProvider }): Promise<number> {
  return dialectOf(config).hostClock === "database" ? pruneIdleHostClocks(db, HOST_CLOCK_IDLE_MS) : 0;
}
