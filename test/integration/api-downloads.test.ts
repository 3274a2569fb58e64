import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_NAME_CHARS } from "@/lib/export/file-names";
import { apiRequest, closeRouteDatabase, ctx, openRouteDatabase, type RouteContext } from "../helpers/api-routes";
import type { TestDatabase } from "../helpers/test-database";
import { pollUntil } from "../helpers/poll-until";
import { parseCsv } from "../helpers/csv";

// Route handlers called as plain functions with real Requests, on a real SQLite database and
// real files; archives are checked with Info-ZIP's `unzip`.
let t: TestDatabase;
type Get = (request: Request, context: RouteContext) => Promise<Response>;
let routes: Record<"zip" | "manifestCsv" | "manifestJson" | "requestsCsv", Get>;
let fileRoute: (request: Request, context: { params: Promise<{ id: string; targetId: string }> }) => Promise<Response>;
let crawlId: number;

const get = (route: keyof typeof routes, id: number | string = crawlId) => routes[route](apiRequest(`http://localhost/api/crawls/${id}/x`), ctx(id));
const getFile = (targetId: number | string, id: number | string = crawlId) =>
  fileRoute(apiRequest(`http://localhost/api/crawls/${id}/targets/${targetId}/file`), { params: Promise.resolve({ id: String(id), targetId: String(targetId) }) });

interface Fixture {
  url: string;
  mime: string;
  content: string | null; // null: no file on disk
  storagePath?: string;
}

/** Targets as the worker stores them: content-addressed files under crawls/<id>/files/<sha256>. */
const FIXTURES: Fixture[] = [
  { url: "https://stats.example.org/data/report.csv", mime: "text/csv", content: "a,b\n1,2\n" },
  { url: "https://stats.example.org/other/Report.csv", mime: "text/csv", content: "a,b\n3,4\n" },
  { url: "https://stats.example.org/archive/report.csv?v=2", mime: "text/csv", content: "a,b\n5,6\n" },
  { url: "https://stats.example.org/download.php?id=3", mime: "application/vnd.ms-excel", content: "xls-bytes" },
  { url: "https://stats.example.org/", mime: "application/json; charset=utf-8", content: '{"ok":true}' },
  { url: "https://stats.example.org/files/%E2%80%AEevil%2F..%2F..%2Fetc%0Apasswd.csv", mime: "text/csv", content: "evil" },
  { url: "https://stats.example.org/copy-of-report.csv", mime: "text/csv", content: "a,b\n1,2\n" },
  { url: "https://stats.example.org/gone.pdf", mime: "application/pdf", content: null },
  { url: "https://stats.example.org/escape.csv", mime: "text/csv", content: "secret", storagePath: "../../../etc/passwd" },
  { url: `https://stats.example.org/${"données-".repeat(30)}.csv`, mime: "text/csv", content: "long" },
];

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

beforeAll(async () => {
  t = await openRouteDatabase();
  routes = {
    zip: (await import("@/app/api/crawls/[id]/export.zip/route")).GET,
    manifestCsv: (await import("@/app/api/crawls/[id]/manifest.csv/route")).GET,
    manifestJson: (await import("@/app/api/crawls/[id]/manifest.json/route")).GET,
    requestsCsv: (await import("@/app/api/crawls/[id]/requests.csv/route")).GET,
  };
  fileRoute = (await import("@/app/api/crawls/[id]/targets/[targetId]/file/route")).GET;

  const crawl = await t.db.crawl.create({ data: { rootUrl: "https://stats.example.org/", config: "{}", strategy: "sb", seed: 1, status: "finished" } });
  crawlId = crawl.id;
  const folder = path.join(t.config.dataDir, "crawls", String(crawlId), "files");
  fs.mkdirSync(folder, { recursive: true });
  for (const [i, fixture] of FIXTURES.entries()) {
    const digest = sha(fixture.content ?? fixture.url);
    if (fixture.content !== null) fs.writeFileSync(path.join(folder, digest), fixture.content);
    await t.db.target.create({
      data: {
        crawlId,
        url: fixture.url,
        mime: fixture.mime,
        bytes: Buffer.byteLength(fixture.content ?? ""),
        sha256: digest,
        storagePath: fixture.storagePath ?? `crawls/${crawlId}/files/${digest}`,
        sourceUrl: "https://stats.example.org/index.html",
        tagPath: i === 0 ? "=HYPERLINK(\"http://evil\")" : "/html/body/ul/li/a",
        requestSeq: i + 1,
        fetchedAt: new Date(Date.UTC(2024, 0, 2, 3, 4, 5 + i)),
      },
    });
  }
});

