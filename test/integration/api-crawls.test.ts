import fs from "node:fs";
import path from "node:path";
import { ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING } from "../../lib/crawl-config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRequest, closeRouteDatabase, createCrawlThroughApi, ctx, expectError, getCrawlDetail, openRouteDatabase, postCrawl, url } from "../helpers/api-routes";
import type { TestDatabase } from "../helpers/test-database";

// Route handlers called as plain functions with real Requests, on a real SQLite database.
// app/_server/db.ts reads DATABASE_URL / FORAGE_DATA_DIR on first use: set them first.
let t: TestDatabase;
let crawlsRoute: typeof import("@/app/api/crawls/route");
let crawlRoute: typeof import("@/app/api/crawls/[id]/route");
let eventsRoute: typeof import("@/app/api/crawls/[id]/events/route");

beforeAll(async () => {
  t = await openRouteDatabase();
  crawlsRoute = await import("@/app/api/crawls/route");
  crawlRoute = await import("@/app/api/crawls/[id]/route");
  eventsRoute = await import("@/app/api/crawls/[id]/events/route");
});

afterAll(() => closeRouteDatabase(t));


function patch(id: number | string, body: string | object): Promise<Response> {
  return crawlRoute.PATCH(
    apiRequest(url(`/api/crawls/${id}`), { method: "PATCH", body: typeof body === "string" ? body : JSON.stringify(body) }),
    ctx(id),
  );
}

