import type { Browser, Page } from "playwright-core";
import { startAppInBrowser, stopAppInBrowser } from "../helpers/app-in-browser";
import type { RunningApp } from "../helpers/app-server";
import type { TestDatabase } from "../helpers/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { DATA_FILES_MIME_TYPES } from "../../lib/crawler/defaults";

// The cockpit of a finished crawl and of a running one, seeded row by row through Prisma as the
// worker would have written them, read through the real API by the built app in real Chromium.

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;
let finishedId: number;
let runningId: number;
let liveId: number;

const LONG_PATH = "/html/body/div.page-wrapper#main/div.container fluid/section.results/ul.dataset-list/li.dataset/a.download-link";
const SLEEPING_PATH = "/html/body/header/nav.menu/ul/li/a";
const MIB = 1024 * 1024;

async function seedFinishedCrawl(db: TestDatabase["db"]): Promise<number> {
  const config = parseCrawlConfig(
    { rootUrl: "http://stats.example.org/", name: "Statistics office", targetMimeTypes: [...DATA_FILES_MIME_TYPES], budget: { requests: 5000 } },
    () => 7,
  );
  const startedAt = new Date(Date.now() - 10 * 60_000);
  const crawl = await db.crawl.create({
    data: {
      name: config.name,
      rootUrl: config.rootUrl,
      config: JSON.stringify(config),
      strategy: "sb",
      seed: 7,
      status: "finished",
      stopReason: "early-stop",
      requestsCount: 3000,
      getCount: 2900,
      headCount: 100,
      targetsCount: 750,
      targetBytes: BigInt(50 * MIB),
      nonTargetBytes: BigInt(20 * MIB),
      errorsCount: 2,
      robotsSkips: 1,
      frontierSize: 420,
      groupsCount: 3,
      startedAt,
      finishedAt: new Date(),
      activeMs: 330_000,
    },
  });
  const points = [];
  for (let requests = 100; requests <= 3000; requests += 100) {
    const window = requests % 500 === 0 ? requests / 500 : null;
    points.push({
      crawlId: crawl.id,
      requests,
      targets: Math.round(750 * Math.sqrt(requests / 3000)),
      targetBytes: BigInt(Math.round(50 * MIB * (requests / 3000))),
      nonTargetBytes: BigInt(Math.round(20 * MIB * (requests / 3000))),
      frontierSize: 420,
      activeMs: requests * 110,
      // Six windows; the last three below τ = 0.01.
      slope: window === null ? null : [0.4, 0.2, 0.05, 0.004, 0.003, 0.002][window - 1],
      ema: window === null ? null : [0.04, 0.056, 0.055, 0.009, 0.008, 0.007][window - 1],
      patience: window === null ? null : [0, 0, 0, 1, 2, 3][window - 1],
    });
  }
  await db.metricPoint.createMany({ data: points });
  await db.tagPathGroup.createMany({
    data: [
      { crawlId: crawl.id, groupId: 4, sampleTagPath: LONG_PATH, members: 120, available: 30, selections: 80, meanReward: 6.5, totalReward: 520 },
      { crawlId: crawl.id, groupId: 1, sampleTagPath: SLEEPING_PATH, members: 12, available: 0, selections: 12, meanReward: 0.25, totalReward: 3 },
      { crawlId: crawl.id, groupId: 2, sampleTagPath: "/html/body/footer/a", members: 4, available: 2, selections: 1, meanReward: 0, totalReward: 0 },
    ],
  });
  const targets = Array.from({ length: 30 }, (_, index) => ({
    crawlId: crawl.id,
    url: index < 20 ? `http://stats.example.org/data/table-${index}.csv` : `http://stats.example.org/reports/report-${index}.xlsx`,
    mime: index < 20 ? "text/csv" : "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    bytes: 4096 + index,
    sha256: index.toString(16).padStart(64, "0"),
    storagePath: `files/${index}`,
    sourceUrl: "http://stats.example.org/datasets/",
    tagPath: LONG_PATH,
    groupId: 4,
    requestSeq: 10 + index,
  }));
  await db.target.createMany({ data: targets });
  const requests = Array.from({ length: 40 }, (_, index) => {
    const seq = index + 1;
    const outcome = seq === 7 || seq === 21 ? "error" : seq === 30 ? "robots-disallowed" : "ok";
    return {
      crawlId: crawl.id,
      seq: outcome === "robots-disallowed" ? 0 : seq,
      kind: seq % 3 === 0 ? "target" : "page",
      method: "GET",
      url: outcome === "error" ? `http://stats.example.org/broken-${seq}` : `http://stats.example.org/page-${seq}.html`,
      status: outcome === "error" ? 500 : outcome === "ok" ? 200 : null,
      mime: outcome === "ok" ? (seq % 3 === 0 ? "text/csv" : "text/html") : null,
      bytes: 2048,
      isTarget: outcome === "ok" && seq % 3 === 0,
      outcome,
      error: outcome === "error" ? "HTTP 500 Internal Server Error" : null,
      groupId: 4,
    };
  });
  await db.crawlRequest.createMany({ data: requests });
  return crawl.id;
}