afterAll(() => closeRouteDatabase(t));


async function downloadZip(id: number = crawlId): Promise<string> {
  const response = await get("zip", id);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/zip");
  expect(response.headers.get("content-disposition")).toContain(`crawl-${id}-stats.example.org.zip`);
  const file = path.join(t.dir, `export-${id}-${Date.now()}.zip`);
  fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  execFileSync("unzip", ["-tq", file]); // throws on a corrupt archive
  return file;
}

const unzipList = (file: string) => execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n");
const unzipRead = (file: string, entry: string) => execFileSync("unzip", ["-p", file, entry], { encoding: "utf8" });

describe("GET /api/crawls/:id/export.zip", () => {
  it("streams every target under files/ with safe unique names, then manifest.csv and manifest.json", async () => {
    const zip = await downloadZip();
    const names = unzipList(zip);
    expect(names.slice(-2)).toEqual(["manifest.csv", "manifest.json"]);
    const files = names.slice(0, -2);
    expect(files.slice(0, 5)).toEqual(["files/report.csv", "files/Report-2.csv", "files/report-3.csv", "files/download.xls", "files/stats.example.org.json"]);
    for (const name of files) {
      expect(name.startsWith("files/")).toBe(true);
      const base = name.slice("files/".length);
      expect(base).not.toMatch(/[/\\\u0000-\u001f\u202e]|^\./);
      expect(Array.from(base).length).toBeLessThanOrEqual(MAX_NAME_CHARS);
    }
    expect(files).toHaveLength(7); // 10 targets - 1 duplicate content - 2 missing
    expect(unzipRead(zip, "files/report-3.csv")).toBe("a,b\n5,6\n");
    expect(unzipRead(zip, "files/stats.example.org.json")).toBe('{"ok":true}');
  });

  it("writes a manifest that matches the database, with missing files flagged and duplicates sharing a file", async () => {
    const zip = await downloadZip();
    const rows = parseCsv(unzipRead(zip, "manifest.csv"));
    expect(rows[0]).toEqual(["url", "file", "mime", "bytes", "sha256", "sourceUrl", "tagPath", "fetchedAt", "note", "change", "firstSeenCrawlId", "lastSeenCrawlId", "versions", "warcFile", "warcRecordId", "recordTitle", "recordPage", "detectedMime", "typeMatch"]);
    const targets = await t.db.target.findMany({ where: { crawlId }, orderBy: { id: "asc" } });
    expect(rows.slice(1).map((row) => row[0])).toEqual(targets.map((target) => target.url));
    expect(rows.slice(1).map((row) => row[4])).toEqual(targets.map((target) => target.sha256));
    expect(rows.slice(1).map((row) => Number(row[3]))).toEqual(targets.map((target) => target.bytes));
    const byUrl = new Map(rows.slice(1).map((row) => [row[0], row]));
    expect(byUrl.get("https://stats.example.org/copy-of-report.csv")?.slice(1, 2)).toEqual(["files/report.csv"]);
    expect(byUrl.get("https://stats.example.org/copy-of-report.csv")?.[8]).toBe("same content as an earlier target");
    expect(byUrl.get("https://stats.example.org/gone.pdf")?.[1]).toBe("");
    expect(byUrl.get("https://stats.example.org/gone.pdf")?.[8]).toBe("missing on disk");
    expect(byUrl.get("https://stats.example.org/escape.csv")?.[8]).toBe("missing on disk"); // never read outside the data folder
    expect(rows[1]?.[6]).toBe("'=HYPERLINK(\"http://evil\")"); // formula neutralised
    expect(rows[1]?.[7]).toBe("2024-01-02T03:04:05.000Z");
    const listed = new Set(unzipList(zip));
    for (const row of rows.slice(1)) if (row[1]) expect(listed.has(row[1]!)).toBe(true);

    const json = JSON.parse(unzipRead(zip, "manifest.json")) as { crawl: { id: number }; targets: Record<string, unknown>[] };
    expect(json.crawl.id).toBe(crawlId);
    expect(json.targets.map((target) => target.file)).toEqual(rows.slice(1).map((row) => row[1]));
    expect(json.targets[0]).toMatchObject({ url: FIXTURES[0]!.url, bytes: 8, tagPath: "=HYPERLINK(\"http://evil\")" });
  });

  it("pages through hundreds of targets and keeps reading after the read-ahead window", async () => {
    const crawl = await t.db.crawl.create({ data: { rootUrl: "https://bulk.example.org/", config: "{}", strategy: "sb", seed: 1 } });
    const folder = path.join(t.config.dataDir, "crawls", String(crawl.id), "files");
    fs.mkdirSync(folder, { recursive: true });
    const data = Array.from({ length: 650 }, (_, i) => {
      const content = `row,${i}\n`;
      fs.writeFileSync(path.join(folder, sha(content)), content);
      return { crawlId: crawl.id, url: `https://bulk.example.org/d/${i % 3}/data.csv?i=${i}`, mime: "text/csv", bytes: content.length, sha256: sha(content), storagePath: `crawls/${crawl.id}/files/${sha(content)}`, requestSeq: i + 1 };
    });
    await t.db.target.createMany({ data });
    const response = await get("zip", crawl.id);
    const file = path.join(t.dir, "bulk.zip");
    fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    execFileSync("unzip", ["-tq", file]);
    const names = unzipList(file);
    expect(names).toHaveLength(652);
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(652);
    expect(names[0]).toBe("files/data.csv");
    expect(names[649]).toBe("files/data-650.csv");
    expect(unzipRead(file, "files/data-650.csv")).toBe("row,649\n");
  });

  it("answers 404 JSON for an unknown crawl before streaming anything", async () => {
    const response = await get("zip", 4242);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
    expect((await get("zip", "x1")).status).toBe(404);
  });
});

