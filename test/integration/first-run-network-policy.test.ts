/**
 * A root URL the network policy refuses is refused when the crawl is created (API 400 with a
 * `rootUrl` field error naming the policy; the CLI's one line, exit 2), not accepted and then
 * failed with another reason when the worker runs it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveNetworkPolicy } from "../../lib/store";
import { closeRouteDatabase, createCrawlThroughApi, expectError, openRouteDatabase, postCrawl } from "../helpers/api-routes";
import { runForageCli } from "../helpers/forage-cli";
import type { TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let crawlsRoute: typeof import("@/app/api/crawls/route");
let dir: string;

beforeAll(async () => {
  t = await openRouteDatabase();
  crawlsRoute = await import("@/app/api/crawls/route");
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-first-run-policy-"));
});

afterAll(async () => {
  await closeRouteDatabase(t);
  fs.rmSync(dir, { recursive: true, force: true });
});

const PRIVATE = /^is a private or reserved address \(.+\); an admin can allow private networks in Settings$/;

describe("POST /api/crawls checks the root URL against the network policy", () => {
  it.each([
    ["http://169.254.169.254/", "is a cloud-metadata address (169.254.169.254): no crawl or webhook may reach it, whatever the network policy"],
    ["http://10.1.2.3/data/", "is a private or reserved address (10.1.2.3: a private address); an admin can allow private networks in Settings"],
    ["http://[::1]:8080/", "is a private or reserved address (::1: a loopback address); an admin can allow private networks in Settings"],
    ["http://localhost:3000/", "is a private or reserved address (localhost, 127.0.0.1: a loopback address); an admin can allow private networks in Settings"],
  ])("refuses %s with 400 and a rootUrl field error; nothing is stored", async (rootUrl, message) => {
    const before = await t.db.crawl.count();
    const error = await expectError(await crawlsRoute.POST(postCrawl({ rootUrl })), 400, "invalid_request");
    expect(error.fields).toEqual({ rootUrl: message });
    expect(error.fields!.rootUrl).toMatch(message.startsWith("is a cloud") ? /cloud-metadata/ : PRIVATE);
    expect(await t.db.crawl.count()).toBe(before);
  });

  it("accepts a private address once an admin lists its network in Settings, and a host name without resolving it", async () => {
    await saveNetworkPolicy(t.db, ["10.0.0.0/8"]);
    try {
      expect(await createCrawlThroughApi(crawlsRoute, { rootUrl: "http://10.1.2.3/data/" })).toEqual(expect.any(Number));
      // The metadata address stays refused whatever the list says.
      await saveNetworkPolicy(t.db, ["169.254.0.0/16"]);
      const error = await expectError(await crawlsRoute.POST(postCrawl({ rootUrl: "http://169.254.169.254/" })), 400, "invalid_request");
      expect(error.fields!.rootUrl).toMatch(/cloud-metadata/);
    } finally {
      await saveNetworkPolicy(t.db, []);
    }
    // Names are checked on every connection by the worker (DNS may answer otherwise by then).
    expect(await createCrawlThroughApi(crawlsRoute, { rootUrl: "https://intranet.example.org/" })).toEqual(expect.any(Number));
  });
});

describe("forage crawl checks the root URL before storing the crawl", () => {
  it.each([
    ["http://169.254.169.254/", "forage crawl: <rootUrl> http://169.254.169.254/ is a cloud-metadata address (169.254.169.254): no crawl or webhook may reach it, whatever the network policy"],
    [
      "http://127.0.0.1:9/",
      "forage crawl: <rootUrl> http://127.0.0.1:9/ is a private or reserved address (127.0.0.1: a loopback address); pass --allow-private-network (you are the admin here), or list it in FORAGE_PRIVATE_NETWORKS or Settings → Network",
    ],
  ])("refuses %s with exit 2 and one line", async (rootUrl, message) => {
    const run = await runForageCli(["crawl", rootUrl, "--db", `file:${path.join(dir, "cli.db")}`, "--out", dir], { FORAGE_PRIVATE_NETWORKS: "" });
    expect(run.stderr.trim()).toBe(message);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
  });
});
