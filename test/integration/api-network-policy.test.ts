/**
 * The network policy belongs to the server: what POST /api/crawls (createCrawl) and live edits
 * refuse, the admin's list of private networks (saveNetworkPolicy / getNetworkPolicy), and
 * that stored crawls run with FORAGE_PRIVATE_NETWORKS ∪ that list, read when they start,
 * in the worker process as in this one. Real database, real HTTP on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidRequestError } from "../../lib/errors";
import { toErrorResponse } from "../../lib/api/responses";
import { ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING, CrawlConfigError } from "../../lib/crawl-config";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { saveNetworkPolicy } from "../../lib/store/commands/save-network-policy";
import { updateLiveSettings } from "../../lib/store/commands/update-live-settings";
import { getNetworkPolicy, getServerPrivateNetworks, NETWORK_POLICY_KEY } from "../../lib/store/queries/get-network-policy";
import { page, startRouteSite, type TestSite } from "../helpers/crawl-fixtures";
import { pollUntil } from "../helpers/poll-until";
import { startNodeProcess, type ManagedProcess } from "../helpers/processes";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

const LOOKAHEAD = "uses a lookahead (?=…), which Forage's linear-time pattern engine cannot run; match the text itself instead";

let t: TestDatabase;
let site: TestSite;
let worker: ManagedProcess | null = null;

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startRouteSite({ "/": page(["/a", "/b"]), "/a": page(["/b"]), "/b": page([]) });
});
afterAll(async () => {
  await worker?.stop();
  await site?.close();
  await t?.dispose();
});

/** The error createCrawl threw, as the API answers it. */
async function apiError(promise: Promise<unknown>): Promise<{ status: number; error: { code: string; message: string; fields?: Record<string, string> } }> {
  let thrown: unknown;
  try {
    await promise;
  } catch (error) {
    thrown = error;
  }
  expect(thrown, "expected a refusal").toBeDefined();
  const response = toErrorResponse(thrown);
  return { status: response.status, ...((await response.json()) as { error: { code: string; message: string; fields?: Record<string, string> } }) };
}

const settings = (extra: Record<string, unknown> = {}) => ({ rootUrl: site.rootUrl, seed: 2, budget: { requests: 20 }, politeness: { delayMs: 0, obeyRobots: false }, ...extra });

async function storedConfig(crawlId: number): Promise<Record<string, unknown>> {
  const row = await t.db.crawl.findUniqueOrThrow({ where: { id: crawlId }, select: { config: true } });
  return JSON.parse(row.config) as Record<string, unknown>;
}