describe("GET manifest.csv / manifest.json", () => {
  it("serves the manifest alone, identical to the one in the ZIP", async () => {
    const zip = await downloadZip();
    const response = await get("manifestCsv");
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8; header=present");
    expect(response.headers.get("content-disposition")).toContain("-manifest.csv");
    expect(await response.text()).toBe(unzipRead(zip, "manifest.csv"));

    const json = await get("manifestJson");
    expect(json.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const alone = (await json.json()) as { targets: unknown[] };
    const inZip = JSON.parse(unzipRead(zip, "manifest.json")) as { targets: unknown[] };
    expect(alone.targets).toEqual(inZip.targets);
  });

  it("answers 404 for an unknown crawl", async () => {
    expect((await get("manifestCsv", 999)).status).toBe(404);
    expect((await get("manifestJson", "0")).status).toBe(404);
  });
});

describe("GET /api/crawls/:id/targets/:targetId/file", () => {
  it("serves the stored file with its type, length and a safe attachment name", async () => {
    const target = await t.db.target.findFirstOrThrow({ where: { crawlId, url: FIXTURES[4]!.url } });
    const response = await getFile(target.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-length")).toBe("11");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="stats.example.org.json"; filename*=UTF-8''stats.example.org.json`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await response.text()).toBe('{"ok":true}');
  });

  it("encodes a Unicode name in filename* with an ASCII fallback", async () => {
    const target = await t.db.target.findFirstOrThrow({ where: { crawlId, url: FIXTURES[9]!.url } });
    const header = (await getFile(target.id)).headers.get("content-disposition") ?? "";
    expect(header).toMatch(/^attachment; filename="donnees-donnees-[^"]*\.csv"; filename\*=UTF-8''donn%C3%A9es-/);
  });

  it("answers 404 'file missing on disk' when the file is gone", async () => {
    const target = await t.db.target.findFirstOrThrow({ where: { crawlId, url: "https://stats.example.org/gone.pdf" } });
    const response = await getFile(target.id);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { message: string } }).error.message).toMatch(/file missing on disk/);
  });

  it("answers 404 for a target of another crawl, an unknown target or a malformed id", async () => {
    const target = await t.db.target.findFirstOrThrow({ where: { crawlId } });
    const other = await t.db.crawl.create({ data: { rootUrl: "https://o.org/", config: "{}", strategy: "sb", seed: 1 } });
    expect((await getFile(target.id, other.id)).status).toBe(404);
    expect((await getFile(999_999)).status).toBe(404);
    expect((await getFile("../1")).status).toBe(404);
    expect((await getFile(target.id, 777_777)).status).toBe(404);
  });
});

