import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrawlConfig } from "../../lib/crawl-config";
import { startApp, type RunningApp } from "../helpers/app-server";
import { launchBrowser } from "../helpers/browser";
import { freePort, startNodeProcess, waitForHttp, type ManagedProcess } from "../helpers/processes";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { parseCsv } from "../helpers/csv";
import { pollUntil } from "../helpers/poll-until";
import { heldStillForHeartbeats } from "../helpers/worker-cycles";

// The whole product at once, as `npm start` runs it: the built dashboard, a real `forage worker`
// process and the `forage demo` website, all on one temporary database and data folder. In
// Chromium: the first-run demo button, then a crawl defined in the New crawl form, watched live
// (curve, pause and resume, groups, early stopping) until its budget is spent, and its ZIP
// checked against the database.

const BUDGET = 400;

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;
let worker: ManagedProcess;
let demo: ManagedProcess;
let demoUrl: string;
/** The crawl the live flow defines; its ZIP is checked by the last tests. */
let liveId: number;

/** Resolves when the process has printed `pattern`; rejects when it exits first or the deadline passes. */
async function waitForOutput(process: ManagedProcess, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  await pollUntil(
    `${pattern} in the output`,
    () => {
      if (process.child.exitCode !== null) throw new Error(`process exited early (${process.child.exitCode}):\n${process.output()}`);
      return pattern.test(process.output());
    },
    (seen) => seen,
    { timeoutMs, pollMs: 100, context: () => process.output() },
  );
}

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.config.databaseUrl, FORAGE_DATA_DIR: database.config.dataDir };
  const demoPort = await freePort();
  demoUrl = `http://127.0.0.1:${demoPort}/`;
  demo = startNodeProcess(["bin/forage.mjs", "demo", "--port", String(demoPort)], env);
  // The server's network policy lets crawls reach the demo site on 127.0.0.1, as `npm start` does.
  // A 4 s lease: a heartbeat every 2 s, the worker cycles the pause test counts.
  worker = startNodeProcess(["bin/forage.mjs", "worker"], { ...env, FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32", FORAGE_WORKER_LEASE_MS: "4000" });
  const [appStarted, browserStarted, ...ready] = await Promise.allSettled([
    startApp(database, { FORAGE_DEMO_PORT: String(demoPort), FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32" }),
    launchBrowser(),
    waitForHttp(demoUrl, demo),
    waitForOutput(worker, /\[forage worker\] .* ready/),
  ]);
  // Keep what started, so that afterAll stops it even when something else failed.
  if (appStarted.status === "fulfilled") app = appStarted.value;
  if (browserStarted.status === "fulfilled") browser = browserStarted.value;
  for (const result of [appStarted, browserStarted, ...ready]) if (result.status === "rejected") throw result.reason;
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([worker?.stop(15_000), demo?.stop(), app?.stop()]);
  await database?.dispose();
});

async function newPage(): Promise<Page> {
  return browser.newPage({ ...app.signedIn, viewport: { width: 1280, height: 900 } });
}

/** "1,234" → 1234. */
function parseCount(text: string | null): number {
  const match = /[\d,]+/.exec(text ?? "");
  if (!match) throw new Error(`no number in "${text}"`);
  return Number(match[0].replace(/,/g, ""));
}

/** The request count the curve's caption reads ("After 1,234 requests…"); 0 before the first point. */
async function captionRequests(page: Page): Promise<number> {
  const text = (await page.getByTestId("targets-chart-caption").textContent()) ?? "";
  const match = /After ([\d,]+) requests/.exec(text);
  return match ? parseCount(match[1]!) : 0;
}

/** The request count of the headline numbers. */
async function statRequests(page: Page): Promise<number> {
  return parseCount(await page.getByTestId("stat-requests").locator(".stat-value").textContent());
}

/** Polls the caption until it reads more than `above` requests; returns what it read. */
async function waitForCaptionAbove(page: Page, above: number, timeoutMs = 20_000): Promise<number> {
  return pollUntil(`the caption above ${above} requests`, () => captionRequests(page), (requests) => requests > above, { timeoutMs, pollMs: 100, context: () => `worker:\n${worker.output()}` });
}

async function crawlRow(id: number) {
  return database.db.crawl.findUniqueOrThrow({ where: { id } });
}


describe("first run with a worker and the demo site", () => {
  it("“Try the demo crawl” starts a crawl that the worker picks up within seconds", async () => {
    const page = await newPage();
    await page.goto(app.baseUrl);
    await page.getByTestId("crawls-empty").waitFor();
    expect(await page.getByTestId("crawls-empty").textContent()).toContain(demoUrl);
    const clickedAt = Date.now();
    await page.getByRole("button", { name: "Try the demo crawl" }).click();
    await page.waitForURL(/\/crawls\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").at(-1));
    expect((await crawlRow(id)).rootUrl).toBe(demoUrl);

    // The worker claims it (it looks every second) and the cockpit, polling every second, says so.
    await page.getByTestId("crawl-status").getByText("Running", { exact: true }).waitFor({ timeout: 8_000 });
    const runningAfterMs = Date.now() - clickedAt;
    await waitForCaptionAbove(page, 0, 10_000);
    const row = await crawlRow(id);
    expect(row.status).toBe("running");
    const workerId = /\[forage worker\] (\S+) ready/.exec(worker.output())?.[1];
    expect(row.workerId).toBe(workerId);
    expect(row.requestsCount).toBeGreaterThan(0);
    console.info(`[live-crawl] demo crawl: running ${runningAfterMs} ms after the click`);

    // Stop it from the cockpit: the worker ends it, keeping what it collected.
    await page.getByRole("button", { name: "Stop" }).click();
    await page.getByTestId("crawl-status").getByText("Finished: stopped by user").waitFor({ timeout: 8_000 });
    const stopped = await crawlRow(id);
    expect(stopped.stopReason).toBe("user-stop");
    expect(stopped.workerId).toBeNull();
    await page.close();
  });
});

describe("a crawl defined in the form, watched live, collected as a ZIP", () => {
  it("defines the crawl in the New crawl form and lands on its cockpit", async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/new`);
    await page.getByLabel("Root URL").fill(demoUrl);
    await page.getByLabel("Name").fill("Live demo crawl");
    await page.getByLabel("Request budget").fill(String(BUDGET));
    await page.getByLabel("Politeness delay (ms)").fill("20");
    // Short early-stopping windows, so that the panel has windows to show within the budget.
    await page.getByText("Advanced", { exact: true }).click();
    await page.getByLabel("Window (requests)").fill("100");
    await page.getByRole("button", { name: "Start crawl" }).click();
    await page.waitForURL(/\/crawls\/\d+$/);
    liveId = Number(new URL(page.url()).pathname.split("/").at(-1));
    const config = JSON.parse((await crawlRow(liveId)).config) as CrawlConfig;
    expect(config.rootUrl).toBe(demoUrl);
    expect(config.budget.requests).toBe(BUDGET);
    expect(config.politeness.delayMs).toBe(20);
    // Private addresses are the server's decision (FORAGE_PRIVATE_NETWORKS), not the form's.
    expect(config.allowPrivateNetwork).toBe(false);
    expect(config.params.earlyStopWindowRequests).toBe(100);
    await page.close();
  });

  it("shows the curve growing, pauses (nothing more is requested), resumes, fills the groups and finishes on budget", async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${liveId}`);
    await page.getByTestId("stat-requests").waitFor();

    // The caption of "Targets vs requests" follows the crawl: three readings, each higher.
    const readings: { at: number; requests: number }[] = [];
    let last = 0;
    for (let i = 0; i < 3; i++) {
      last = await waitForCaptionAbove(page, last);
      readings.push({ at: Date.now(), requests: last });
    }
    expect(last).toBeLessThan(BUDGET);
    expect(await page.getByTestId("targets-chart-caption").textContent()).toMatch(/has found [\d,]+ targets/);
    expect(await page.locator(".chart-figure .recharts-area").count()).toBeGreaterThan(0);

    // Pause: the worker applies it within a second; then the counters stand still.
    const pauseClickedAt = Date.now();
    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByTestId("crawl-status").getByText("Paused", { exact: true }).waitFor({ timeout: 10_000 });
    const pauseShownMs = Date.now() - pauseClickedAt;
    const pausedRow = await crawlRow(liveId);
    expect(pausedRow.status).toBe("paused");
    const requestsWhenPaused = pausedRow.requestsCount;
    expect(pausedRow.pendingControl).toBeNull();
    // The request in flight (and the target downloads of its page) may still end; then the
    // count stands still across two of the worker's heartbeats (its own cycles, not wall time).
    const heldRequests = await heldStillForHeartbeats(
      { heartbeatAt: async () => (await database.db.worker.findFirstOrThrow()).heartbeatAt, counter: async () => (await crawlRow(liveId)).requestsCount },
      2,
    );
    expect(heldRequests).toBeLessThan(BUDGET);
    expect((await crawlRow(liveId)).status).toBe("paused");
    expect(await statRequests(page)).toBe(heldRequests);
    expect(await captionRequests(page)).toBeLessThanOrEqual(heldRequests);
    expect(await page.getByRole("button", { name: "Resume" }).isEnabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Pause" }).count()).toBe(0);

    // Resume: running again, and the curve goes on from where it stood.
    const resumeClickedAt = Date.now();
    await page.getByRole("button", { name: "Resume" }).click();
    await page.getByTestId("crawl-status").getByText("Running", { exact: true }).waitFor({ timeout: 10_000 });
    const resumeShownMs = Date.now() - resumeClickedAt;
    const pausedForMs = Date.now() - pauseClickedAt;
    await waitForCaptionAbove(page, heldRequests);

    // "Why there?": the bandit's groups fill the table; "Will it stop by itself?": the panel.
    const groups = page.getByRole("table", { name: "Tag-path groups" });
    await groups.waitFor();
    expect(await groups.locator("tbody tr").count()).toBeGreaterThan(0);
    expect(await groups.locator("tbody tr").first().textContent()).toMatch(/#\d+/);
    await page.getByRole("heading", { name: "Early stopping" }).waitFor();
    await page.getByTestId("patience").getByText("/ 10 windows below threshold").waitFor();

    // The budget is spent: finished, the polling stops with the final numbers.
    await page.getByTestId("crawl-status").getByText("Finished: budget spent (requests)").waitFor({ timeout: 45_000 });
    const finished = await crawlRow(liveId);
    expect(finished.stopReason).toBe("budget-requests");
    expect(finished.requestsCount).toBe(BUDGET);
    expect(finished.targetsCount).toBeGreaterThan(0);
    await page.getByTestId("targets-chart-caption").getByText(`After ${BUDGET} requests`).waitFor({ timeout: 5_000 });
    expect(await statRequests(page)).toBe(BUDGET);
    expect(parseCount(await page.getByTestId("stat-targets").locator(".stat-value").textContent())).toBe(finished.targetsCount);
    // Windows of 100 requests: the chart and the patience counter show the closed ones. (The window
    // ending on the very last request is not kept: see the note at the end of this file.)
    const earlyStop = (await (await app.api(`/api/crawls/${liveId}/early-stop`)).json()) as { windows: { requests: number }[] };
    expect(earlyStop.windows.length).toBeGreaterThanOrEqual(3);
    const lastWindow = earlyStop.windows.at(-1)!.requests;
    await page.getByTestId("early-stop-chart-caption").getByText(`ending at request ${lastWindow.toLocaleString("en-US")}:`).waitFor({ timeout: 5_000 });
    expect(await page.getByTestId("patience").textContent()).toContain("0 / 10 windows below threshold");
    expect(await page.getByRole("button", { name: "Pause" }).count()).toBe(0);

    const firstReading = readings[0]!;
    const lastReading = readings.at(-1)!;
    console.info(
      `[live-crawl] caption readings ${readings.map((r) => r.requests).join(" → ")} over ${lastReading.at - firstReading.at} ms; ` +
        `pause shown after ${pauseShownMs} ms at ${requestsWhenPaused} requests, held at ${heldRequests}; resume shown after ${resumeShownMs} ms; ` +
        `finished with ${finished.targetsCount} targets; activeMs ${finished.activeMs} for ${finished.finishedAt!.getTime() - finished.startedAt!.getTime()} ms ` +
        `from start to finish, ~${pausedForMs} ms of it paused`,
    );
    await page.close();
  });

  it("downloads every target as a ZIP whose manifest matches the database and the files", async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${liveId}`);
    const link = page.getByTestId("downloads").getByRole("link", { name: "Download all targets (ZIP)" });
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    const zipPath = path.join(database.dir, "export.zip");
    await download.saveAs(zipPath);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    await page.close();

    const targets = await database.db.target.findMany({ where: { crawlId: liveId }, orderBy: { id: "asc" } });
    expect(targets.length).toBeGreaterThan(0);
    const byUrl = new Map(targets.map((target) => [target.url, target]));

    const manifest = JSON.parse(execFileSync("unzip", ["-p", zipPath, "manifest.json"], { encoding: "utf8" })) as {
      crawl: { id: number; rootUrl: string; status: string };
      targets: { url: string; file: string; mime: string; bytes: number; sha256: string; note: string }[];
    };
    expect(manifest.crawl).toMatchObject({ id: liveId, rootUrl: demoUrl, status: "finished" });
    expect(manifest.targets.map((row) => row.url)).toEqual(targets.map((target) => target.url));
    for (const row of manifest.targets) {
      const target = byUrl.get(row.url)!;
      expect(row.sha256, row.url).toBe(target.sha256);
      expect(row.bytes, row.url).toBe(target.bytes);
      expect(row.mime, row.url).toBe(target.mime);
    }

    const [header, ...csvRows] = parseCsv(execFileSync("unzip", ["-p", zipPath, "manifest.csv"], { encoding: "utf8" }));
    expect(header).toEqual(["url", "file", "mime", "bytes", "sha256", "sourceUrl", "tagPath", "fetchedAt", "note", "change", "firstSeenCrawlId", "lastSeenCrawlId", "versions", "warcFile", "warcRecordId", "recordTitle", "recordPage", "detectedMime", "typeMatch"]);
    const column = (name: string) => header!.indexOf(name);
    expect(csvRows.map((row) => row[column("url")])).toEqual(targets.map((target) => target.url));
    for (const row of csvRows) {
      const target = byUrl.get(row[column("url")]!)!;
      expect(row[column("sha256")]).toBe(target.sha256);
      expect(Number(row[column("bytes")])).toBe(target.bytes);
      expect(row[column("file")]).toBe(manifest.targets.find((entry) => entry.url === target.url)!.file);
    }

    // Every file in the archive is the stored content: its SHA-256 and size are the manifest's.
    const unpacked = path.join(database.dir, "unpacked");
    execFileSync("unzip", ["-q", zipPath, "-d", unpacked]);
    const files = new Set(manifest.targets.map((row) => row.file));
    expect(fs.readdirSync(path.join(unpacked, "files")).length).toBe(files.size);
    for (const row of manifest.targets) {
      expect(row.file, row.url).toMatch(/^files\//);
      const content = fs.readFileSync(path.join(unpacked, row.file));
      expect(content.length, row.file).toBe(row.bytes);
      expect(createHash("sha256").update(content).digest("hex"), row.file).toBe(row.sha256);
    }
  });

  it("re-crawls the finished crawl from its cockpit: the form says what it cost, the run starts after it and says what changed", async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${liveId}`);
    await page.getByRole("link", { name: "Re-crawl" }).click();
    await page.waitForURL(/\/crawls\/new\?from=\d+&recrawl=1$/);
    const previous = await crawlRow(liveId);
    await expect(page.getByTestId("recrawl-notice").textContent()).resolves.toContain(`cost ${previous.requestsCount.toLocaleString("en-US")} requests`);
    await page.getByLabel("Check known files for changes").check();
    await page.getByRole("button", { name: "Start crawl" }).click();
    await page.waitForURL(/\/crawls\/\d+$/);
    const recrawlId = Number(new URL(page.url()).pathname.split("/").at(-1));
    expect(recrawlId).not.toBe(liveId);
    const config = JSON.parse((await crawlRow(recrawlId)).config) as CrawlConfig;
    expect({ after: config.after, checkKnownFiles: config.checkKnownFiles, rootUrl: config.rootUrl }).toEqual({ after: liveId, checkKnownFiles: true, rootUrl: demoUrl });
    // The demo site did not change: known files checked are unchanged, none changed or gone; the
    // first crawl stopped on its budget, so what the re-crawl downloads is files it had not reached.
    await page.getByTestId("changes-panel").waitFor({ timeout: 90_000 });
    await expect(page.getByTestId("changes-changed").textContent()).resolves.toBe("0");
    await expect(page.getByTestId("changes-gone").textContent()).resolves.toBe("0");
    // Known files are checked as their pages are met, the rest at the end as the budget allows.
    const unchanged = Number(await page.getByTestId("changes-unchanged").textContent());
    expect(unchanged).toBeGreaterThan(0);
    expect(unchanged).toBeLessThanOrEqual(previous.targetsCount);
    const known = new Set((await database.db.target.findMany({ where: { crawlId: liveId }, select: { url: true } })).map((t) => t.url));
    const downloaded = await database.db.target.findMany({ where: { crawlId: recrawlId }, select: { url: true } });
    expect(downloaded.filter((t) => known.has(t.url))).toEqual([]);
    expect(Number(await page.getByTestId("changes-new").textContent())).toBe(downloaded.length);
    await page.close();
  });

  it("the worker exits by itself on SIGTERM within its grace time", async () => {
    const stoppedAt = Date.now();
    await worker.stop(15_000);
    const exitMs = Date.now() - stoppedAt;
    console.info(`[live-crawl] worker exited ${exitMs} ms after SIGTERM (code ${worker.child.exitCode}, signal ${worker.child.signalCode})`);
    expect(worker.child.signalCode).toBeNull(); // not SIGKILLed
    expect(worker.child.exitCode).toBe(0);
    expect(worker.output()).toContain("[forage worker] stopping…");
    expect(exitMs).toBeLessThan(12_000);
  });
});

// Known engine issue (reported, not worked around): when a crawl ends right where an early-stopping
// window closes (budget spent on a window boundary, or the early stop itself), the engine's final
// forced metric point (`finish()` → `emitMetrics(true)`) has the same request count as the window's
// point but no slope, and the sink replaces the window's point with it. That last window then
// disappears from /early-stop and the cockpit's chart.