async function runCrawl(crawlId: number, forage = t.config) {
  await runStoredCrawl({ db: t.db, forage, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
  return requestRows(crawlId);
}

/** Counted requests in order, HEADs (link typing) included. */
function requestRows(crawlId: number) {
  return t.db.crawlRequest.findMany({ where: { crawlId, seq: { gt: 0 } }, orderBy: { seq: "asc" }, select: { method: true, url: true, status: true, error: true } });
}

/**
 * The site was crawled: every page was fetched and answered 200. The site has no sitemap, so SB's
 * guess at /sitemap.xml (read right after the root page) is a 404 that reached the site too.
 */
function expectSiteCrawled(rows: Awaited<ReturnType<typeof requestRows>>): void {
  const sitemapGuess = rows.filter((row) => new URL(row.url).pathname === "/sitemap.xml");
  expect(sitemapGuess.map((row) => [row.status, row.error])).toEqual([[404, null]]);
  const pages = rows.filter((row) => !sitemapGuess.includes(row));
  expect(pages.every((row) => row.status === 200 && row.error === null)).toBe(true);
  expect(pages.filter((row) => row.method === "GET").map((row) => new URL(row.url).pathname)).toEqual(["/", "/a", "/b"]);
}

describe("createCrawl (POST /api/crawls) and allowPrivateNetwork", () => {
  it.each([true, false])("refuses allowPrivateNetwork: %s with a 400 naming the field, and stores nothing", async (value) => {
    const before = await t.db.crawl.count();
    const answer = await apiError(createCrawl(t.db, settings({ allowPrivateNetwork: value })));
    expect(answer.status).toBe(400);
    expect(answer.error.code).toBe("invalid_request");
    expect(answer.error.fields).toEqual({ allowPrivateNetwork: ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING });
    expect(ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING).toBe(
      "is set by the server's network policy: an admin adds private networks (FORAGE_PRIVATE_NETWORKS or Settings → Network)",
    );
    expect(await t.db.crawl.count()).toBe(before);
  });

  it("names the other bad fields in the same answer", async () => {
    const answer = await apiError(createCrawl(t.db, settings({ allowPrivateNetwork: true, budget: { requests: 0 }, blocklist: { urlPatterns: ["re:/a(?=b)"] } })));
    expect(answer.error.fields).toEqual({
      allowPrivateNetwork: ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING,
      "budget.requests": "must be at least 1",
      "blocklist.urlPatterns.0": LOOKAHEAD,
    });
  });

  it("refuses a re: URL pattern the linear-time engine cannot run, or that does not compile, next to the field", async () => {
    const answer = await apiError(createCrawl(t.db, settings({ blocklist: { urlPatterns: ["*/ok/*", "re:/(\\w+)/\\1$", "re:[z-a]"] } })));
    expect(answer.status).toBe(400);
    expect(answer.error.fields).toEqual({
      "blocklist.urlPatterns.1": "uses a back-reference (\\1), which Forage's linear-time pattern engine cannot run; repeat the part itself instead",
      "blocklist.urlPatterns.2": "is not a valid regular expression: Range out of order in character class",
    });
  });

  it("stores crawls without the field as public-only, and accepts it from the machine's admin (CLI, tests)", async () => {
    const api = await createCrawl(t.db, settings());
    expect((await storedConfig(api.id)).allowPrivateNetwork).toBe(false);
    const local = await createCrawl(t.db, settings({ allowPrivateNetwork: true }), { asLocalAdmin: true });
    expect((await storedConfig(local.id)).allowPrivateNetwork).toBe(true);
  });
});

describe("live edits", () => {
  it("refuse allowPrivateNetwork as a server setting and URL patterns the engine cannot run, by index, changing nothing", async () => {
    const { id } = await createCrawl(t.db, settings({ blocklist: { urlPatterns: ["*/old/*"] } }));
    const before = await storedConfig(id);
    let error: unknown;
    try {
      await updateLiveSettings(t.db, id, { allowPrivateNetwork: true });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).fields).toEqual({ allowPrivateNetwork: ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING });
    const answer = await apiError(updateLiveSettings(t.db, id, { blocklist: { urlPatterns: ["*/old/*", "re:x(?=y)"] } }));
    expect(answer.status).toBe(400);
    expect(answer.error.fields).toEqual({ "blocklist.urlPatterns.1": LOOKAHEAD });
    expect(await storedConfig(id)).toEqual(before);
    // A safe edit still goes through.
    await updateLiveSettings(t.db, id, { blocklist: { urlPatterns: ["re:/old/\\d+$"] } });
    expect((await storedConfig(id)).blocklist).toMatchObject({ urlPatterns: ["re:/old/\\d+$"] });
  });
});

describe("the admin's network policy (ServerSetting \"network-policy\")", () => {
  it("is empty until saved, then canonical, deduplicated and dated", async () => {
    expect(await getNetworkPolicy(t.db)).toEqual({ privateNetworks: [], updatedAt: null });
    const saved = await saveNetworkPolicy(t.db, ["10.1.2.3/16", " fd00:abcd::/32 ", "10.1.0.0/16", "192.168.7.7"]);
    expect(saved.privateNetworks).toEqual(["10.1.0.0/16", "fd00:abcd::/32", "192.168.7.7/32"]);
    expect(await getNetworkPolicy(t.db)).toEqual(saved);
    expect(saved.updatedAt).toBeInstanceOf(Date);
    expect(await getServerPrivateNetworks(t.db, ["127.0.0.0/8", "10.1.0.0/16"])).toEqual(["127.0.0.0/8", "10.1.0.0/16", "fd00:abcd::/32", "192.168.7.7/32"]);
    await saveNetworkPolicy(t.db, []);
    expect((await getNetworkPolicy(t.db)).privateNetworks).toEqual([]);
  });

  it("refuses bad entries with a 400 naming each, and keeps the saved list", async () => {
    await saveNetworkPolicy(t.db, ["10.0.0.0/8"]);
    const answer = await apiError(saveNetworkPolicy(t.db, ["172.16.0.0/12", "10.0.0.0/33", 42, "intranet"]));
    expect(answer.status).toBe(400);
    expect(answer.error.code).toBe("invalid_request");
    expect(answer.error.fields).toEqual({
      "privateNetworks.1": '"10.0.0.0/33" has an invalid prefix length: expected 0 to 32 after "/"',
      "privateNetworks.2": "must be a string such as 10.0.0.0/8",
      "privateNetworks.3": '"intranet" is not a CIDR: expected an IPv4 or IPv6 address, e.g. 10.0.0.0/8 or fd00::/8',
    });
    expect((await apiError(saveNetworkPolicy(t.db, "10.0.0.0/8"))).error.fields).toEqual({ privateNetworks: 'must be a list of CIDRs, e.g. ["10.0.0.0/8"]' });
    expect((await getNetworkPolicy(t.db)).privateNetworks).toEqual(["10.0.0.0/8"]);
    await saveNetworkPolicy(t.db, []);
  });

  it("fails loudly, not open, when the stored value is unreadable", async () => {
    await t.db.serverSetting.update({ where: { key: NETWORK_POLICY_KEY }, data: { value: '{"privateNetworks":"127.0.0.0/8"}' } });
    await expect(getNetworkPolicy(t.db)).rejects.toThrow('The saved network policy (server setting "network-policy") is unreadable');
    const { id } = await createCrawl(t.db, settings());
    await expect(runCrawl(id)).rejects.toThrow("unreadable");
    const row = await t.db.crawl.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ status: "failed", stopReason: "failed" });
    expect(row.stopDetail).toContain("Settings → Network");
    expect(await t.db.crawlRequest.count({ where: { crawlId: id } })).toBe(0);
    await saveNetworkPolicy(t.db, []);
  });
});

