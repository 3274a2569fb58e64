import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { apiRequest, closeRouteDatabase, ctx, expectError, openRouteDatabase, url } from "../helpers/api-routes";
import { parseCsv } from "../helpers/csv";
import { page, startRouteSite, testCrawlConfig, type TestSite } from "../helpers/crawl-fixtures";
import { runForageCli } from "../helpers/forage-cli";
import type { TestDatabase } from "../helpers/test-database";
import { digestProblems, parseHttpBlock, parseWarcRecord, readGzipMember, readWarcGz, readZipEntries, type ZipEntryRead } from "../helpers/warc-reader";

let t: TestDatabase;
let site: TestSite;
let crawlId: number;
let plainId: number;
let wacz: Buffer;
/** The GETs the site served to the archived crawl. */
let archivedGets: string[];
let entries: ZipEntryRead[];
type Route = (request: Request, context: ReturnType<typeof ctx>) => Promise<Response>;
let waczRoute: Route;
let manifestRoute: Route;

const titled = (title: string, links: string[]) => page(links).replace("<html>", `<html><head><title>${title}</title></head>`);
const sha256 = (bytes: Buffer) => `sha256:${createHash("sha256").update(bytes).digest("hex")}`;

beforeAll(async () => {
  t = await openRouteDatabase();
  waczRoute = (await import("@/app/api/crawls/[id]/export.wacz/route")).GET;
  manifestRoute = (await import("@/app/api/crawls/[id]/manifest.csv/route")).GET;
  site = await startRouteSite({
    "/": titled("Statistics &amp; data", ["/list", "/zipped", "/a.csv", "/b.csv"]),
    "/list": titled("The list", ["/c.csv", "/a.csv"]),
    "/zipped": { type: "text/html", body: zlib.gzipSync(titled("Zipped page", ["/c.csv"])), headers: { "content-encoding": "gzip" } },
    "/a.csv": { type: "text/csv", body: "a,b\n1,2\n" },
    "/b.csv": { type: "text/csv", body: "a,b\n1,2\n" },
    "/c.csv": { type: "text/csv", body: "c\n3\n" },
  });
  const config = testCrawlConfig({ rootUrl: site.rootUrl, strategy: "bfs" });
  crawlId = await insertCrawl(t.db, config);
  await runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
  archivedGets = site.log.filter((r) => r.method === "GET").map((r) => r.path);
  plainId = await insertCrawl(t.db, { ...config, archive: { ...config.archive, keepWarc: false } });
  await runStoredCrawl({ db: t.db, forage: t.config, crawlId: plainId, politeness: new HostPoliteness(), signal: new AbortController().signal });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-wacz-"));
  const file = path.join(dir, "crawl.wacz");
  const run = await runForageCli(["export", String(crawlId), "--wacz", file], { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.config.dataDir });
  expect(run.stderr).toContain("Wrote");
  expect(run.code).toBe(0);
  wacz = fs.readFileSync(file);
  entries = readZipEntries(wacz);
}, 60_000);
afterAll(async () => {
  await site?.close();
  await closeRouteDatabase(t);
});

const entry = (name: string) => entries.find((e) => e.name === name)!;

