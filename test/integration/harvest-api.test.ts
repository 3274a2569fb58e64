/**
 * The harvest routes over a real database and a real crawl of the evolving simulator: a harvest
 * made from a finished crawl runs again after it, never twice at once, and every bad field is a
 * 400 naming it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import type { HarvestView } from "../../lib/harvest";
import { apiRequest, closeRouteDatabase, ctx, expectError, openRouteDatabase, url } from "../helpers/api-routes";
import type { TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let site: RunningEvolvingSite;
let harvestsRoute: typeof import("@/app/api/harvests/route");
let harvestRoute: typeof import("@/app/api/harvests/[id]/route");
let runsRoute: typeof import("@/app/api/harvests/[id]/runs/route");
let eventsRoute: typeof import("@/app/api/harvests/[id]/events/route");
let first = 0;

beforeAll(async () => {
  t = await openRouteDatabase();
  site = await startEvolvingSite({ items: 30, seed: 4 });
  harvestsRoute = await import("@/app/api/harvests/route");
  harvestRoute = await import("@/app/api/harvests/[id]/route");
  runsRoute = await import("@/app/api/harvests/[id]/runs/route");
  eventsRoute = await import("@/app/api/harvests/[id]/events/route");
  ({ id: first } = await createCrawl(t.db, { rootUrl: site.rootUrl, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 5 }, { asLocalAdmin: true }));
});

afterAll(async () => {
  await site?.close();
  await closeRouteDatabase(t);
});

const run = (crawlId: number) =>
  runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal, privateNetworks: ["127.0.0.0/8"] });
const json = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) });
const postHarvest = (body: unknown) => harvestsRoute.POST(apiRequest(url("/api/harvests"), json(body)));
const patchHarvest = (id: number, body: unknown) => harvestRoute.PATCH(apiRequest(url(`/api/harvests/${id}`), { method: "PATCH", body: JSON.stringify(body) }), ctx(id));
const getHarvest = async (id: number) => (await (await harvestRoute.GET(apiRequest(url(`/api/harvests/${id}`)), ctx(id))).json()) as HarvestView;
const runNow = (id: number) => runsRoute.POST(apiRequest(url(`/api/harvests/${id}/runs`), json({})), ctx(id));

describe("POST /api/harvests validation", () => {
  it("names each bad field in a 400", async () => {
    let error = await expectError(await postHarvest({ fromCrawlId: first, cron: "0 0 6 * * 1" }), 400, "invalid_request");
    expect(error.fields?.cron).toMatch(/five fields/);
    error = await expectError(await postHarvest({ fromCrawlId: first, cron: "0 25 * * *" }), 400, "invalid_request");
    expect(error.fields?.cron).toMatch(/not a valid cron expression/);
    error = await expectError(await postHarvest({ fromCrawlId: first, cron: "0 6 * * 1", timeZone: "Europe/Atlantis" }), 400, "invalid_request");
    expect(error.fields).toEqual({ timeZone: expect.stringMatching(/not a known time zone/) });
    error = await expectError(await postHarvest({ fromCrawlId: first, webhookUrl: "ftp://hooks.example.org/x" }), 400, "invalid_request");
    expect(error.fields).toEqual({ webhookUrl: "must be an http or https URL, not ftp:" });
    error = await expectError(await postHarvest({ fromCrawlId: first, webhookUrl: "not a url" }), 400, "invalid_request");
    expect(error.fields).toEqual({ webhookUrl: "is not a valid URL" });
    error = await expectError(await postHarvest({}), 400, "invalid_request");
    expect(Object.keys(error.fields!)).toEqual(["fromCrawlId"]);
    error = await expectError(await postHarvest({ fromCrawlId: first, shedule: "x" }), 400, "invalid_request");
    expect(error.fields).toEqual({ shedule: "is not a known field" });
    error = await expectError(await postHarvest({ fromCrawlId: first + 999 }), 400, "invalid_request");
    expect(error.fields).toEqual({ fromCrawlId: `names crawl ${first + 999}, which does not exist` });
    error = await expectError(await postHarvest({ config: { rootUrl: site.rootUrl, after: first, allowPrivateNetwork: true } }), 400, "invalid_request");
    // 127.0.0.1 is outside this server's policy: the root URL is refused at creation too.
    expect(Object.keys(error.fields!).sort()).toEqual(["config.after", "config.allowPrivateNetwork", "config.rootUrl"]);
    expect(error.fields!["config.rootUrl"]).toBe("is a private or reserved address (127.0.0.1: a loopback address); an admin can allow private networks in Settings");
    expect(await t.db.harvest.count()).toBe(0);
  });

  it("refuses webhooks to private and cloud-metadata addresses the server's policy does not allow", async () => {
    for (const webhookUrl of ["http://127.0.0.1:9/hook", "http://[::1]/hook", "http://10.1.2.3/x", "http://[::ffff:127.0.0.1]/x", "http://localhost:8080/hook"]) {
      const error = await expectError(await postHarvest({ fromCrawlId: first, webhookUrl }), 400, "invalid_request");
      expect(error.fields?.webhookUrl, webhookUrl).toMatch(/^is a private or reserved address \(.+\); an admin can allow private networks in Settings$/);
    }
    const error = await expectError(await postHarvest({ fromCrawlId: first, webhookUrl: "http://169.254.169.254/latest" }), 400, "invalid_request");
    expect(error.fields?.webhookUrl).toBe("is a cloud-metadata address (169.254.169.254): no crawl or webhook may reach it, whatever the network policy");
  });

  it("409 for a crawl that has not finished", async () => {
    const error = await expectError(await postHarvest({ fromCrawlId: first }), 409, "invalid_state");
    expect(error.message).toBe(`fromCrawlId: crawl ${first} is queued; a harvest repeats a finished crawl`);
  });
});

describe("a harvest from a finished crawl", () => {
  let harvestId = 0;

  it("repeats it now: the crawl is its first run, the second runs after it, and runs never overlap", async () => {
    await run(first);
    const created = await postHarvest({ fromCrawlId: first, runNow: true, checkKnownFiles: true });
    expect(created.status).toBe(201);
    const harvest = (await created.json()) as HarvestView;
    harvestId = harvest.id;
    expect(harvest).toMatchObject({ rootUrl: site.rootUrl, cron: null, nextRunAt: null, upcoming: [], checkKnownFiles: true });
    expect(harvest.runs.map((r) => r.id)).toEqual([harvest.activeRunId, first]);
    const second = harvest.activeRunId!;
    const stored = await t.db.crawl.findUniqueOrThrow({ where: { id: second } });
    expect(JSON.parse(stored.config)).toMatchObject({ after: first, checkKnownFiles: true, allowPrivateNetwork: false, seed: 5 });
    expect(stored.harvestId).toBe(harvestId);

    const busy = await expectError(await runNow(harvestId), 409, "invalid_state");
    expect(busy.message).toBe(`Harvest ${harvestId} has a run in progress (crawl ${second}, queued): runs of a harvest never overlap`);
    // Another harvest cannot take a crawl that is already a run.
    await expectError(await postHarvest({ fromCrawlId: first }), 409, "invalid_state");

    site.version = 2;
    const truth = site.catalogue.changes(1, 2);
    await run(second);
    const detail = await getHarvest(harvestId);
    expect(detail.activeRunId).toBeNull();
    expect(detail.runs.map((r) => [r.id, r.status])).toEqual([
      [second, "finished"],
      [first, "finished"],
    ]);
    const report = await t.db.crawlEvent.findFirstOrThrow({ where: { crawlId: second, kind: "changes" } });
    expect(JSON.parse(report.data!)).toEqual({ new: truth.new.length, changed: truth.changed.length, unchanged: truth.unchanged.length, gone: truth.gone.length });

    const third = await runNow(harvestId);
    expect(third.status).toBe(201);
    expect(await third.json()).toMatchObject({ after: second });
  });

  it("sets, previews and pauses a schedule; lists and logs", async () => {
    const before = Date.now();
    const patched = await patchHarvest(harvestId, { cron: "30 7 * * 1-5", timeZone: "Europe/Paris", name: "Catalogue" });
    expect(patched.status).toBe(200);
    const harvest = (await patched.json()) as HarvestView;
    expect(harvest.name).toBe("Catalogue");
    expect(harvest.upcoming).toHaveLength(3);
    expect(harvest.nextRunAt).toBe(harvest.upcoming[0]);
    expect(new Date(harvest.nextRunAt!).getTime()).toBeGreaterThan(before);
    for (const at of harvest.upcoming) {
      const local = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit", weekday: "short" }).format(new Date(at));
      expect(local).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 07:30$/);
    }
    const error = await expectError(await patchHarvest(harvestId, { cron: "every monday" }), 400, "invalid_request");
    expect(Object.keys(error.fields!)).toEqual(["cron"]);
    const paused = (await (await patchHarvest(harvestId, { paused: true })).json()) as HarvestView;
    expect(paused).toMatchObject({ paused: true, nextRunAt: null, upcoming: [] });

    const list = (await (await harvestsRoute.GET(apiRequest(url("/api/harvests")))).json()) as { harvests: HarvestView[] };
    expect(list.harvests.map((h) => [h.id, h.runs.length])).toEqual([[harvestId, 3]]);
    const events = (await (await eventsRoute.GET(apiRequest(url(`/api/harvests/${harvestId}/events`)), ctx(harvestId))).json()) as { events: { kind: string; message: string }[] };
    expect(events.events.map((e) => e.kind)).toEqual(["updated", "updated", "run-started", "run-started", "created"]);
    expect(events.events.at(-1)!.message).toBe(`Harvest created from crawl ${first}`);
  });

  it("404 for unknown harvests; DELETE keeps the runs as plain crawls", async () => {
    await expectError(await harvestRoute.GET(apiRequest(url("/api/harvests/999")), ctx(999)), 404, "not_found");
    await expectError(await runNow(999), 404, "not_found");
    await expectError(await harvestRoute.GET(apiRequest(url("/api/harvests/x")), ctx("x")), 404, "not_found");
    const removed = await harvestRoute.DELETE(apiRequest(url(`/api/harvests/${harvestId}`), { method: "DELETE" }), ctx(harvestId));
    expect(removed.status).toBe(204);
    expect(await t.db.crawl.count({ where: { id: first } })).toBe(1);
    expect(await t.db.crawl.count({ where: { harvestId: { not: null } } })).toBe(0);
    expect(await t.db.harvestEvent.count()).toBe(0);
  });
});
