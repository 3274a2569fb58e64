/**
 * The harvest scheduler on a real database with an injected clock (no sleeping): a due time
 * starts one run, after the previous finished run; a due time while a run is still going is
 * skipped; times missed while no worker ran give one catch-up run; two schedulers ticking at
 * once start a due run once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runDueHarvests } from "../../lib/harvest/scheduler";
import { createHarvest, startHarvestRun } from "../../lib/harvest";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
const at = (iso: string) => new Date(iso);
const ROOT = "https://stats.example.org/";

beforeAll(async () => {
  t = await createTestDatabase();
});

afterAll(async () => {
  await t?.dispose();
});

/** What a worker does when a run ends (the crawl itself is not the subject here). */
async function finish(crawlId: number, when: Date): Promise<void> {
  await t.db.crawl.update({ where: { id: crawlId }, data: { status: "finished", stopReason: "site-exhausted", finishedAt: when } });
}

const events = async (harvestId: number) => (await t.db.harvestEvent.findMany({ where: { harvestId }, orderBy: { id: "asc" } })).map((e) => ({ kind: e.kind, message: e.message, details: e.details ? JSON.parse(e.details) : null }));
const runs = (harvestId: number) => t.db.crawl.findMany({ where: { harvestId }, orderBy: { id: "asc" }, select: { id: true, status: true, config: true } });

describe("runDueHarvests", () => {
  it("starts a run at its time, skips a time while the run goes on, and catches up once after downtime", async () => {
    const harvest = await createHarvest(t.db, { config: { rootUrl: ROOT }, cron: "0 6 * * *", timeZone: "UTC" }, { now: at("2026-03-01T12:00:00Z") });
    expect(harvest.nextRunAt).toBe("2026-03-02T06:00:00.000Z");

    expect(await runDueHarvests(t.db, at("2026-03-02T05:59:59Z"))).toEqual([]);
    const [started] = await runDueHarvests(t.db, at("2026-03-02T06:00:07Z"));
    expect(started).toMatchObject({ harvestId: harvest.id, kind: "started", catchUp: false, missed: 1 });
    // The due time moved on: the next tick does nothing.
    expect(await runDueHarvests(t.db, at("2026-03-02T06:00:22Z"))).toEqual([]);
    let row = await t.db.harvest.findUniqueOrThrow({ where: { id: harvest.id } });
    expect(row.nextRunAt?.toISOString()).toBe("2026-03-03T06:00:00.000Z");
    expect(row.lastScheduledAt?.toISOString()).toBe("2026-03-02T06:00:07.000Z");

    // The first run is still running a day later: that day's run is skipped, not stacked.
    await t.db.crawl.update({ where: { id: (started as { crawlId: number }).crawlId }, data: { status: "running" } });
    const [skipped] = await runDueHarvests(t.db, at("2026-03-03T06:00:05Z"));
    expect(skipped).toMatchObject({ kind: "skipped" });
    expect((await runs(harvest.id)).length).toBe(1);

    // It finishes; then no worker runs for three days (due on the 4th, 5th, 6th, 7th): one catch-up run at restart.
    const firstRun = (started as { crawlId: number }).crawlId;
    await finish(firstRun, at("2026-03-03T09:00:00Z"));
    const [caughtUp] = await runDueHarvests(t.db, at("2026-03-07T10:30:00Z"));
    expect(caughtUp).toMatchObject({ kind: "started", catchUp: true, missed: 4 });
    expect(await runDueHarvests(t.db, at("2026-03-07T10:30:15Z"))).toEqual([]);
    row = await t.db.harvest.findUniqueOrThrow({ where: { id: harvest.id } });
    expect(row.nextRunAt?.toISOString()).toBe("2026-03-08T06:00:00.000Z");

    const all = await runs(harvest.id);
    expect(all.map((r) => r.status)).toEqual(["finished", "queued"]);
    expect(JSON.parse(all[1]!.config)).toMatchObject({ after: firstRun, rootUrl: ROOT });
    expect(JSON.parse(all[0]!.config)).toMatchObject({ after: null });
    const log = await events(harvest.id);
    expect(log.map((e) => e.kind)).toEqual(["created", "scheduled-run", "skipped", "catch-up"]);
    expect(log[2]!.message).toBe(`Run due at 2026-03-03T06:00:00.000Z skipped: Harvest ${harvest.id} has a run in progress (crawl ${firstRun}, running): runs of a harvest never overlap`);
    expect(log[3]!.message).toMatch(/^Catch-up run: crawl \d+ after crawl \d+ \(4 scheduled runs since 2026-03-04T06:00:00.000Z were missed while no worker ran\)$/);
    expect(log[3]!.details).toMatchObject({ missed: 4, dueAt: "2026-03-04T06:00:00.000Z" });
  });

  it("leaves paused harvests and harvests without a schedule alone", async () => {
    const paused = await createHarvest(t.db, { config: { rootUrl: ROOT }, cron: "* * * * *", paused: true }, { now: at("2026-04-01T00:00:00Z") });
    const manual = await createHarvest(t.db, { config: { rootUrl: ROOT } }, { now: at("2026-04-01T00:00:00Z") });
    expect([paused.nextRunAt, manual.nextRunAt]).toEqual([null, null]);
    const outcomes = await runDueHarvests(t.db, at("2026-05-01T00:00:00Z"));
    expect(outcomes.filter((o) => o.harvestId === paused.id || o.harvestId === manual.id)).toEqual([]);
  });

  it("starts a due run once when two schedulers tick at the same moment", async () => {
    const harvest = await createHarvest(t.db, { config: { rootUrl: ROOT }, cron: "*/5 * * * *" }, { now: at("2026-06-01T10:01:00Z") });
    // Both read the due row before either claims it (their queries interleave): the conditional
    // update on nextRunAt lets exactly one of them go on.
    const results = await Promise.all([runDueHarvests(t.db, at("2026-06-01T10:05:01Z")), runDueHarvests(t.db, at("2026-06-01T10:05:02Z"))]);
    const mine = results.map((outcomes) => outcomes.filter((o) => o.harvestId === harvest.id));
    expect(mine.map((outcomes) => outcomes.length).sort()).toEqual([0, 1]);
    expect(mine.flat()[0]).toMatchObject({ kind: "started" });
    expect(await t.db.crawl.count({ where: { harvestId: harvest.id } })).toBe(1);
    expect(await t.db.harvestEvent.count({ where: { harvestId: harvest.id, kind: { in: ["scheduled-run", "skipped"] } } })).toBe(1);
  });

  it("the database refuses a second active run even when two callers pass the check together", async () => {
    const harvest = await createHarvest(t.db, { config: { rootUrl: ROOT } });
    const outcomes = await Promise.allSettled([startHarvestRun(t.db, harvest.id), startHarvestRun(t.db, harvest.id), startHarvestRun(t.db, harvest.id)]);
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    for (const o of outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected")) expect(String(o.reason)).toMatch(/has a run in progress/);
    // Bypassing the commands: the partial unique index itself refuses it.
    const [active] = await runs(harvest.id);
    await expect(t.db.crawl.create({ data: { rootUrl: ROOT, config: active!.config, strategy: "sb", seed: 1, harvestId: harvest.id } })).rejects.toMatchObject({ code: "P2002" });
    // A finished run does not count.
    await finish(active!.id, new Date());
    await expect(startHarvestRun(t.db, harvest.id)).resolves.toMatchObject({ after: active!.id });
  });
});
