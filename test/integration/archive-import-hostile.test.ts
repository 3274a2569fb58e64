/**
 * `forage import` attacked with crafted archives. Each runs the CLI in a child process with its
 * heap capped, its resident memory watched and a deadline: the import must end with exit 2 and
 * one line naming the file, the entry and what is wrong — never a native abort (134), a heap
 * exhaustion, a hang, or a crawl row left behind.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDLESS_HTTP_LINE, endlessLineGzip, hugeDirectoryWacz, responseRecord, validWarc, writeSparseEndlessWarc, zipBombWacz } from "../helpers/hostile-archives";
import { runCappedCli } from "../helpers/memory-capped-cli";
import { buildZip } from "../helpers/zip-builder";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

/** Resident memory the import may reach (the CLI with Prisma and tsx idles near 200 MiB). */
const RSS_CAP_MIB = 400;

let t: TestDatabase;
let dir: string;

beforeAll(async () => {
  t = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "forage-hostile-"));
});
afterAll(async () => {
  await t?.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, bytes: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return file;
}

/** Imports `file` under the caps; expects a refusal: exit 2, one line naming the file and `problem`, no crawl left. */
async function expectRefused(file: string, problem: RegExp): Promise<void> {
  const crawlsBefore = await t.db.crawl.count();
  const run = await runCappedCli(["import", file], { env: { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.config.dataDir }, rssMiB: RSS_CAP_MIB, timeoutMs: 45_000 });
  const lines = run.stderr.trim().split("\n");
  expect({ code: run.code, timedOut: run.timedOut, lines: lines.length }, run.stderr.slice(0, 2000)).toEqual({ code: 2, timedOut: false, lines: 1 });
  expect(lines[0]).toMatch(new RegExp(`^forage import: .*${path.basename(file).replace(/\./g, "\\.")}`));
  expect(lines[0]).toMatch(problem);
  expect(run.peakRssMiB).not.toBeNull();
  expect(run.peakRssMiB!).toBeLessThan(RSS_CAP_MIB);
  expect(await t.db.crawl.count()).toBe(crawlsBefore);
}

describe("forage import refuses a crafted ZIP with exit 2 and one line", () => {
  it("a 52-byte WACZ whose directory claims 4 GiB", async () => {
    const file = write("huge-directory.wacz", hugeDirectoryWacz());
    expect(fs.statSync(file).size).toBe(52);
    await expectRefused(file, /damaged or unsafe ZIP directory/);
  }, 60_000);

  it("a 300 KB WACZ whose deflated WARC is one 300 MiB header line (a ZIP bomb)", async () => {
    const file = write("bomb.wacz", zipBombWacz(300));
    expect(fs.statSync(file).size).toBeLessThan(400_000);
    await expectRefused(file, /archive\/data\.warc: a ZIP bomb/);
  }, 60_000);

  it("a ZIP bomb whose directory claims a small size", async () => {
    await expectRefused(write("lying-bomb.wacz", zipBombWacz(300, 1000)), /archive\/data\.warc: .*too many bytes/);
  }, 60_000);

  it("a WACZ of 20,000 entries sharing one WARC's bytes", async () => {
    const warc = await validWarc({ gzip: true });
    const entries = Array.from({ length: 20_000 }, (_, i) => ({ name: `archive/${String(i).padStart(5, "0")}.warc.gz`, data: warc, ...(i > 0 ? { sameBytesAs: 0 } : {}) }));
    await expectRefused(write("many-entries.wacz", buildZip(entries)), /20000 ZIP entries/);
  }, 60_000);

  it("a WACZ whose two entries point at the same bytes", async () => {
    const warc = await validWarc({ gzip: true });
    const file = write("overlap.wacz", buildZip([{ name: "archive/a.warc.gz", data: warc }, { name: "archive/b.warc.gz", data: warc, sameBytesAs: 0 }]));
    await expectRefused(file, /archive\/b\.warc\.gz: the local header names another entry/);
  }, 60_000);

  it("a WACZ with an entry named ../ (zip slip)", async () => {
    const warc = await validWarc({ gzip: true });
    const file = write("slip.wacz", buildZip([{ name: "archive/data.warc.gz", data: warc }, { name: "../../../tmp/evil.warc.gz", data: warc }]));
    await expectRefused(file, /invalid relative path: \.\.\/\.\.\/\.\.\/tmp\/evil/);
  }, 60_000);
});

describe("forage import refuses an endless header line with exit 2 and one line", () => {
  it("an HTTP header line in a WACZ's stored .warc.gz (300 KB inflating to 300 MiB)", async () => {
    const file = write("endless-line.wacz", buildZip([{ name: "archive/data.warc.gz", data: endlessLineGzip(300, ENDLESS_HTTP_LINE) }]));
    expect(fs.statSync(file).size).toBeLessThan(400_000);
    await expectRefused(file, /archive\/data\.warc\.gz: record 1: its WARC and HTTP headers run past 1048576 bytes/);
  }, 60_000);

  it("an HTTP header line in a .warc.gz", async () => {
    await expectRefused(write("endless-http-line.warc.gz", endlessLineGzip(300, ENDLESS_HTTP_LINE)), /headers run past 1048576 bytes/);
  }, 60_000);

  it("the WARC line in a .warc.gz", async () => {
    await expectRefused(write("endless-line.warc.gz", endlessLineGzip(300)), /header line over 65536 bytes without its line end/);
  }, 60_000);

  it("in a plain .warc (1 GiB, sparse)", async () => {
    const file = path.join(dir, "endless-line.warc");
    writeSparseEndlessWarc(file, 1024);
    await expectRefused(file, /header line over 65536 bytes/);
  }, 60_000);

  it("in a WACZ's deflated .warc under the bomb ratio", async () => {
    // 0.9 MiB inflated: under the ZIP bomb floor, so it is warcio's line bound that refuses it.
    await expectRefused(write("deflated-line.wacz", buildZip([{ name: "archive/data.warc", data: Buffer.alloc(900 * 1024, "A"), method: 8 }])), /header line over 65536 bytes/);
  }, 60_000);
});

describe("forage import refuses a truncated archive with exit 2 and one line", () => {
  it("a .warc.gz whose last gzip member is cut inside the record", async () => {
    const warc = await validWarc({ gzip: true });
    await expectRefused(write("cut-member.warc.gz", warc.subarray(0, warc.length - 40)), /gzip member cut short/);
  }, 60_000);

  it("a .warc.gz whose last gzip member lost its trailer", async () => {
    const warc = await validWarc({ gzip: true });
    await expectRefused(write("cut-trailer.warc.gz", warc.subarray(0, warc.length - 4)), /gzip member cut short/);
  }, 60_000);

  it("a plain .warc whose last record is cut short", async () => {
    const warc = await validWarc({ gzip: false });
    await expectRefused(write("cut-record.warc", warc.subarray(0, warc.length - 20)), /record 2: cut short \(\d+ of its bytes missing/);
  }, 60_000);
});

describe("forage import leaves no crawl behind when it refuses an archive late", () => {
  it("an archive without an HTML page, imported with --root: the crawl row and its files are deleted", async () => {
    const file = write("csv-only.warc.gz", await responseRecord("http://archived.example.org/data.csv", { gzip: true, type: "text/csv" }));
    const crawlsBefore = await t.db.crawl.count();
    const folders = () => (fs.existsSync(path.join(t.config.dataDir, "crawls")) ? fs.readdirSync(path.join(t.config.dataDir, "crawls")).sort() : []);
    const foldersBefore = folders();
    const run = await runCappedCli(["import", file, "--root", "http://archived.example.org/"], { env: { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.config.dataDir }, rssMiB: RSS_CAP_MIB });
    expect({ code: run.code, stderr: run.stderr.trim() }).toEqual({ code: 2, stderr: `forage import: ${file}: no HTML page answered 200 in the archive: nothing to replay` });
    expect(await t.db.crawl.count()).toBe(crawlsBefore);
    expect(await t.db.target.count()).toBe(0);
    expect(folders()).toEqual(foldersBefore);
  }, 60_000);
});

describe("forage import still reads valid archives", () => {
  it("imports a valid WACZ holding a deflated .warc", async () => {
    const warc = zlib.gunzipSync(await validWarc({ gzip: true }));
    const file = write("valid.wacz", buildZip([{ name: "archive/data.warc", data: warc, method: 8 }]));
    const run = await runCappedCli(["import", file, "--json"], { env: { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.config.dataDir }, rssMiB: RSS_CAP_MIB });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ requests: 2, pages: 2 });
  }, 60_000);
});
