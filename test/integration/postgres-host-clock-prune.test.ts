import { afterAll, beforeAll, expect, it } from "vitest";
import { PostgresHostClock, pruneIdleHostClocks } from "../../lib/store/host-clock-postgres";
import { HOST_CLOCK_IDLE_MS, pruneHostClocks } from "../../lib/store/host-clock";
import { createTestDatabase, describePostgres, type TestDatabase } from "../helpers/test-database";

// The shared politeness clock keeps a row per host; rows of hosts nobody crawls any more are
// pruned, and only those: a host in use, held, or under a Retry-After keeps its row.

describePostgres("pruning the clock rows of idle hosts", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ backend: "postgres" });
  });
  afterAll(async () => t?.dispose());

  it("deletes only rows idle past the limit, free and not rate-limited; a pruned host is crawled again at once", async () => {
    const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
    const inAnHour = new Date(Date.now() + 3_600_000);
    await t.db.hostClock.createMany({
      data: [
        { host: "idle.example:80", lastEndAt: hoursAgo(2), blockedUntil: hoursAgo(2) },
        { host: "recent.example:80", lastEndAt: new Date(Date.now() - 60_000), blockedUntil: hoursAgo(2) },
        { host: "blocked.example:80", lastEndAt: hoursAgo(2), blockedUntil: inAnHour },
        { host: "held.example:80", lastEndAt: hoursAgo(2), blockedUntil: hoursAgo(2), holder: "w#1.1", heldUntil: inAnHour },
        { host: "lapsed.example:80", lastEndAt: hoursAgo(3), blockedUntil: hoursAgo(3), holder: "dead#1.1", heldUntil: hoursAgo(3) },
      ],
    });
    expect(await pruneHostClocks(t.db, t.config)).toBe(2);
    const left = await t.db.hostClock.findMany({ orderBy: { host: "asc" }, select: { host: true } });
    expect(left.map((row) => row.host)).toEqual(["blocked.example:80", "held.example:80", "recent.example:80"]);
    expect(await pruneIdleHostClocks(t.db, HOST_CLOCK_IDLE_MS)).toBe(0);

    // A pruned host gets a fresh row on its next request, due at once.
    const clock = new PostgresHostClock(t.db, { holderId: "w" });
    const started = performance.now();
    const release = await clock.acquire("http://idle.example/", { delayMs: 5_000 });
    expect(performance.now() - started).toBeLessThan(4_500); // not the 5 s delay
    await release();
    expect(await t.db.hostClock.count({ where: { host: "idle.example:80" } })).toBe(1);
  });
});
