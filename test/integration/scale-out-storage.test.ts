import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildSite, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { apiRequest, closeRouteDatabase, createCrawlThroughApi, ctx, openRouteDatabase, url } from "../helpers/api-routes";
import { parseCsv } from "../helpers/csv";
import { pollUntil, withDeadline } from "../helpers/poll-until";
import { runForageCli } from "../helpers/forage-cli";
import { kill9, startNodeProcess, type ManagedProcess } from "../helpers/processes";
import { startS3Server, type TestS3Server } from "../helpers/s3-server";
import { describePostgres, type TestDatabase } from "../helpers/test-database";
import { parseHttpBlock, parseWarcRecord, readGzipMember, readZipEntries, type ZipEntryRead } from "../helpers/warc-reader";

// Several machines on this one: PostgreSQL, an S3-compatible server, the dashboard (its API
// route handlers, in this process, with a data folder of its own) and two `forage worker`
// processes, each with its OWN data folder. A crawl is killed (-9) on worker A, whose folder is
// then thrown away as a dead machine's would be, and finished by worker B; the ZIP and the WACZ
// downloaded from the dashboard must hold every target: manifest = database = bytes; a third
// machine replays it offline from the bucket. About 45 s on an idle machine; waits are deadlines
// on progress, so a loaded machine takes longer and a stuck one fails with what it waited for.

let t: TestDatabase;
let s3: TestS3Server;
let site: RunningSite;
let scratch: string;
const workers: ManagedProcess[] = [];
type Route = (request: Request, context: ReturnType<typeof ctx>) => Promise<Response>;
let routes: { crawls: typeof import("@/app/api/crawls/route"); zip: Route; wacz: Route; crawl: Route; workers: (request: Request) => Promise<Response> };

// Long enough that a worker whose event loop stalls under load (its start, a loaded machine)
// still heartbeats in time: an expired lease before the first checkpoint fails the crawl.
const LEASE_MS = 5_000;
const BUDGET = 200;

beforeAll(async () => {
  t = await openRouteDatabase({ backend: "postgres" });
  s3 = await startS3Server();
  site = await startSiteServer(buildSite({ shape: "statistics-office", seed: 3, size: "small" }));
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "forage-scale-out-"));
  // The dashboard: this process, its own (empty) data folder, the shared bucket.
  // It shares the workers' network policy (the simulated site is on 127.0.0.1), as `npm start` gives both.
  Object.assign(process.env, { FORAGE_DATA_DIR: path.join(scratch, "dashboard"), FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32", ...s3.env("forage") });
  routes = {
    crawls: await import("@/app/api/crawls/route"),
    zip: (await import("@/app/api/crawls/[id]/export.zip/route")).GET,
    wacz: (await import("@/app/api/crawls/[id]/export.wacz/route")).GET,
    crawl: (await import("@/app/api/crawls/[id]/route")).GET,
    workers: (await import("@/app/api/workers/route")).GET,
  };
}, 60_000);

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop(2_000)));
  await closeRouteDatabase(t);
  for (const name of Object.keys(s3?.env() ?? {})) delete process.env[name];
  await site?.close();
  await s3?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

/** A worker "machine": its own data folder, the shared database and bucket. */
function startWorker(name: string): { process: ManagedProcess; dataDir: string } {
  const dataDir = path.join(scratch, name);
  const worker = startNodeProcess(["bin/forage.mjs", "worker", "--concurrency", "1"], {
    DATABASE_URL: t.config.databaseUrl,
    FORAGE_DATA_DIR: dataDir,
    FORAGE_WORKER_ID: name,
    FORAGE_WORKER_LEASE_MS: String(LEASE_MS),
    FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32",
    ...s3.env("forage"),
  });
  workers.push(worker);
  return { process: worker, dataDir };
}

const crawlRow = (id: number) => () => t.db.crawl.findUniqueOrThrow({ where: { id } });
const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

async function download(route: Route, crawlId: number, suffix: string): Promise<Buffer> {
  return withDeadline(`the ${suffix} download`, (async () => {
    const response = await route(apiRequest(url(`/api/crawls/${crawlId}/${suffix}`)), ctx(crawlId));
    expect(response.status, await response.clone().text().catch(() => "")).toBe(200);
    return Buffer.from(await response.arrayBuffer());
  })(), 60_000);
}

