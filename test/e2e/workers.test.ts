/**
 * The Workers page in a real Chromium against the built app: reached from the header, it lists
 * the workers of the database with their health and links to the crawls they hold. The rows
 * are what workers write (a live worker's fresh heartbeat and held crawl, a killed worker's
 * stale heartbeat); test/integration/api-workers.test.ts runs a real worker process.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppInBrowser, stopAppInBrowser } from "../helpers/app-in-browser";
import type { RunningApp } from "../helpers/app-server";
import type { TestDatabase } from "../helpers/test-database";

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  ({ database, app, browser } = await startAppInBrowser());
});

afterAll(() => stopAppInBrowser({ database, app, browser }));

describe("workers page (built app, real Chromium)", () => {
  it("is linked from the header and shows each worker's health and its crawls", async () => {
    const now = new Date();
    const longAgo = new Date(now.getTime() - 10 * 60_000);
    await database.db.worker.create({
      data: {
        id: "machine-a:101", hostname: "machine-a", pid: 101, startedAt: now, heartbeatAt: now, state: "running",
        loadSampledAt: now, crawlsHeld: 1, pagesPerSecond: 2.5, cpuCores: 0.42, rssBytes: 310 * 1024 * 1024, loopDelayP99Ms: 12.4,
      },
    });
    await database.db.worker.create({ data: { id: "machine-b:202", hostname: "machine-b", pid: 202, startedAt: longAgo, heartbeatAt: longAgo, state: "running" } });
    const crawl = await database.db.crawl.create({
      data: { rootUrl: "http://stats.example.org/", config: "{}", strategy: "sb", seed: 1, status: "running", startedAt: now, workerId: "machine-a:101", leaseExpiresAt: new Date(now.getTime() + 30_000) },
    });

    const page = await browser.newPage(app.signedIn);
    await page.goto(app.baseUrl);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workers" }).click();
    await page.waitForURL(`${app.baseUrl}/workers`);
    const table = page.getByRole("table", { name: "Workers" });
    await table.waitFor();
    const live = table.getByRole("row").filter({ hasText: "machine-a:101" });
    expect(await live.getByTestId("worker-health").textContent()).toBe("Running");
    expect(await live.getByTestId("worker-storage").textContent()).toBe("local folder");
    const link = live.getByRole("link", { name: /stats\.example\.org/ });
    expect(await link.getAttribute("href")).toBe(`/crawls/${crawl.id}`);
    // Its load at the last heartbeat: what an operator reads to decide on another worker.
    expect(await live.getByTestId("worker-load-crawls").textContent()).toBe("1 crawl");
    expect(await live.getByTestId("worker-load-pages").textContent()).toBe("2.5 pages/s");
    expect(await live.getByTestId("worker-load-cpu").textContent()).toBe("CPU 42 %");
    expect(await live.getByTestId("worker-load-memory").textContent()).toBe("310 MB");
    expect(await live.getByTestId("worker-load-loop").textContent()).toBe("loop p99 12 ms");
    const gone = table.getByRole("row").filter({ hasText: "machine-b:202" });
    // A worker that never sent its load shows a dash, not zeros that would look idle.
    expect(await gone.getByTestId("worker-load").textContent()).toBe("–");
    expect(await gone.getByTestId("worker-health").textContent()).toBe("Unresponsive");
    expect(await page.getByTestId("workers-summary").textContent()).toBe("1 of 2 running");
    // The app runs on the local folder: the page says workers must then share this machine.
    expect(await page.getByTestId("workers-storage").textContent()).toContain("this machine's data folder");
    await page.close();
  });
});