describe("GET /api/crawls/:id/requests.csv", () => {
  it("streams the whole request log as RFC 4180 CSV, oldest first", async () => {
    const crawl = await t.db.crawl.create({ data: { rootUrl: "https://log.example.org/", config: "{}", strategy: "sb", seed: 1 } });
    await t.db.crawlRequest.createMany({
      data: Array.from({ length: 2500 }, (_, i) => ({
        crawlId: crawl.id, seq: i + 1, kind: "page", method: "GET", url: `https://log.example.org/p?a=${i},"q"`, status: 200, bytes: i,
        error: i === 7 ? "=cmd|' /C calc'!A0" : i === 8 ? "line\nbreak" : null, outcome: i === 7 ? "error" : "ok",
      })),
    });
    const response = await get("requestsCsv", crawl.id);
    expect(response.headers.get("content-disposition")).toContain(`crawl-${crawl.id}-log.example.org-requests.csv`);
    const rows = parseCsv(await response.text());
    expect(rows[0]?.slice(0, 6)).toEqual(["id", "seq", "kind", "method", "url", "status"]);
    expect(rows).toHaveLength(2501);
    expect(rows.slice(1).map((row) => Number(row[1]))).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    expect(rows[1]?.[4]).toBe('https://log.example.org/p?a=0,"q"');
    expect(rows[8]?.[15]).toBe("'=cmd|' /C calc'!A0");
    expect(rows[9]?.[15]).toBe("line\nbreak");
    expect(rows[1]?.[13]).toBe("false");
  });
});

describe("zip download cancelled by the client", () => {
  it("stops streaming without errors when the reader cancels after the first chunk", async () => {
    const crawl = await t.db.crawl.create({ data: { rootUrl: "https://cancel.example.org/", config: "{}", strategy: "sb", seed: 1 } });
    const folder = path.join(t.config.dataDir, "crawls", String(crawl.id), "files");
    fs.mkdirSync(folder, { recursive: true });
    const big = "z".repeat(256 * 1024);
    const data = Array.from({ length: 300 }, (_, i) => {
      const content = `${i}${big}`;
      fs.writeFileSync(path.join(folder, String(i)), content);
      return { crawlId: crawl.id, url: `https://cancel.example.org/${i}.txt`, mime: "text/plain", bytes: content.length, sha256: sha(content), storagePath: `crawls/${crawl.id}/files/${i}`, requestSeq: i + 1 };
    });
    await t.db.target.createMany({ data });
    const openFiles = () => fs.readdirSync("/proc/self/fd").length;
    await get("zip", 4242); // opens the server's database connection first
    const before = openFiles();
    const response = await get("zip", crawl.id);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await reader.cancel();
    // The pump must notice the closed output, close the file it was reading and stop quietly.
    await pollUntil("the file closed", openFiles, (open) => open <= before, { timeoutMs: 5_000, pollMs: 50 });
  });
});
