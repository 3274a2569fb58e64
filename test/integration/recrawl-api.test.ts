import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { saveNetworkPolicy } from "../../lib/store";
import { apiRequest, closeRouteDatabase, createCrawlThroughApi, ctx, expectError, getCrawlDetail, openRouteDatabase, postCrawl, url } from "../helpers/api-routes";
import type { TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let site: RunningEvolvingSite;
let crawlsRoute: typeof import("@/app/api/crawls/route");
let crawlRoute: typeof import("@/app/api/crawls/[id]/route");
let changesRoute: typeof import("@/app/api/crawls/[id]/changes/route");
let first = 0;

beforeAll(async () => {
  t = await openRouteDatabase();
  site = await startEvolvingSite({ items: 40, seed: 9 });
  crawlsRoute = await import("@/app/api/crawls/route");
  crawlRoute = await import("@/app/api/crawls/[id]/route");
  changesRoute = await import("@/app/api/crawls/[id]/changes/route");
  ({ id: first } = await createCrawl(t.db, { rootUrl: site.rootUrl, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 3 }, { asLocalAdmin: true }));
});

afterAll(async () => {
  await site?.close();
  await closeRouteDatabase(t);
});

const run = (crawlId: number) =>
  runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal, privateNetworks: ["127.0.0.0/8"] });

const changes = (id: number, query = "") => changesRoute.GET(apiRequest(url(`/api/crawls/${id}/changes${query}`)), ctx(id));

describe("POST /api/crawls with after", () => {
  it("409 while the previous crawl is not finished", async () => {
    const error = await expectError(await crawlsRoute.POST(postCrawl({ rootUrl: site.rootUrl, after: first })), 409, "invalid_state");
    expect(error.message).toBe(`after: crawl ${first} is queued; a re-crawl starts from a finished crawl`);
  });

  it("400 naming the field for an unknown crawl, another site, or not an id", async () => {
    await run(first);
    let error = await expectError(await crawlsRoute.POST(postCrawl({ rootUrl: site.rootUrl, after: first + 1000 })), 400, "invalid_request");
    expect(error.fields).toEqual({ after: `names crawl ${first + 1000}, which does not exist` });
    error = await expectError(await crawlsRoute.POST(postCrawl({ rootUrl: "https://www.example.org/", after: first })), 400, "invalid_request");
    expect(error.fields).toEqual({ after: `names crawl ${first} of ${site.rootUrl}, another site than https://www.example.org/` });
    error = await expectError(await crawlsRoute.POST(postCrawl({ rootUrl: site.rootUrl, after: "last" })), 400, "invalid_request");
    expect(Object.keys(error.fields!)).toEqual(["after"]);
    error = await expectError(await crawlsRoute.POST(postCrawl({ rootUrl: site.rootUrl, checkKnownFiles: "yes" })), 400, "invalid_request");
    expect(Object.keys(error.fields!)).toEqual(["checkKnownFiles"]);
  });

  it("a re-crawl created through the API reports its changes in the detail and the changes route", async () => {
    site.version = 2;
    const truth = site.catalogue.changes(1, 2);
    // The site is on 127.0.0.1: the admin lets crawls reach it (checked when the crawl is created).
    await saveNetworkPolicy(t.db, ["127.0.0.0/8"]);
    const id = await createCrawlThroughApi(crawlsRoute, { rootUrl: site.rootUrl, after: first, checkKnownFiles: true, politeness: { delayMs: 0 } });
    expect(await changes(id).then((response) => expectError(response, 404, "not_found"))).toMatchObject({ message: `Crawl ${id} has no change report yet: it is written when the crawl finishes` });
    await run(id);
    const detail = await getCrawlDetail(crawlRoute, id);
    expect(detail.config).toMatchObject({ after: first, checkKnownFiles: true });
    expect(detail.changes).toEqual({ new: truth.new.length, changed: truth.changed.length, unchanged: truth.unchanged.length, gone: truth.gone.length });
    const gone = (await (await changes(id, "?change=gone")).json()) as { files: { url: string; change: string; lastSeenCrawlId: number }[]; total: number; previousCrawlId: number };
    expect(gone.previousCrawlId).toBe(first);
    expect(gone.total).toBe(truth.gone.length);
    expect(gone.files.map((file) => new URL(file.url).pathname)).toEqual([...truth.gone].sort());
    expect(gone.files.every((file) => file.change === "gone" && file.lastSeenCrawlId === first)).toBe(true);
    const page = (await (await changes(id, "?limit=2&offset=1")).json()) as { files: unknown[]; total: number };
    expect(page.files).toHaveLength(2);
    expect(page.total).toBe(truth.new.length + truth.changed.length + truth.unchanged.length + truth.gone.length);
    await expectError(await changes(id, "?change=deleted"), 400, "invalid_request");
    await expectError(await changes(first + 1000), 404, "not_found");
  });
});