async function seedRunningCrawl(db: TestDatabase["db"]): Promise<number> {
  const config = parseCrawlConfig({ rootUrl: "http://slow.example.org/", budget: { requests: 1000 }, politeness: { delayMs: 1000 } }, () => 3);
  const crawl = await db.crawl.create({
    data: {
      rootUrl: config.rootUrl,
      config: JSON.stringify(config),
      strategy: "sb",
      seed: 3,
      status: "running",
      requestsCount: 100,
      targetsCount: 10,
      startedAt: new Date(Date.now() - 100_000),
      activeMs: 100_000,
      // A lease far in the future: no sweeper reclaims it during the test.
      workerId: "test-worker",
      leaseExpiresAt: new Date(Date.now() + 3_600_000),
      events: {
        create: { level: "warn", kind: "waiting", message: "Rate limited", data: JSON.stringify({ host: "slow.example.org", untilMs: Date.now() + 3_600_000 }) },
      },
    },
  });
  await db.metricPoint.createMany({
    data: [50, 100].map((requests) => ({ crawlId: crawl.id, requests, targets: requests / 10, targetBytes: 0n, nonTargetBytes: 0n, activeMs: requests * 1000 })),
  });
  return crawl.id;
}

/** `clock`: the page's timers on Playwright's clock (flowing until paused), to count its polls in page time. */
async function openCockpit(id: number, width = 1280, { clock = false } = {}): Promise<Page> {
  const page = await browser.newPage({ ...app.signedIn, viewport: { width, height: 900 } });
  if (clock) await page.clock.install();
  const response = await page.goto(`${app.baseUrl}/crawls/${id}`);
  expect(response?.status()).toBe(200);
  await page.getByTestId("stat-requests").waitFor();
  return page;
}

beforeAll(async () => {
  ({ database, app, browser } = await startAppInBrowser());
  finishedId = await seedFinishedCrawl(database.db);
  runningId = await seedRunningCrawl(database.db);
  liveId = await seedRunningCrawl(database.db);
});

afterAll(() => stopAppInBrowser({ database, app, browser }));

