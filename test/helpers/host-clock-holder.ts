// A process that takes a host on the PostgreSQL clock and keeps it (its lease renewed) until it
// is killed: what a worker crawling that host looks like to the other workers. For the tests of
// a lease taken over after its holder dies (test/integration/postgres-politeness.test.ts).
//   node --import tsx test/helpers/host-clock-holder.ts   with DATABASE_URL, HOLD_URL, HOLD_DELAY_MS, HOLD_LEASE_MS
import { loadConfig } from "../../lib/config";
import { openDatabase } from "../../lib/store";
import { PostgresHostClock } from "../../lib/store/host-clock-postgres";

const db = await openDatabase(loadConfig({ DATABASE_URL: process.env.DATABASE_URL }));
const clock = new PostgresHostClock(db, { holderId: "doomed", leaseMs: Number(process.env.HOLD_LEASE_MS) });
const hold = { delayMs: Number(process.env.HOLD_DELAY_MS) };
(await clock.acquire(process.env.HOLD_URL!, hold))();
process.stdout.write("held\n");
// Kept alive by a timer: the clock's own timers are unref'd, as a worker's other work keeps it alive.
setInterval(() => undefined, 60_000);
// And kept busy, as a crawl of the host is: an idle host is released after a third of the lease,
// and a slow machine could let that happen before the test's kill lands.
for (;;) (await clock.acquire(process.env.HOLD_URL!, hold))();
