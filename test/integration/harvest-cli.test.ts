/**
 * `forage harvest create|list|run` on a test database (real processes; the usage errors through the
 * CLI's `main` in this one): a harvest from a finished crawl, one-line usage errors naming the
 * option, and a run queued after the crawl.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { runForageCli } from "../helpers/forage-cli";
import { runForageInProcess } from "../helpers/forage-cli-in-process";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let env: Record<string, string>;
let crawlId = 0;

beforeAll(async () => {
  t = await createTestDatabase();
  env = { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.config.dataDir };
  ({ id: crawlId } = await createCrawl(t.db, { rootUrl: "https://stats.example.org/" }));
  await t.db.crawl.update({ where: { id: crawlId }, data: { status: "finished", stopReason: "site-exhausted", finishedAt: new Date() } });
});

afterAll(async () => {
  await t?.dispose();
});

describe("forage harvest", () => {
  // Usage errors: the CLI's `main` in this process (no child start-up); the next test runs real processes.
  it("refuses bad options with the option named, creating nothing", async () => {
    let result = await runForageInProcess(["harvest", "create", "--from", String(crawlId), "--cron", "0 0 6 * * 1"], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^forage harvest: --cron must have five fields/m);
    result = await runForageInProcess(["harvest", "create", "--from", String(crawlId), "--cron", "0 6 * * 1", "--tz", "Nowhere/City"], env);
    expect(result.stderr).toMatch(/--tz is not a known time zone/);
    result = await runForageInProcess(["harvest", "create", "--from", String(crawlId), "--webhook", "file:///etc/passwd"], env);
    expect(result.stderr).toMatch(/--webhook must be an http or https URL/);
    result = await runForageInProcess(["harvest", "create"], env);
    expect(result.stderr).toMatch(/needs --from <crawlId>/);
    expect(await t.db.harvest.count()).toBe(0);
  });

  it("creates a scheduled harvest, lists it, and queues a run after the crawl", async () => {
    const created = await runForageCli(["harvest", "create", "--from", String(crawlId), "--cron", "0 6 * * 1", "--tz", "Europe/Paris"], env);
    expect(created.stderr).toBe("");
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^Harvest (\d+) "stats.example.org" of https:\/\/stats.example.org\/: "0 6 \* \* 1" \(Europe\/Paris\), next run \d{4}-\d\d-\d\dT0[45]:00:00.000Z; 1 runs/);
    const harvestId = Number(/^Harvest (\d+)/.exec(created.stdout)![1]);
    const listed = await runForageCli(["harvest", "list", "--json"], env);
    expect((JSON.parse(listed.stdout) as { id: number; cron: string }[]).map((h) => [h.id, h.cron])).toEqual([[harvestId, "0 6 * * 1"]]);
    const queued = await runForageCli(["harvest", "run", String(harvestId)], env);
    expect(queued.stdout).toMatch(new RegExp(`^Queued crawl (\\d+) after crawl ${crawlId}; a worker runs it.`));
    const again = await runForageCli(["harvest", "run", String(harvestId)], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/has a run in progress/);
  });
});
