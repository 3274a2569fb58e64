/**
 * The command line on a shared bucket, each step on a "machine" of its own (its own data folder,
 * thrown away after): `forage crawl`, then `forage export --wacz`, then `forage import` of that
 * WACZ, then the imported crawl's ZIP as the dashboard streams it. Every byte passes through the
 * bucket; the imported crawl holds the crawled targets, each file hashing to its row.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../lib/config";
import { streamZipExport } from "../../lib/export";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { parseCsv } from "../helpers/csv";
import { runForageCli } from "../helpers/forage-cli";
import { startS3Server, type TestS3Server } from "../helpers/s3-server";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { readZipEntries } from "../helpers/warc-reader";

let t: TestDatabase;
let s3: TestS3Server;
let site: RunningSite;
let scratch: string;

beforeAll(async () => {
  t = await createTestDatabase();
  s3 = await startS3Server();
  site = await startSiteServer(buildSite({ shape: "statistics-office", seed: 2, size: "tiny" }));
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "forage-cli-bucket-"));
});
afterAll(async () => {
  await site?.close();
  await s3?.close();
  await t?.dispose();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** Runs the CLI as a machine of its own, then throws its folder away. */
async function onMachine(name: string, args: string[]) {
  const dataDir = path.join(scratch, name);
  const run = await runForageCli(args, { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: dataDir, ...s3.env("cli") });
  expect(run.code, run.stderr).toBe(0);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const last = run.stdout.trim().split("\n").pop() ?? "";
  return (last.startsWith("{") ? JSON.parse(last) : {}) as { crawlId: number; targets: number };
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("the command line on a shared bucket (crawl, export --wacz, import, ZIP)", () => {
  it("crawls on one machine, exports the WACZ on another, imports it on a third; the ZIP streamed from the bucket is complete", async () => {
    const crawled = await onMachine("crawler", ["crawl", site.rootUrl, "--budget", "80", "--delay-ms", "0", "--allow-private-network", "--json"]);
    expect(crawled.targets).toBeGreaterThan(5);

    const wacz = path.join(scratch, "crawl.wacz");
    await onMachine("exporter", ["export", String(crawled.crawlId), "--wacz", wacz]);
    expect(readZipEntries(fs.readFileSync(wacz)).some((entry) => entry.name.startsWith("archive/") && entry.name.endsWith(".warc.gz"))).toBe(true);

    const imported = await onMachine("importer", ["import", wacz, "--root", site.rootUrl, "--json"]);
    const original = await t.db.target.findMany({ where: { crawlId: crawled.crawlId }, select: { url: true, sha256: true } });
    const targets = await t.db.target.findMany({ where: { crawlId: imported.crawlId }, select: { url: true, sha256: true, bytes: true } });
    // The import also counts the archived robots.txt (text/plain, a target type) as a target.
    const crawledFiles = (rows: typeof original) => rows.filter((r) => !r.url.endsWith("/robots.txt")).map((r) => `${r.url} ${r.sha256}`).sort();
    expect(crawledFiles(targets)).toEqual(crawledFiles(original));

    const dashboard = loadConfig({ DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: path.join(scratch, "dashboard"), ...s3.env("cli") });
    const download = await streamZipExport(t.db, dashboard, imported.crawlId);
    const zip = readZipEntries(Buffer.from(await new Response(download.stream).arrayBuffer()));
    const [header, ...rows] = parseCsv(zip.find((e) => e.name === "manifest.csv")!.data.toString("utf8")).filter((row) => row.length > 1);
    const col = (name: string) => header!.indexOf(name);
    expect(rows).toHaveLength(targets.length);
    for (const row of rows) {
      expect(row[col("note")]).not.toBe("missing on disk");
      const data = zip.find((e) => e.name === row[col("file")])?.data ?? expect.fail(`no ${row[col("file")]} in the ZIP`);
      expect(sha256(data), row[col("url")]).toBe(row[col("sha256")]);
    }
  }, 120_000);
});