describe("forage export --wacz (read with a test-only ZIP/WARC/CDXJ reader)", () => {
  it("packages WACZ 1.1.1: archive/, indexes/index.cdxj, pages/pages.jsonl, datapackage.json last but its digest, every entry STOREd", () => {
    const names = entries.map((e) => e.name);
    expect(names.filter((n) => n.startsWith("archive/")).every((n) => n.endsWith(".warc.gz"))).toBe(true);
    expect(names.filter((n) => n.startsWith("archive/")).length).toBeGreaterThan(0);
    expect(names.slice(-4)).toEqual(["indexes/index.cdxj", "pages/pages.jsonl", "datapackage.json", "datapackage-digest.json"]);
    for (const e of entries) expect(e.method, e.name).toBe(0);
  });

  it("lists every other entry in datapackage.json with its sha256 hash and size, and digests datapackage.json", () => {
    const datapackage = JSON.parse(entry("datapackage.json").data.toString()) as { wacz_version: string; resources: { name: string; path: string; hash: string; bytes: number }[]; mainPageUrl?: string };
    expect(datapackage.wacz_version).toBe("1.1.1");
    expect(datapackage.mainPageUrl).toBe(site.rootUrl);
    const others = entries.filter((e) => !e.name.startsWith("datapackage"));
    expect(datapackage.resources.map((r) => r.path).sort()).toEqual(others.map((e) => e.name).sort());
    for (const resource of datapackage.resources) {
      const data = entry(resource.path).data;
      expect(resource.hash, resource.path).toBe(sha256(data));
      expect(resource.bytes, resource.path).toBe(data.length);
      expect(resource.name).toBe(path.basename(resource.path).toLowerCase());
    }
    const digest = JSON.parse(entry("datapackage-digest.json").data.toString()) as { path: string; hash: string };
    expect(digest).toMatchObject({ path: "datapackage.json", hash: sha256(entry("datapackage.json").data) });
  });

  it("keeps WARC records whose digests verify, and a CDXJ index in byte order whose offsets land on record starts inside the ZIP", () => {
    const lines = entry("indexes/index.cdxj").data.toString().trim().split("\n");
    expect([...lines].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))).toEqual(lines);
    for (const e of entries.filter((x) => x.name.startsWith("archive/"))) expect(digestProblems(readWarcGz(e.data))).toEqual([]);
    expect(lines.map((l) => new URL((JSON.parse(l.slice(l.indexOf("{"))) as { url: string }).url).pathname).sort()).toEqual([...archivedGets].sort());
    for (const line of lines) {
      const fields = JSON.parse(line.slice(line.indexOf("{"))) as Record<string, string>;
      const warc = entry(`archive/${fields.filename}`);
      // Read from the WACZ's bytes at the entry's data offset + the record offset: what a range reader does.
      const start = warc.dataOffset + Number(fields.offset);
      const member = readGzipMember(wacz, start);
      expect(member.length).toBe(Number(fields.length));
      const record = parseWarcRecord(member.data, start, member.length);
      expect(record.field("WARC-Target-URI")).toBe(fields.url);
      expect(record.field("WARC-Record-ID")).toBe(fields.recordId);
      expect(["response", "revisit"]).toContain(record.type);
      expect(line.split(" ")[0]).toMatch(/^127\.0\.0\.1:\d+\)\//); // SURT keeps an IP address in order
    }
  });

  it("lists the HTML pages with their titles in pages.jsonl, gzip-encoded ones too", () => {
    const [header, ...pages] = entry("pages/pages.jsonl").data.toString().trim().split("\n").map((l) => JSON.parse(l) as Record<string, string>);
    expect(header).toMatchObject({ format: "json-pages-1.0" });
    const titles = Object.fromEntries(pages.map((p) => [new URL(p.url!).pathname, p.title]));
    expect(titles).toEqual({ "/": "Statistics & data", "/list": "The list", "/zipped": "Zipped page" });
    for (const p of pages) expect(p.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
});

describe("GET /api/crawls/:id/export.wacz and the manifest's WARC columns", () => {
  it("streams the same WACZ contents to a signed-in user", async () => {
    const response = await waczRoute(apiRequest(url(`/api/crawls/${crawlId}/export.wacz`)), ctx(crawlId));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain(".wacz");
    const body = Buffer.from(await response.arrayBuffer());
    const names = readZipEntries(body).map((e) => e.name);
    expect(names).toEqual(entries.map((e) => e.name));
  });

  it("refuses an anonymous caller, an unknown crawl, and a crawl that kept no archive, with clear errors", async () => {
    await expectError(await waczRoute(apiRequest(url(`/api/crawls/${crawlId}/export.wacz`), { anonymous: true }), ctx(crawlId)), 401, "unauthorized");
    await expectError(await waczRoute(apiRequest(url("/api/crawls/999999/export.wacz")), ctx(999999)), 404, "not_found");
    const error = await expectError(await waczRoute(apiRequest(url(`/api/crawls/${plainId}/export.wacz`)), ctx(plainId)), 409, "invalid_state");
    expect(error.message).toContain("kept no web archive");
  });

  it("names the WARC file and record of each target in the manifest", async () => {
    const response = await manifestRoute(apiRequest(url(`/api/crawls/${crawlId}/manifest.csv`)), ctx(crawlId));
    const [head, ...rows] = parseCsv(await response.text());
    expect(head!.slice(-6)).toEqual(["warcFile", "warcRecordId", "recordTitle", "recordPage", "detectedMime", "typeMatch"]);
    expect(rows.length).toBe(3);
    const records = entries.filter((e) => e.name.startsWith("archive/")).flatMap((e) => readWarcGz(e.data).map((r) => ({ ...r, field: r.field, file: e.name.slice(8) })));
    for (const row of rows) {
      const record = records.find((r) => r.field("WARC-Record-ID") === row.at(-5));
      expect(record?.file, row[0]).toBe(row.at(-6));
      expect(record!.field("WARC-Target-URI")).toBe(row[0]);
      expect(parseHttpBlock(record!.block).startLine).toMatch(/ 200 /);
    }
  });
});
