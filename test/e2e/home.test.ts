import type { Browser } from "playwright-core";
import { startAppInBrowser, stopAppInBrowser } from "../helpers/app-in-browser";
import type { RunningApp } from "../helpers/app-server";
import type { TestDatabase } from "../helpers/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  ({ database, app, browser } = await startAppInBrowser());
});

afterAll(() => stopAppInBrowser({ database, app, browser }));

describe("home page (built app, real Chromium)", () => {
  it("explains Forage and shows an empty crawl list on a new database", async () => {
    const page = await browser.newPage(app.signedIn);
    const response = await page.goto(app.baseUrl);
    expect(response?.status()).toBe(200);
    await expect(page.title()).resolves.toBe("Forage");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toContain("data files");
    expect(await page.getByTestId("crawls-empty").isVisible()).toBe(true);
    await page.close();
  });

  it("lists crawls from the database with a human status", async () => {
    await database.db.crawl.create({
      data: {
        rootUrl: "http://stats.example.org/",
        config: "{}",
        strategy: "sb",
        seed: 1,
        status: "finished",
        stopReason: "budget-requests",
        requestsCount: 1200,
        targetsCount: 300,
        startedAt: new Date(Date.now() - 60_000),
        finishedAt: new Date(),
        activeMs: 60_000,
      },
    });
    const page = await browser.newPage(app.signedIn);
    await page.goto(app.baseUrl);
    const table = page.getByRole("table", { name: "Crawls" });
    await table.waitFor();
    const row = table.getByRole("row").filter({ hasText: "stats.example.org" });
    expect(await row.textContent()).toContain("Finished: budget spent (requests)");
    expect(await row.textContent()).toContain("25.0 %");
    await page.close();
  });
});