describePostgres("scale-out: two worker machines, one bucket, one dashboard (PostgreSQL, s3rver, real processes and HTTP)", () => {
  it("a crawl killed on worker A and finished by worker B downloads whole from the dashboard: manifest = database = bytes", { timeout: 300_000 }, async () => {
    const id = await createCrawlThroughApi(routes.crawls, {
      rootUrl: site.rootUrl,
      budget: { requests: BUDGET },
      // Slow enough that the kill lands mid-crawl, after a checkpoint.
      politeness: { delayMs: 30 },
      seed: 5,
    });
    const a = startWorker("machine-a");
    const context = () => workers.map((w) => w.output()).join("\n---\n");
    // A process start has a bound of its own; from the claim on, the crawl's requests are its progress.
    const claimedBy = (worker: string) =>
      pollUntil(`${worker} to claim the crawl`, crawlRow(id), (row) => row.workerId === worker || row.status === "finished", { timeoutMs: 90_000, pollMs: 50, context });
    await claimedBy("machine-a");
    // Each wait fails after 40 s without a new request: a slow machine still gets there.
    const poll = <T extends { requestsCount: number }>(what: string, read: () => Promise<T>, accept: (value: T) => boolean) =>
      pollUntil(what, read, accept, { timeoutMs: 40_000, pollMs: 25, context, progress: (value) => value.requestsCount });
    await poll(
      "targets and a checkpoint on A",
      async () => {
        const row = await crawlRow(id)();
        return { row, requestsCount: row.requestsCount, checkpoint: await t.db.crawlCheckpoint.findUnique({ where: { crawlId: id }, select: { requests: true } }) };
      },
      // Rows past the checkpoint: B answers them from the log, with pages and files from the bucket.
      ({ row, checkpoint }) => row.status === "running" && row.targetsCount >= 10 && (checkpoint?.requests ?? 0) > 0 && row.requestsCount > checkpoint!.requests + 20,
    );
    await kill9(a.process);
    const atKill = await crawlRow(id)();
    expect(atKill.status).toBe("running");
    // A uploaded its files and kept no copy; then its machine is gone with its disk.
    const { storageFor } = await import("../../lib/storage/storage-for");
    const bucket = storageFor(path.join(scratch, "dashboard"));
    expect((await bucket.list(`crawls/${id}/files`)).length).toBeGreaterThan(0);
    // At most the one file being uploaded when the kill landed (renamed into files/, not yet
    // removed): every earlier file went to the bucket and left the disk.
    expect(fs.readdirSync(path.join(a.dataDir, "crawls", String(id), "files")).length).toBeLessThanOrEqual(1);
    fs.rmSync(a.dataDir, { recursive: true, force: true });

    const b = startWorker("machine-b");
    await claimedBy("machine-b");
    const done = await poll("finished on B", crawlRow(id), (row) => row.status === "finished" && row.workerId === null);
    await b.process.stop(10_000);
    expect(done).toMatchObject({ stopReason: "budget-requests", requestsCount: BUDGET });
    const events = await t.db.crawlEvent.findMany({ where: { crawlId: id, kind: "resumed-from-checkpoint" } });
    expect(events).toHaveLength(1);
    const recovered = await t.db.crawlEvent.findFirstOrThrow({ where: { crawlId: id, kind: "recovered-from-log" } });
    expect(JSON.parse(recovered.data ?? "{}")).toMatchObject({ reason: "exhausted", left: 0 });
    expect((JSON.parse(recovered.data ?? "{}") as { answered: number }).answered).toBeGreaterThan(0);
    // B's folder goes too: the dashboard reads the bucket only.
    fs.rmSync(b.dataDir, { recursive: true, force: true });

    const targets = await t.db.target.findMany({ where: { crawlId: id }, orderBy: { id: "asc" } });
    expect(targets.length).toBe(done.targetsCount);
    expect(targets.length).toBeGreaterThan(atKill.targetsCount);
    const byUrl = new Map(targets.map((target) => [target.url, target]));
    // The bucket holds each target's file once and no file of a rolled-back target.
    const stored = await bucket.list(`crawls/${id}/files`);
    expect(stored.map((item) => item.key.split("/").pop()).sort()).toEqual([...new Set(targets.map((target) => target.sha256))].sort());

    // ZIP: every target in the manifest, none missing, each file's bytes hashing to its row's sha256.
    const zip = readZipEntries(await download(routes.zip, id, "export.zip"));
    const entry = (entries: ZipEntryRead[], name: string) => entries.find((e) => e.name === name) ?? expect.fail(`no ${name} in the archive`);
    const [header, ...rows] = parseCsv(entry(zip, "manifest.csv").data.toString("utf8")).filter((row) => row.length > 1);
    const column = (name: string) => header!.indexOf(name);
    expect(rows.length).toBe(targets.length);
    const seenFiles = new Set<string>();
    for (const row of rows) {
      const target = byUrl.get(row[column("url")]!) ?? expect.fail(`manifest row for an unknown URL ${row[column("url")]}`);
      expect(row[column("sha256")]).toBe(target.sha256);
      expect(Number(row[column("bytes")])).toBe(target.bytes);
      expect(row[column("note")], target.url).not.toBe("missing on disk");
      const file = row[column("file")]!;
      expect(file, target.url).not.toBe("");
      const data = entry(zip, file).data;
      expect(sha256(data), `${target.url} → ${file}`).toBe(target.sha256);
      expect(data.length).toBe(target.bytes);
      expect(row[column("warcFile")], target.url).not.toBe("");
      seenFiles.add(file);
    }
    expect(zip.filter((e) => e.name.startsWith("files/")).map((e) => e.name).sort()).toEqual([...seenFiles].sort());

    // WACZ: every target's record (named by the manifest) is in the archive, in WARC files written by both machines.
    const waczBytes = await download(routes.wacz, id, "export.wacz");
    const wacz = readZipEntries(waczBytes);
    const warcNames = wacz.filter((e) => e.name.startsWith("archive/")).map((e) => e.name.slice("archive/".length));
    expect(warcNames.length).toBeGreaterThanOrEqual(2);
    const datapackage = JSON.parse(entry(wacz, "datapackage.json").data.toString()) as { resources: { path: string; hash: string; bytes: number }[] };
    for (const resource of datapackage.resources) {
      const data = entry(wacz, resource.path).data;
      expect(resource.hash, resource.path).toBe(`sha256:${sha256(data)}`);
      expect(resource.bytes).toBe(data.length);
    }
    const index = new Map<string, Record<string, string>>();
    for (const line of entry(wacz, "indexes/index.cdxj").data.toString().trim().split("\n")) {
      const fields = JSON.parse(line.slice(line.indexOf("{"))) as Record<string, string>;
      index.set(fields.recordId!, fields);
    }
    let responses = 0;
    for (const row of rows) {
      const target = byUrl.get(row[column("url")]!)!;
      const fields = index.get(row[column("warcRecordId")]!) ?? expect.fail(`${target.url}: record ${row[column("warcRecordId")]} not in the WACZ index`);
      expect(fields.filename).toBe(row[column("warcFile")]);
      const warc = entry(wacz, `archive/${fields.filename}`);
      const start = warc.dataOffset + Number(fields.offset);
      const member = readGzipMember(waczBytes, start);
      const record = parseWarcRecord(member.data, start, member.length);
      expect(record.field("WARC-Target-URI")).toBe(target.url);
      if (record.type === "response") {
        responses += 1;
        expect(sha256(parseHttpBlock(record.block).payload), target.url).toBe(target.sha256);
      }
    }
    expect(responses).toBeGreaterThan(0);

    // A third machine replays the crawl offline from the bucket alone: the same strategy and
    // seed find the same targets, every answer from the stored pages and files.
    const replay = await runForageCli(
      ["replay", String(id), "--strategy", "sb", "--json"],
      { DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: path.join(scratch, "machine-c"), ...s3.env("forage") },
      undefined,
      { timeoutMs: 90_000 },
    );
    expect(replay.code, replay.stderr).toBe(0);
    const summary = JSON.parse(replay.stdout.trim().split("\n").pop()!) as { crawlId: number; notArchived: number; targets: number };
    expect(summary.notArchived).toBe(0);
    const replayed = await t.db.target.findMany({ where: { crawlId: summary.crawlId }, select: { url: true, sha256: true } });
    expect(replayed.map((r) => `${r.url} ${r.sha256}`).sort()).toEqual(targets.map((r) => `${r.url} ${r.sha256}`).sort());

    // The Workers page's API names the shared storage.
    const listed = (await (await routes.workers(apiRequest(url("/api/workers")))).json()) as { storage: { kind: string; location: string }; workers: Array<{ id: string; storage: string }> };
    expect(listed.storage).toEqual({ kind: "s3", location: `s3://${s3.bucket}/forage` });
    expect(listed.workers.map((w) => [w.id, w.storage]).sort()).toEqual([["machine-a", `s3://${s3.bucket}/forage`], ["machine-b", `s3://${s3.bucket}/forage`]]);
  });
});
