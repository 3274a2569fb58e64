/**
 * "New and changed files" of a re-crawl as a ZIP with its manifest, and each file's history
 * (first and last run that saw it, versions) in the manifest, on a real first crawl and
 * re-crawl of the evolving simulator; archives checked with Info-ZIP's `unzip`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { apiRequest, closeRouteDatabase, ctx, expectError, openRouteDatabase, url } from "../helpers/api-routes";
import { parseCsv } from "../helpers/csv";
import type { TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let site: RunningEvolvingSite;
let zipRoute: typeof import("@/app/api/crawls/[id]/export.zip/route");
let first = 0;
let second = 0;

beforeAll(async () => {
  t = await openRouteDatabase();
  site = await startEvolvingSite({ items: 30, seed: 6 });
  zipRoute = await import("@/app/api/crawls/[id]/export.zip/route");
  const base = { rootUrl: site.rootUrl, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 2 };
  ({ id: first } = await createCrawl(t.db, base, { asLocalAdmin: true }));
  await run(first);
  site.version = 2;
  ({ id: second } = await createCrawl(t.db, { ...base, after: first, checkKnownFiles: true }, { asLocalAdmin: true }));
});

afterAll(async () => {
  await site?.close();
  await closeRouteDatabase(t);
});

async function run(crawlId: number) {
  await runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal, privateNetworks: ["127.0.0.0/8"] });
}

async function download(id: number, query: string): Promise<string> {
  const response = await zipRoute.GET(apiRequest(url(`/api/crawls/${id}/export.zip${query}`)), ctx(id));
  expect(response.status).toBe(200);
  const file = path.join(t.config.dataDir, `dl-${id}-${Math.random().toString(36).slice(2)}.zip`);
  fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return file;
}
const unzipList = (file: string) => execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n");
const manifestOf = (file: string) => {
  const [head, ...rows] = parseCsv(execFileSync("unzip", ["-p", file, "manifest.csv"], { encoding: "utf8" }));
  return rows.map((row) => Object.fromEntries(head!.map((column, i) => [column, row[i]!])));
};

describe("export.zip?changes=", () => {
  it("409 before the crawl has a change report, 400 for an unknown kind", async () => {
    await expectError(await zipRoute.GET(apiRequest(url(`/api/crawls/${second}/export.zip?changes=new,changed`)), ctx(second)), 409, "invalid_state");
    const error = await expectError(await zipRoute.GET(apiRequest(url(`/api/crawls/${first}/export.zip?changes=new,deleted`)), ctx(first)), 400, "invalid_request");
    expect(error.fields).toEqual({ changes: "must be a comma-separated list of new, changed, unchanged" });
  });

  it("holds exactly the new and changed files of the re-crawl, with their history in the manifest", async () => {
    await run(second);
    const truth = site.catalogue.changes(1, 2);
    const zip = await download(second, "?changes=new,changed");
    const rows = manifestOf(zip);
    const byPath = new Map(rows.map((row) => [new URL(row.url!).pathname, row]));
    expect([...byPath.keys()].sort()).toEqual([...truth.new, ...truth.changed].sort());
    for (const p of truth.new) expect(byPath.get(p)).toMatchObject({ change: "new", firstSeenCrawlId: String(second), lastSeenCrawlId: String(second) });
    for (const p of truth.changed) {
      const row = byPath.get(p)!;
      expect(row).toMatchObject({ change: "changed", firstSeenCrawlId: String(first), lastSeenCrawlId: String(second) });
      const versions = row.versions!.split(" ").map((v) => v.split(":"));
      expect(versions.map(([crawl]) => Number(crawl))).toEqual([first, second]);
      expect(versions[1]![1]).toBe(row.sha256);
      expect(versions[0]![1]).not.toBe(row.sha256);
    }
    // Every file the manifest names is in the archive, and nothing else.
    const files = unzipList(zip).filter((name) => name.startsWith("files/"));
    expect(files.sort()).toEqual([...new Set(rows.map((row) => row.file!).filter(Boolean))].sort());
    expect(files.length).toBeGreaterThan(0);

    const onlyChanged = manifestOf(await download(second, "?changes=changed"));
    expect(onlyChanged.map((row) => new URL(row.url!).pathname).sort()).toEqual([...truth.changed].sort());
  });

  it("the full export of a first crawl marks every file new, first and last seen in it", async () => {
    const rows = manifestOf(await download(first, ""));
    expect(rows.length).toBe(await t.db.target.count({ where: { crawlId: first } }));
    for (const row of rows) expect(row).toMatchObject({ change: "new", firstSeenCrawlId: String(first), lastSeenCrawlId: String(first) });
  });
});
