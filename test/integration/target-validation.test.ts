import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOT_A_TARGET } from "../../lib/crawler/engine/request-runner";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { streamManifestCsv } from "../../lib/export/manifest";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { page, startRouteSite, testCrawlConfig, type TestSite } from "../helpers/crawl-fixtures";
import { parseCsv } from "../helpers/csv";
import { minimalPdf } from "../helpers/preview-files";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

const SIGN_IN = `<!DOCTYPE html><html><head><title>Sign in</title></head><body><form action="/login" method="post"><input name="user"><input type="password" name="password"></form></body></html>`;
const TABLE = "region,value\nnorth,1\nsouth,2\n";

let t: TestDatabase;
let site: TestSite;
let crawlId: number;

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startRouteSite({
    "/": page(["/data.csv", "/export?id=2", "/table.csv", "/mislabelled.xls", "/report.pdf"]),
    // A sign-in wall where the file was: the URL and a generic type say CSV, the bytes say HTML.
    "/data.csv": { type: "application/octet-stream", body: SIGN_IN },
    // An export script's sign-in page, sent as an attachment named like the file.
    "/export?id=2": { type: "text/html; charset=utf-8", body: SIGN_IN, headers: { "content-disposition": 'attachment; filename="export-2.csv"' } },
    // A real CSV without a proper type: a target.
    "/table.csv": { type: "application/octet-stream", body: TABLE },
    // A CSV labelled as an old Excel file: kept, its mismatch recorded.
    "/mislabelled.xls": { type: "application/vnd.ms-excel", body: TABLE },
    "/report.pdf": { type: "application/pdf", body: minimalPdf(["Annual report"]) },
  });
  crawlId = await insertCrawl(t.db, testCrawlConfig({ rootUrl: site.rootUrl, strategy: "bfs" }));
  await runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
});
afterAll(async () => {
  await site.close();
  await t.dispose();
});

describe("targets validated by their first bytes, over HTTP", () => {
  it("keeps the CSV served as application/octet-stream and refuses the HTML served for .csv URLs", async () => {
    expect(site.saw("/data.csv") && site.saw("/export?id=2")).toBe(true);
    const targets = await t.db.target.findMany({ where: { crawlId }, orderBy: { url: "asc" } });
    const byPath = new Map(targets.map((target) => [new URL(target.url).pathname, target]));
    expect([...byPath.keys()].sort()).toEqual(["/mislabelled.xls", "/report.pdf", "/table.csv"]);
    expect(byPath.get("/table.csv")).toMatchObject({ mime: "text/csv", detectedMime: "text/csv", typeMatch: true });
    expect(byPath.get("/mislabelled.xls")).toMatchObject({ mime: "application/vnd.ms-excel", detectedMime: "text/csv", typeMatch: false });
    expect(byPath.get("/report.pdf")).toMatchObject({ detectedMime: "application/pdf", typeMatch: true });
  });

  it("records why in the request rows and the crawl's events; counts the bodies as non-target answers", async () => {
    const rows = await t.db.crawlRequest.findMany({ where: { crawlId, method: "GET" }, orderBy: { seq: "asc" } });
    for (const suffix of ["/data.csv", "/export?id=2"]) {
      const row = rows.find((r) => r.url.endsWith(suffix))!;
      expect(row).toMatchObject({ status: 200, mime: "text/csv", isTarget: false, outcome: "ok" });
      expect(row.error).toMatch(new RegExp(`^${NOT_A_TARGET}: an HTML page .* counted as text/csv`));
    }
    const events = await t.db.crawlEvent.findMany({ where: { crawlId, kind: NOT_A_TARGET } });
    expect(events.map((event) => event.message).sort()).toEqual([expect.stringContaining("/data.csv"), expect.stringContaining("/export?id=2")]);
    const crawl = await t.db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
    expect(crawl.targetsCount).toBe(3);
    expect(rows.filter((row) => row.isTarget).length).toBe(3);
    const targetBytes = rows.filter((row) => row.isTarget).reduce((sum, row) => sum + row.bytes, 0);
    expect(Number(crawl.targetBytes)).toBe(targetBytes);
  });

  it("stores no file for a refused body", async () => {
    const targets = await t.db.target.findMany({ where: { crawlId } });
    const folder = path.join(t.config.dataDir, "crawls", String(crawlId), "files");
    const stored = fs.readdirSync(folder).filter((name) => /^[0-9a-f]{64}$/.test(name)).sort();
    expect(stored).toEqual([...new Set(targets.map((target) => target.sha256))].sort());
  });

  it("says in the manifest which type each file's bytes showed and whether it matched", async () => {
    const download = await streamManifestCsv(t.db, t.config, crawlId);
    const [head, ...rows] = parseCsv(await new Response(download.stream).text());
    const column = (name: string) => head!.indexOf(name);
    const byPath = new Map(rows.map((row) => [new URL(row[0]!).pathname, row]));
    expect([...byPath.keys()].sort()).toEqual(["/mislabelled.xls", "/report.pdf", "/table.csv"]);
    expect(byPath.get("/table.csv")![column("detectedMime")]).toBe("text/csv");
    expect(byPath.get("/table.csv")![column("typeMatch")]).toBe("true");
    expect(byPath.get("/mislabelled.xls")![column("typeMatch")]).toBe("false");
  });
});
