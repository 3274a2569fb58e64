/**
 * `forage worker` with the local folder as storage refuses to start while workers on other
 * machines share the database (their files would be out of each other's and the dashboard's
 * reach), and on a bucket while a worker elsewhere keeps its bytes anywhere else; a dead worker
 * elsewhere, or one sharing the bucket, lets it start. Workers that start are real CLI processes;
 * the refusals, decided before a worker exists, run the CLI's `main` in this process.
 */
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runForageInProcess } from "../helpers/forage-cli-in-process";
import { pollUntil, withDeadline } from "../helpers/poll-until";
import { startNodeProcess, type ManagedProcess } from "../helpers/processes";
import { startS3Server, type TestS3Server } from "../helpers/s3-server";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

let t: TestDatabase;
let s3: TestS3Server;
const started: ManagedProcess[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  s3 = await startS3Server();
});
afterAll(async () => {
  await Promise.all(started.map((worker) => worker.stop(5_000)));
  await s3?.close();
  await t?.dispose();
});

const env = (extra: Record<string, string> = {}) => ({ DATABASE_URL: t.config.databaseUrl, FORAGE_DATA_DIR: t.config.dataDir, FORAGE_STORAGE_URL: "", ...extra });

async function startsAndRuns(extra: Record<string, string> = {}): Promise<string> {
  const worker = startNodeProcess(["bin/forage.mjs", "worker", "--concurrency", "1"], env(extra));
  started.push(worker);
  await pollUntil("the worker ready", () => worker.output(), (out) => out.includes("ready") || worker.child.exitCode !== null, { timeoutMs: 30_000, pollMs: 50 });
  expect(worker.child.exitCode, worker.output()).toBeNull();
  const output = worker.output();
  await worker.stop(5_000);
  return output;
}

/**
 * `forage worker` expected to refuse, run in this process: a refusal returns at once, so a worker
 * that started instead (it would wait for SIGTERM) fails the test at the deadline.
 */
const refusedWorker = (extra: Record<string, string> = {}) => withDeadline("forage worker's refusal", runForageInProcess(["worker"], env(extra)), 30_000);

/** The storage the last worker started on this host wrote in its row. */
const storageOfLatestWorker = async () =>
  (await t.db.worker.findFirstOrThrow({ where: { hostname: os.hostname() }, orderBy: { startedAt: "desc" } })).storage;

describe("forage worker and local storage on several machines", () => {
  it("refuses to start, naming FORAGE_STORAGE_URL and the other host, while a live worker elsewhere shares the database", async () => {
    await t.db.worker.create({ data: { id: "other:1", hostname: `not-${os.hostname()}`, pid: 1, heartbeatAt: new Date(), state: "running" } });
    const run = await refusedWorker();
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("refusing to start");
    expect(run.stderr).toContain("FORAGE_STORAGE_URL");
    expect(run.stderr).toContain(`not-${os.hostname()}`);
    expect(await t.db.worker.count({ where: { hostname: os.hostname() } })).toBe(0);
  });

  it("on a bucket, refuses while the live worker elsewhere keeps its files locally or in another bucket, and starts once it shares the bucket", async () => {
    const local = await refusedWorker(s3.env("refusal"));
    expect(local.code).toBe(1);
    expect(local.stderr).toContain(`stores crawled bytes in s3://${s3.bucket}/refusal, but 1 live worker(s) on other machines (not-${os.hostname()}) keep theirs in their local folder`);
    await t.db.worker.update({ where: { id: "other:1" }, data: { storage: `s3://${s3.bucket}/elsewhere` } });
    const other = await refusedWorker(s3.env("refusal"));
    expect(other.code).toBe(1);
    expect(other.stderr).toContain(`keep theirs in s3://${s3.bucket}/elsewhere`);

    await t.db.worker.update({ where: { id: "other:1" }, data: { storage: `s3://${s3.bucket}/refusal` } });
    expect(await startsAndRuns(s3.env("refusal"))).toContain(`storage: s3://${s3.bucket}/refusal`);
    // Its row says where it keeps its bytes (the Workers page shows it).
    expect(await storageOfLatestWorker()).toBe(`s3://${s3.bucket}/refusal`);
  });

  it("starts on local storage once the other host's heartbeat is older than a lease, or its worker stopped", async () => {
    await t.db.worker.update({ where: { id: "other:1" }, data: { heartbeatAt: new Date(Date.now() - 60_000) } });
    expect(await startsAndRuns({ FORAGE_WORKER_LEASE_MS: "30000" })).toContain(`storage: local folder ${t.config.dataDir}`);
    expect(await storageOfLatestWorker()).toBe("local");
    await t.db.worker.update({ where: { id: "other:1" }, data: { heartbeatAt: new Date(), state: "stopped" } });
    await startsAndRuns();
  });

  it("refuses a malformed FORAGE_STORAGE_URL with a clear message", async () => {
    const run = await refusedWorker({ FORAGE_STORAGE_URL: "s3:/bucket" });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("FORAGE_STORAGE_URL must be s3://bucket or s3://bucket/prefix");
  });
});
