import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeState } from "@/lib/crawler/engine/engine-state";
import { storageFor } from "@/lib/storage/storage-for";
import { recrawlKey, type ChangeReport } from "@/lib/store/recrawl-store";
import { apiRequest, closeRouteDatabase, ctx, openRouteDatabase, type ErrorBody, type RouteContext } from "../helpers/api-routes";
import { xlsxFile } from "../helpers/preview-files";
import type { TestDatabase } from "../helpers/test-database";

// The preview and version-comparison routes called as plain functions with real Requests, on a
// real database and real files in the storage.
type TargetContext = { params: Promise<{ id: string; targetId: string }> };
let t: TestDatabase;
let previewRoute: (request: Request, context: TargetContext) => Promise<Response>;
let compareRoute: (request: Request, context: RouteContext) => Promise<Response>;
let firstCrawl: number;
let secondCrawl: number;
const ids: Record<string, number> = {};

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const preview = (crawlId: number, targetId: number | string, init: { anonymous?: boolean } = {}) =>
  previewRoute(apiRequest(`http://localhost/api/crawls/${crawlId}/targets/${targetId}/preview`, init), { params: Promise.resolve({ id: String(crawlId), targetId: String(targetId) }) });

async function storeTarget(crawlId: number, url: string, mime: string, bytes: Buffer, detectedMime: string | null = null): Promise<number> {
  const digest = sha(bytes);
  const key = `crawls/${crawlId}/files/${digest}`;
  await storageFor(t.config.dataDir, t.config.storage).put(key, bytes);
  const row = await t.db.target.create({ data: { crawlId, url, mime, bytes: bytes.length, sha256: digest, storagePath: key, requestSeq: 1, detectedMime, typeMatch: detectedMime === null ? null : true } });
  return row.id;
}

const FIRST_CSV = Buffer.from("region,value\nnorth,1\n");
const SECOND_CSV = Buffer.from("region,value\nnorth,1\nsouth,2\neast,3\n");

beforeAll(async () => {
  t = await openRouteDatabase();
  previewRoute = (await import("@/app/api/crawls/[id]/targets/[targetId]/preview/route")).GET;
  compareRoute = (await import("@/app/api/crawls/[id]/changes/compare/route")).GET;
  const crawl = () => t.db.crawl.create({ data: { rootUrl: "https://stats.example.org/", config: "{}", strategy: "sb", seed: 1, status: "finished" } });
  firstCrawl = (await crawl()).id;
  secondCrawl = (await crawl()).id;
  ids.firstCsv = await storeTarget(firstCrawl, "https://stats.example.org/t.csv", "text/csv", FIRST_CSV);
  ids.csv = await storeTarget(secondCrawl, "https://stats.example.org/t.csv", "text/csv", SECOND_CSV, "text/csv");
  ids.xlsx = await storeTarget(secondCrawl, "https://stats.example.org/p.xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", await xlsxFile({ People: [["region", "people"], ["north", 12]] }));
  ids.zip = await storeTarget(secondCrawl, "https://stats.example.org/a.zip", "application/zip", Buffer.from("PK\u0003\u0004 not really"));
  ids.brokenJson = await storeTarget(secondCrawl, "https://stats.example.org/d.json", "application/json", Buffer.from('{"a": '));
  const report: ChangeReport = {
    crawlId: secondCrawl,
    previousCrawlId: firstCrawl,
    checkedKnownFiles: true,
    counts: { new: 0, changed: 1, unchanged: 0, gone: 0 },
    files: [
      {
        url: "https://stats.example.org/t.csv", sha256: sha(SECOND_CSV), bytes: SECOND_CSV.length, mime: "text/csv", etag: null, lastModified: null,
        change: "changed", previousSha256: sha(FIRST_CSV), firstSeenCrawlId: firstCrawl, lastSeenCrawlId: secondCrawl,
        versions: [{ crawlId: firstCrawl, sha256: sha(FIRST_CSV) }, { crawlId: secondCrawl, sha256: sha(SECOND_CSV) }],
      },
    ],
  };
  await storageFor(t.config.dataDir, t.config.storage).put(recrawlKey(secondCrawl, "changes"), encodeState(report));
});

afterAll(() => closeRouteDatabase(t));

describe("GET /api/crawls/:id/targets/:targetId/preview", () => {
  it("previews a stored CSV and XLSX", async () => {
    const csv = await preview(secondCrawl, ids.csv!);
    expect(csv.status).toBe(200);
    expect(await csv.json()).toMatchObject({ kind: "table", format: "csv", sheets: [{ rows: [["region", "value"], ["north", "1"], ["south", "2"], ["east", "3"]] }] });
    const xlsx = await preview(secondCrawl, ids.xlsx!);
    expect(await xlsx.json()).toMatchObject({ kind: "table", format: "xlsx", sheets: [{ name: "People", rows: [["region", "people"], ["north", "12"]] }] });
  });

  it("401 without credentials, 404 for another crawl's target, 422 with the reason for an unpreviewable file", async () => {
    const anonymous = await preview(secondCrawl, ids.csv!, { anonymous: true });
    expect(anonymous.status).toBe(401);
    const foreign = await preview(secondCrawl, ids.firstCsv!);
    expect(foreign.status).toBe(404);
    expect(((await foreign.json()) as ErrorBody).error.code).toBe("not_found");
    const zip = await preview(secondCrawl, ids.zip!);
    expect(zip.status).toBe(422);
    expect(((await zip.json()) as ErrorBody).error).toMatchObject({ code: "unpreviewable", message: expect.stringContaining("no preview for this type") });
    const json = await preview(secondCrawl, ids.brokenJson!);
    expect(json.status).toBe(422);
    expect(((await json.json()) as ErrorBody).error.message).toContain("not valid JSON");
    expect((await preview(secondCrawl, "abc")).status).toBe(404);
  });
});

describe("GET /api/crawls/:id/changes/compare?url=", () => {
  it("tells what changed between the two stored versions", async () => {
    const response = await compareRoute(apiRequest(`http://localhost/api/crawls/${secondCrawl}/changes/compare?url=${encodeURIComponent("https://stats.example.org/t.csv")}`), ctx(secondCrawl));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { before: { rows: number }; after: { rows: number }; differences: string[] };
    expect(body.before.rows).toBe(2);
    expect(body.after.rows).toBe(4);
    expect(body.differences).toEqual([`size ${FIRST_CSV.length} → ${SECOND_CSV.length} bytes`, "rows 2 → 4"]);
  });

  it("404 for a URL the report does not name, 400 without one", async () => {
    expect((await compareRoute(apiRequest(`http://localhost/api/crawls/${secondCrawl}/changes/compare?url=x`), ctx(secondCrawl))).status).toBe(404);
    expect((await compareRoute(apiRequest(`http://localhost/api/crawls/${secondCrawl}/changes/compare`), ctx(secondCrawl))).status).toBe(400);
  });
});