describe("cockpit of a finished crawl", () => {
  it("shows the headline numbers and the stop reason", async () => {
    const page = await openCockpit(finishedId);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Statistics office");
    expect(await page.getByTestId("crawl-status").textContent()).toContain("Finished: early stop");
    expect(await page.getByTestId("stat-requests").textContent()).toContain("3,000");
    expect(await page.getByTestId("stat-requests").textContent()).toContain("of 5,000 budget");
    expect(await page.getByTestId("stat-targets").textContent()).toContain("750");
    expect(await page.getByTestId("stat-harvest").textContent()).toContain("25.0 %");
    expect(await page.getByTestId("stat-volume").textContent()).toContain("50 MB");
    expect(await page.getByTestId("stat-frontier").textContent()).toContain("420");
    expect(await page.getByTestId("stat-elapsed").textContent()).toContain("5 min 30 s");
    // The settings say how SB picked links: Forage's defaults here.
    expect(await page.getByTestId("settings-summary").textContent()).toContain("SB-CLASSIFIER (learns which page structures lead to targets) · best of 32 links by URL · groups weighed by their links' URLs (× 3) · exploration unscaled, as in the paper, less for groups whose pages bring nothing new · a group split by URL shape when its links pay differently");
    // A finished crawl has no pause/stop controls, only clone and delete.
    expect(await page.getByRole("button", { name: "Pause" }).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Clone settings" }).first().getAttribute("href")).toBe(`/crawls/new?from=${finishedId}`);
    await page.close();
  });

  it("draws both curves under their headings with a text alternative", async () => {
    const page = await openCockpit(finishedId);
    await page.getByRole("heading", { name: "Targets vs requests" }).waitFor();
    await page.getByRole("heading", { name: "Target volume vs other volume" }).waitFor();
    const targetsCaption = page.getByTestId("targets-chart-caption");
    await targetsCaption.getByText("3,000 requests").waitFor();
    expect(await targetsCaption.textContent()).toContain("750 targets");
    expect(await targetsCaption.textContent()).toContain("harvest rate 25.0 %");
    expect(await page.getByTestId("volume-chart-caption").textContent()).toContain("50 MB of targets");
    // recharts drew the curve: one area path per series at least.
    expect(await page.locator("#targets-chart-title ~ * .recharts-area, .chart-figure .recharts-area").count()).toBeGreaterThan(0);
    // The figure is described by its caption for assistive technology.
    const figure = page.getByRole("figure", { name: "Targets vs requests" });
    expect(await figure.getAttribute("aria-describedby")).toBe("targets-chart-caption");
    await page.close();
  });

  it("explains the groups: shortened tag paths with the full path on hover and focus, sleeping groups marked", async () => {
    const page = await openCockpit(finishedId);
    const table = page.getByRole("table", { name: "Tag-path groups" });
    await table.waitFor();
    const rows = table.locator("tbody tr");
    expect(await rows.count()).toBe(3);
    // Sorted by mean reward: group #4 first.
    expect(await rows.first().textContent()).toContain("#4");
    const shortened = page.getByTestId("group-4").locator(".tag-path");
    // Four steps would still be too long here: the last three are kept.
    expect(await shortened.textContent()).toBe("…/ul.dataset-list/li.dataset/a.download-link");
    expect(await shortened.getAttribute("title")).toBe(LONG_PATH);
    await shortened.focus();
    expect(await shortened.evaluate((el) => getComputedStyle(el, "::after").content)).toContain("div.page-wrapper#main");
    await shortened.press("Enter");
    expect(await shortened.textContent()).toBe(LONG_PATH);
    expect(await page.getByTestId("group-1").textContent()).toContain("sleeping");
    expect(await page.getByTestId("group-4").textContent()).not.toContain("sleeping");
    // A short path is shown as it is.
    expect(await page.getByTestId("group-2").locator(".tag-path").textContent()).toBe("/html/body/footer/a");
    await page.getByRole("heading", { name: "Mean reward by group" }).waitFor();
    expect(await page.getByTestId("group-rewards-chart-caption").textContent()).toContain("#4");
    await page.close();
  });

  it("shows the early-stopping windows, τ and the patience counter", async () => {
    const page = await openCockpit(finishedId);
    await page.getByRole("heading", { name: "Early stopping" }).waitFor();
    const patience = page.getByTestId("patience");
    await patience.waitFor();
    expect(await patience.textContent()).toContain("3 / 10 windows below threshold");
    expect(await patience.textContent()).toContain("stopped early");
    const caption = await page.getByTestId("early-stop-chart-caption").textContent();
    expect(caption).toContain("request 3,000");
    expect(caption).toContain("τ = 0.01");
    // The threshold is drawn as a reference line.
    expect(await page.locator(".recharts-reference-line").count()).toBe(1);
    await page.close();
  });

  it("offers every download and the files by MIME type", async () => {
    const page = await openCockpit(finishedId);
    const downloads = page.getByTestId("downloads");
    await downloads.waitFor();
    const href = (name: string) => downloads.getByRole("link", { name }).getAttribute("href");
    expect(await href("Download all targets (ZIP)")).toBe(`/api/crawls/${finishedId}/export.zip`);
    expect(await href("Manifest (CSV)")).toBe(`/api/crawls/${finishedId}/manifest.csv`);
    expect(await href("Manifest (JSON)")).toBe(`/api/crawls/${finishedId}/manifest.json`);
    expect(await href("Request log (CSV)")).toBe(`/api/crawls/${finishedId}/requests.csv`);

    const files = page.getByRole("table", { name: "Target files" });
    await files.waitFor();
    expect(await files.locator("tbody tr").count()).toBe(25); // one page
    const firstFile = files.locator("tbody tr").first().getByRole("link").first();
    expect(await firstFile.getAttribute("href")).toMatch(new RegExp(`^/api/crawls/${finishedId}/targets/\\d+/file$`));

    // Choosing a type in the breakdown filters the list.
    await page.getByRole("button", { name: "CSV", exact: true }).click();
    await page.getByRole("heading", { name: "Files of type text/csv" }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Target files"] tbody tr').length === 20);
    // Paging: 25 of 30 files on the first page, the rest on the next.
    await page.getByRole("button", { name: "Show all types" }).click();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Target files"] tbody tr').length === 25);
    await page.getByRole("navigation", { name: "Target files pages" }).getByRole("button", { name: /Next/ }).click();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Target files"] tbody tr').length === 5);
    await page.close();
  });

  it("filters the request log by outcome: errors and robots skips", async () => {
    const page = await openCockpit(finishedId);
    const table = page.getByRole("table", { name: "Requests" });
    await table.waitFor();
    expect(await table.locator("tbody tr").count()).toBe(25);
    await page.getByRole("button", { name: /^Errors/ }).click();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Requests"] tbody tr').length === 2);
    expect(await table.textContent()).toContain("HTTP 500 Internal Server Error");
    await page.getByRole("button", { name: /^Robots skips/ }).click();
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Requests"] tbody tr').length === 1);
    expect(await table.textContent()).toContain("Robots skip");
    await page.close();
  });
});

describe("cockpit of a running crawl", () => {
  it("says which host it waits for and offers pause, stop and a confirmed cancel", async () => {
    const page = await openCockpit(runningId);
    expect(await page.getByTestId("waiting-for").textContent()).toBe("waiting for slow.example.org (rate limited)");
    expect(await page.getByTestId("stat-eta").textContent()).toMatch(/≤ \d/);
    await page.getByRole("button", { name: "Stop" }).waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel this crawl?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Keep crawling" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect((await database.db.crawl.findUniqueOrThrow({ where: { id: runningId } })).pendingControl).toBeNull();

    await page.getByRole("button", { name: "Pause" }).click();
    await page.getByText("Pausing: the worker finishes the request in flight").waitFor();
    expect((await database.db.crawl.findUniqueOrThrow({ where: { id: runningId } })).pendingControl).toBe("pause");
    await page.close();
  });

  it("edits the URL blocklist and the politeness delay live, with a confirmation", async () => {
    const page = await openCockpit(runningId);
    const form = page.locator("form.live-settings");
    await form.getByLabel("URL patterns").fill("*/calendar/*\n*/archive/*");
    await form.getByLabel("Politeness delay (ms)").fill("-5");
    await form.getByRole("button", { name: "Apply changes" }).click();
    expect(await form.getByTestId("error-politeness.delayMs").textContent()).toContain("must not be negative");
    await form.getByLabel("Politeness delay (ms)").fill("2500");
    await form.getByRole("button", { name: "Apply changes" }).click();
    await form.getByTestId("live-settings-saved").waitFor();
    expect(await form.getByTestId("live-settings-saved").textContent()).toContain("2 URL patterns, 2500 ms");
    const stored = JSON.parse((await database.db.crawl.findUniqueOrThrow({ where: { id: runningId } })).config) as {
      blocklist: { urlPatterns: string[] };
      politeness: { delayMs: number };
    };
    expect(stored.blocklist.urlPatterns).toEqual(["*/calendar/*", "*/archive/*"]);
    expect(stored.politeness.delayMs).toBe(2500);
    await page.close();
  });

  it("follows the crawl live: new points and counters appear within seconds, polling stops when it finishes", async () => {
    const page = await openCockpit(liveId, 1280, { clock: true });
    await page.getByTestId("targets-chart-caption").getByText("After 100 requests").waitFor();
    await database.db.metricPoint.create({
      data: { crawlId: liveId, requests: 150, targets: 40, targetBytes: 0n, nonTargetBytes: 0n, activeMs: 150_000 },
    });
    await database.db.crawl.update({ where: { id: liveId }, data: { requestsCount: 150, targetsCount: 40 } });
    await page.getByTestId("targets-chart-caption").getByText("After 150 requests").waitFor({ timeout: 5_000 });
    // The counters come from another poll (the crawl's), which may have run between the two writes.
    await expect.poll(() => page.getByTestId("stat-targets").textContent(), { timeout: 5_000 }).toContain("40");

    // Metrics are fetched incrementally: every poll after the first asks only for newer points.
    const metricUrls: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes(`/api/crawls/${liveId}/metrics`)) metricUrls.push(request.url());
    });
    await expect.poll(() => metricUrls.length, { timeout: 5_000 }).toBeGreaterThan(1);
    expect(metricUrls.every((url) => url.includes("after=150"))).toBe(true);

    await database.db.crawl.update({
      where: { id: liveId },
      data: { status: "finished", stopReason: "site-exhausted", finishedAt: new Date(), workerId: null, leaseExpiresAt: null },
    });
    await page.getByTestId("crawl-status").getByText("Finished: site exhausted").waitFor({ timeout: 5_000 });
    // "No more polls" in the page's own time: stop its clock, let the last refresh after the end
    // start, then run 30 s of page time (30 polls, were it still polling). Polls are counted when
    // they start; a request the page makes afterwards (a sentinel) is seen after any poll those
    // timers started.
    const sentinel = async () => {
      const url = `${app.baseUrl}/favicon.ico?sentinel=${Math.random()}`;
      const seen = page.waitForRequest(url);
      await page.evaluate((u) => void fetch(u).catch(() => undefined), url);
      await seen;
    };
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.clock.runFor(3 * 1_000);
    await sentinel();
    metricUrls.length = 0;
    await page.clock.runFor(30_000);
    await sentinel();
    expect(metricUrls).toEqual([]);
    expect(await page.getByRole("button", { name: "Pause" }).count()).toBe(0);
    await page.close();
  });

  it("stays usable at phone width (390 px): no horizontal scrolling of the page", async () => {
    const page = await openCockpit(finishedId, 390);
    await page.getByRole("table", { name: "Tag-path groups" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });
});

describe("unknown crawl", () => {
  it("answers 404 with a page that leads back to the crawls", async () => {
    const page = await browser.newPage(app.signedIn);
    for (const path of ["/crawls/999999", "/crawls/abc"]) {
      const response = await page.goto(`${app.baseUrl}${path}`);
      expect(response?.status()).toBe(404);
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Crawl not found");
      expect(await page.getByRole("link", { name: "See all crawls" }).getAttribute("href")).toBe("/");
    }
    const response = await page.goto(`${app.baseUrl}/no-such-page`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Page not found");
    await page.close();
  });
});