describe("POST /api/crawls", () => {
  it("creates a queued crawl with defaults, a drawn seed and a 'created' event", async () => {
    const id = await createCrawlThroughApi(crawlsRoute, { rootUrl: "https://www.example.org/stats#top", name: "Stats", budget: { requests: 50 } });
    const detail = await getCrawlDetail(crawlRoute, id);
    expect(detail).toMatchObject({ id, name: "Stats", rootUrl: "https://www.example.org/stats", status: "queued", statusLabel: "Queued", strategy: "sb" });
    expect(detail.seed).toEqual(expect.any(Number));
    expect(detail.config).toMatchObject({ rootUrl: "https://www.example.org/stats", seed: detail.seed, budget: { requests: 50, bytes: null } });
    expect(detail.harvestRate).toBeNull();
    const row = await t.db.crawl.findUniqueOrThrow({ where: { id } });
    expect(JSON.parse(row.config)).toEqual(detail.config);
    const events = await t.db.crawlEvent.findMany({ where: { crawlId: id } });
    expect(events.map((event) => event.kind)).toEqual(["created"]);
  });

  it("keeps a given seed", async () => {
    const id = await createCrawlThroughApi(crawlsRoute, { rootUrl: "https://www.example.org/", seed: 42 });
    expect((await getCrawlDetail(crawlRoute, id)).seed).toBe(42);
  });

  it.each([
    ["ftp URL", { rootUrl: "ftp://example.org/" }, "rootUrl", "must use http or https, not ftp"],
    ["javascript: URL", { rootUrl: "javascript:alert(1)" }, "rootUrl", "must use http or https, not javascript"],
    ["not a URL", { rootUrl: "example dot org" }, "rootUrl", "is not a valid URL (include http:// or https://)"],
    ["missing root URL", { name: "x" }, "rootUrl", "must be a string, got undefined"],
    ["negative budget", { rootUrl: "https://a.org/", budget: { requests: -5 } }, "budget.requests", "must be at least 1"],
    ["budget of the wrong type", { rootUrl: "https://a.org/", budget: { requests: "100" } }, "budget.requests", "must be a number, got string"],
    ["empty MIME list", { rootUrl: "https://a.org/", targetMimeTypes: [] }, "targetMimeTypes", "needs at least one MIME type"],
    ["unknown field", { rootUrl: "https://a.org/", budjet: { requests: 5 } }, "budjet", "is not a known setting"],
    ["unknown nested field", { rootUrl: "https://a.org/", politeness: { delay: 5 } }, "politeness.delay", "is not a known setting"],
    ["unknown strategy", { rootUrl: "https://a.org/", strategy: "magic" }, "strategy", expect.stringContaining('expected one of "sb"')],
    ["negative delay", { rootUrl: "https://a.org/", politeness: { delayMs: -1 } }, "politeness.delayMs", "must not be negative"],
    ["no link to rank", { rootUrl: "https://a.org/", params: { linkRankSamples: 0 } }, "params.linkRankSamples", "must be at least 1"],
    ["a fractional link sample", { rootUrl: "https://a.org/", params: { linkRankSamples: 2.5 } }, "params.linkRankSamples", "must be a whole number"],
    ["a negative URL outlook weight", { rootUrl: "https://a.org/", params: { urlOutlookWeight: -1 } }, "params.urlOutlookWeight", "must not be negative"],
    ["a long-term credit discount of 1", { rootUrl: "https://a.org/", params: { longTermCreditDiscount: 1 } }, "params.longTermCreditDiscount", "must be below 1 (a discount γ in [0, 1))"],
    ["allowPrivateNetwork from a client", { rootUrl: "https://a.org/", allowPrivateNetwork: true }, "allowPrivateNetwork", ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING],
    ["a URL pattern with a lookahead", { rootUrl: "https://a.org/", blocklist: { urlPatterns: ["re:/a(?=b)"] } }, "blocklist.urlPatterns.0", "uses a lookahead (?=…), which Forage's linear-time pattern engine cannot run; match the text itself instead"],
  ])("refuses %s with 400 invalid_request naming the field", async (_name, body, field, message) => {
    const error = await expectError(await crawlsRoute.POST(postCrawl(body)), 400, "invalid_request");
    expect(error.fields?.[field]).toEqual(message);
    expect(error.message).toContain(field);
  });

  it("refuses a body that is not a JSON object", async () => {
    const error = await expectError(await crawlsRoute.POST(postCrawl([1, 2])), 400, "invalid_request");
    expect(Object.keys(error.fields ?? {})).toEqual(["(body)"]);
  });

  it.each([
    ["malformed JSON", "{ rootUrl: "],
    ["an empty body", ""],
  ])("answers 400 invalid_json for %s", async (_name, body) => {
    const error = await expectError(await crawlsRoute.POST(postCrawl(body)), 400, "invalid_json");
    expect(error.message).toMatch(/not valid JSON/);
  });

  it("does not create a crawl when validation fails", async () => {
    const before = await t.db.crawl.count();
    await crawlsRoute.POST(postCrawl({ rootUrl: "ftp://x.org/" }));
    expect(await t.db.crawl.count()).toBe(before);
  });
});

describe("GET /api/crawls", () => {
  it("lists crawls newest first with a human status, paged by limit and offset", async () => {
    const a = await createCrawlThroughApi(crawlsRoute, { rootUrl: "https://list-a.org/" });
    const b = await createCrawlThroughApi(crawlsRoute, { rootUrl: "https://list-b.org/" });
    await t.db.crawl.update({ where: { id: a }, data: { status: "finished", stopReason: "budget-requests" } });
    const response = await crawlsRoute.GET(apiRequest(url("/api/crawls?limit=2")));
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-store");
    const { crawls } = (await response.json()) as { crawls: { id: number; statusLabel: string }[] };
    expect(crawls.map((crawl) => crawl.id)).toEqual([b, a]);
    expect(crawls[1]?.statusLabel).toBe("Finished: budget spent (requests)");
    const next = (await (await crawlsRoute.GET(apiRequest(url("/api/crawls?limit=1&offset=1")))).json()) as { crawls: { id: number }[] };
    expect(next.crawls.map((crawl) => crawl.id)).toEqual([a]);
  });

  it.each([
    ["limit=0", "limit", "must be at least 1"],
    ["limit=5000", "limit", "must be at most 1000"],
    ["limit=abc", "limit", "must be a whole number"],
    ["limit=1e3", "limit", "must be a whole number"],
    ["offset=-1", "offset", "must be at least 0"],
    ["limt=5", "limt", "is not a known parameter"],
    ["limit=1&limit=2", "limit", "is given more than once"],
  ])("refuses ?%s with 400", async (query, field, message) => {
    const error = await expectError(await crawlsRoute.GET(apiRequest(url(`/api/crawls?${query}`))), 400, "invalid_request");
    expect(error.fields).toEqual({ [field]: message });
  });
});