describe("stored crawls run with FORAGE_PRIVATE_NETWORKS ∪ the admin's list, read when they start", () => {
  it("refuses the 127.0.0.1 site of an API crawl while no policy covers it, with the reason in the request log", async () => {
    const before = site.log.length;
    const { id } = await createCrawl(t.db, settings());
    const rows = await runCrawl(id);
    expect(rows).toEqual([
      { method: "GET", url: site.rootUrl, status: null, error: "private-network-refused: refused: 127.0.0.1 is a loopback address not in the server's network policy" },
    ]);
    expect(site.log.length).toBe(before);
  });

  it("reaches it once the admin saves a CIDR covering it", async () => {
    await saveNetworkPolicy(t.db, ["127.0.0.1/32"]);
    try {
      const { id } = await createCrawl(t.db, settings());
      expectSiteCrawled(await runCrawl(id));
    } finally {
      await saveNetworkPolicy(t.db, []);
    }
  });

  it("reaches it when FORAGE_PRIVATE_NETWORKS covers it", async () => {
    const { id } = await createCrawl(t.db, settings());
    expectSiteCrawled(await runCrawl(id, { ...t.config, privateNetworks: ["127.0.0.0/8"] }));
  });

  it("a crawl the local CLI stored with allowPrivateNetwork keeps it without any policy", async () => {
    const { id } = await createCrawl(t.db, settings({ allowPrivateNetwork: true }), { asLocalAdmin: true });
    expectSiteCrawled(await runCrawl(id));
  });

  it("a worker process started with FORAGE_PRIVATE_NETWORKS runs an API crawl on the 127.0.0.1 site", async () => {
    const { id } = await createCrawl(t.db, settings());
    worker = startNodeProcess(["bin/forage.mjs", "worker", "--concurrency", "1"], {
      DATABASE_URL: t.config.databaseUrl,
      FORAGE_DATA_DIR: t.config.dataDir,
      FORAGE_PRIVATE_NETWORKS: "192.168.0.0/16, 127.0.0.1",
    });
    const done = await pollUntil(
      "crawl finished by the worker",
      () => t.db.crawl.findUniqueOrThrow({ where: { id } }),
      (row) => row.status === "finished" || row.status === "failed",
      { timeoutMs: 60_000, pollMs: 50, context: () => worker?.output() ?? "" },
    );
    expect(done.status, worker.output()).toBe("finished");
    expectSiteCrawled(await requestRows(id));
    await worker.stop();
    worker = null;
  });

  it("a worker process refuses to start on a bad FORAGE_PRIVATE_NETWORKS, naming it", async () => {
    const bad = startNodeProcess(["bin/forage.mjs", "worker"], { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.config.dataDir, FORAGE_PRIVATE_NETWORKS: "10.0.0.0/8,10.0.0.0/40" });
    const code = await new Promise<number | null>((resolve) => bad.child.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(bad.output()).toContain('FORAGE_PRIVATE_NETWORKS: "10.0.0.0/40" has an invalid prefix length');
  });
});

it("CrawlConfigError stays the class of a settings refusal (the API maps it to 400)", async () => {
  await expect(createCrawl(t.db, settings({ allowPrivateNetwork: true }))).rejects.toBeInstanceOf(CrawlConfigError);
});
