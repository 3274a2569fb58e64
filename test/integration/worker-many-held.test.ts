import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { updateLiveSettings } from "../../lib/store/commands/update-live-settings";
import { FULL_SETTINGS_SWEEP_MS, HeldCrawlControls } from "../../lib/worker/held-crawl-controls";
import { claimExpiredCrawl, failExpiredLeases, heartbeatLeases, IDS_PER_STATEMENT } from "../../lib/worker/leases";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/** More held crawls than one statement may name: the worker's queries must not list them all at once. */
const HELD = 2 * IDS_PER_STATEMENT + 200;

let t: TestDatabase;
let held: number[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  const config = parseCrawlConfig({ rootUrl: "http://127.0.0.1:9/", seed: 1 });
  for (let i = 0; i < HELD; i++) held.push(await insertCrawl(t.db, config));
  held = held.sort((a, b) => a - b);
  await t.db.crawl.updateMany({ data: { status: "running", workerId: "w1", leaseExpiresAt: new Date(Date.now() + 60_000) } });
}, 120_000);

afterAll(async () => {
  await t?.dispose();
});

describe("a worker holding more crawls than one statement may name", () => {
  it("renews every lease with its heartbeat", async () => {
    await t.db.worker.create({ data: { id: "w1", hostname: "h", pid: 1 } });
    await t.db.crawl.updateMany({ data: { leaseExpiresAt: new Date(Date.now() + 1_000) } });
    await heartbeatLeases(t.db, "w1", held, 600_000);
    expect(await t.db.crawl.count({ where: { leaseExpiresAt: { gt: new Date(Date.now() + 300_000) } } })).toBe(HELD);
  });

  it("fails and claims only expired crawls it does not run", async () => {
    const [lapsedHere, lapsedElsewhere] = [held[0]!, held[1]!];
    await t.db.crawl.updateMany({ where: { id: { in: [lapsedHere, lapsedElsewhere] } }, data: { leaseExpiresAt: new Date(Date.now() - 1_000) } });
    // Neither has a checkpoint: the one not running here is failed, the one running here is not.
    expect(await failExpiredLeases(t.db, held.slice(0, 1).concat(held.slice(2)))).toBe(1);
    expect((await t.db.crawl.findUniqueOrThrow({ where: { id: lapsedElsewhere } })).status).toBe("failed");
    expect((await t.db.crawl.findUniqueOrThrow({ where: { id: lapsedHere } })).status).toBe("running");
    // With a checkpoint, the one running here is never claimed by this worker.
    await t.db.crawlCheckpoint.create({ data: { crawlId: lapsedHere, requests: 1, version: 1, state: Buffer.from("{}") } });
    expect(await claimExpiredCrawl(t.db, "w1", 60_000, held)).toBeNull();
    expect(await claimExpiredCrawl(t.db, "w2", 60_000, [])).toEqual({ id: lapsedHere, status: "running" });
    await t.db.crawl.update({ where: { id: lapsedHere }, data: { workerId: "w1", leaseExpiresAt: new Date(Date.now() + 60_000) } });
  });

  it("sees a pending control and a live edit of one crawl among all of them, reading only that crawl's settings", async () => {
    let now = 0;
    const controls = new HeldCrawlControls(t.db, "w1", () => now);
    const running = held.filter((id) => id !== held[1]);
    // The first look reads every held crawl's settings.
    const first = await controls.look(running);
    expect(first.controls).toEqual([]);
    expect(first.configs.map((row) => row.id).sort((a, b) => a - b)).toEqual(running);
    now += 500;
    expect(await controls.look(running)).toEqual({ controls: [], configs: [] });

    const edited = running[running.length - 1]!;
    const paused = running[3]!;
    await updateLiveSettings(t.db, edited, { politeness: { delayMs: 4321 } });
    await t.db.crawl.update({ where: { id: paused }, data: { pendingControl: "pause" } });
    now += 500;
    const look = await controls.look(running);
    expect(look.controls).toEqual([{ id: paused, pendingControl: "pause" }]);
    expect(look.configs.map((row) => row.id)).toEqual([edited]);
    expect(JSON.parse(look.configs[0]!.config).politeness.delayMs).toBe(4321);
    // A control on a crawl another worker holds is not this worker's.
    await t.db.crawl.update({ where: { id: paused }, data: { workerId: "w2" } });
    now += 500;
    expect((await controls.look(running)).controls).toEqual([]);

    // An edit whose event is missing is still read at the next full sweep.
    await t.db.crawl.update({ where: { id: running[7]! }, data: { config: JSON.stringify({ ...JSON.parse(look.configs[0]!.config), seed: 99 }) } });
    now += 500;
    expect((await controls.look(running)).configs).toEqual([]);
    now += FULL_SETTINGS_SWEEP_MS;
    expect((await controls.look(running)).configs.length).toBe(running.length);
  });
});