describe("GET /api/crawls/:id", () => {
  it.each(["999999", "abc", "0", "-1", "1.5", "01", "1e3", " 1", "99999999999"])("answers 404 not_found for id %j", async (id) => {
    const error = await expectError(await crawlRoute.GET(apiRequest(url(`/api/crawls/${id}`)), ctx(id)), 404, "not_found");
    expect(error.message).toMatch(/not found/);
  });

  it("shows counters, harvest rate and the host a running crawl waits for", async () => {
    const id = await createCrawlThroughApi(crawlsRoute, { rootUrl: "https://counters.org/" });
    await t.db.crawl.update({
      where: { id },
      data: { status: "running", requestsCount: 200, getCount: 150, headCount: 50, targetsCount: 50, targetBytes: 10n ** 12n, workerId: "w1", leaseExpiresAt: new Date(Date.now() + 60_000) },
    });
    await t.db.crawlEvent.create({ data: { crawlId: id, level: "warn", kind: "waiting", message: "429", data: JSON.stringify({ host: "counters.org", untilMs: Date.now() + 30_000 }) } });
    const detail = await getCrawlDetail(crawlRoute, id);
    expect(detail).toMatchObject({
      harvestRate: 0.25,
      targetBytes: 1e12,
      counters: { requests: 200, getRequests: 150, headRequests: 50, targets: 50, targetBytes: 1e12 },
      waitingFor: "counters.org",
      statusLabel: "Running — waiting for counters.org (rate limited)",
      workerId: "w1",
    });
    await t.db.crawlEvent.create({ data: { crawlId: id, level: "info", kind: "robots", message: "later event" } });
    expect((await getCrawlDetail(crawlRoute, id)).waitingFor).toBeNull();
  });
});

describe("PATCH /api/crawls/:id", () => {
  it("changes URL patterns and the delay, keeps everything else, and logs the diff", async () => {
    const id = await createCrawlThroughApi(crawlsRoute, { rootUrl: "https://patch.org/", budget: { requests: 77 }, seed: 9 });
    const response = await patch(id, { blocklist: { urlPatterns: ["*/calendar*"] }, politeness: { delayMs: 500 } });
    expect(response.status).toBe(200);
    const detail = (await response.json()) as { config: { blocklist: { urlPatterns: string[]; extensions: string[] }; politeness: { delayMs: number; obeyRobots: boolean }; budget: { requests: number }; seed: number } };
    expect(detail.config.blocklist.urlPatterns).toEqual(["*/calendar*"]);
    expect(detail.config.blocklist.extensions.length).toBeGreaterThan(100);
    expect(detail.config.politeness).toMatchObject({ delayMs: 500, obeyRobots: true });
    expect(detail.config).toMatchObject({ budget: { requests: 77 }, seed: 9 });
    const event = await t.db.crawlEvent.findFirstOrThrow({ where: { crawlId: id, kind: "config-changed" } });
    expect(event.message).toContain("politeness.delayMs 1000 → 500");
    expect(JSON.parse(event.data ?? "{}")).toEqual({
      changes: [
        { field: "blocklist.urlPatterns", before: [], after: ["*/calendar*"] },
        { field: "politeness.delayMs", before: 1000, after: 500 },
      ],
    });
    // Only one side: the other keeps its value; an unchanged value writes no event.
    await patch(id, { politeness: { delayMs: 500 } });
    expect(await t.db.crawlEvent.count({ where: { crawlId: id, kind: "config-changed" } })).toBe(1);
  });

  it("accepts settings changes on a running crawl", async () => {
    const id = await createCrawlThroughApi(crawlsRoute);
    await t.db.crawl.update({ where: { id }, data: { status: "running", workerId: "w", leaseExpiresAt: new Date(Date.now() + 60_000) } });
    const detail = (await (await patch(id, { politeness: { delayMs: 0 } })).json()) as { config: { politeness: { delayMs: number } } };
    expect(detail.config.politeness.delayMs).toBe(0);
  });

  it.each([
    [{ budget: { requests: 10 } }, "budget", "is not editable while a crawl exists: clone it instead"],
    [{ rootUrl: "https://other.org/" }, "rootUrl", "is not editable while a crawl exists: clone it instead"],
    [{ politeness: { obeyRobots: false } }, "politeness.obeyRobots", "is not editable while a crawl exists: clone it instead"],
    [{ blocklist: { extensions: [".png"] } }, "blocklist.extensions", "is not editable while a crawl exists: clone it instead"],
    [{ colour: "red" }, "colour", "is not a known setting"],
    [{ politeness: { delayMs: -1 } }, "politeness.delayMs", "must not be negative"],
    [{ politeness: { delayMs: "fast" } }, "politeness.delayMs", "must be a number, got string"],
    [{ blocklist: { urlPatterns: "x" } }, "blocklist.urlPatterns", "must be a array, got string"],
    [{}, "(body)", expect.stringContaining("names no editable setting")],
    [[1], "(body)", "must be a JSON object"],
  ])("refuses %j with 400 naming the field", async (body, field, message) => {
    const id = await createCrawlThroughApi(crawlsRoute);
    const error = await expectError(await patch(id, body), 400, "invalid_request");
    expect(error.fields?.[field]).toEqual(message);
  });

  it("answers invalid_json, 404 and 409 where they apply", async () => {
    const id = await createCrawlThroughApi(crawlsRoute);
    await expectError(await patch(id, "{nope"), 400, "invalid_json");
    await expectError(await patch(999_999, { politeness: { delayMs: 5 } }), 404, "not_found");
    await expectError(await patch("abc", { politeness: { delayMs: 5 } }), 404, "not_found");
    await t.db.crawl.update({ where: { id }, data: { status: "finished" } });
    const error = await expectError(await patch(id, { politeness: { delayMs: 5 } }), 409, "invalid_state");
    expect(error.message).toMatch(/clone/);
  });
});

describe("DELETE /api/crawls/:id", () => {
  const del = (id: number | string) => crawlRoute.DELETE(apiRequest(url(`/api/crawls/${id}`), { method: "DELETE" }), ctx(id));

  it("refuses while queued, running or paused", async () => {
    const id = await createCrawlThroughApi(crawlsRoute);
    for (const status of ["queued", "running", "paused"]) {
      await t.db.crawl.update({ where: { id }, data: { status } });
      const error = await expectError(await del(id), 409, "invalid_state");
      expect(error.message).toMatch(/stop or cancel it/);
    }
  });

  it("deletes a finished crawl's rows and folder, then answers 404", async () => {
    const id = await createCrawlThroughApi(crawlsRoute);
    await t.db.crawl.update({ where: { id }, data: { status: "finished" } });
    await t.db.crawlRequest.create({ data: { crawlId: id, seq: 1, kind: "page", method: "GET", url: "https://x.org/" } });
    const folder = path.join(t.config.dataDir, "crawls", String(id), "files");
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, "f"), "x");
    const response = await del(id);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(await t.db.crawlRequest.count({ where: { crawlId: id } })).toBe(0);
    expect(fs.existsSync(path.dirname(folder))).toBe(false);
    await expectError(await del(id), 404, "not_found");
    await expectError(await eventsRoute.GET(apiRequest(url(`/api/crawls/${id}/events`)), ctx(id)), 404, "not_found");
  });
});
