import type { Browser } from "playwright-core";
import { startAppInBrowser, stopAppInBrowser } from "../helpers/app-in-browser";
import type { RunningApp } from "../helpers/app-server";
import type { TestDatabase } from "../helpers/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrawlConfig } from "../../lib/crawl-config";
import { DATA_FILES_MIME_TYPES, DOCUMENT_MIME_TYPES } from "../../lib/crawler/defaults";

// Journey 1, first run: an empty installation explains itself and starts the demo crawl in one
// click; the crawl list then links to the cockpit.

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  // The demo site listens on 127.0.0.1, which `npm start` adds to the server's network policy.
  ({ database, app, browser } = await startAppInBrowser({ FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32" }));
});

afterAll(() => stopAppInBrowser({ database, app, browser }));

describe("first run", () => {
  it("explains the demo and starts it in one click, landing on its cockpit", async () => {
    const page = await browser.newPage({ ...app.signedIn, viewport: { width: 1280, height: 900 } });
    await page.goto(app.baseUrl);
    const empty = page.getByTestId("crawls-empty");
    await empty.waitFor();
    expect(await empty.textContent()).toContain("demo website");
    // No "New crawl" button above an empty list: the first-run panel offers both paths.
    expect(await empty.getByRole("link", { name: "Define your own crawl" }).getAttribute("href")).toBe("/crawls/new");

    await page.getByRole("button", { name: "Try the demo crawl" }).click();
    await page.waitForURL(/\/crawls\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").at(-1));
    await page.getByTestId("stat-requests").waitFor();

    const row = await database.db.crawl.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe("queued");
    expect(row.rootUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const config = JSON.parse(row.config) as CrawlConfig;
    // The demo's address is allowed by the server's network policy (`npm start`), not by the crawl.
    expect(config.allowPrivateNetwork).toBe(false);
    expect(config.politeness.delayMs).toBe(100);
    expect(config.budget.requests).toBe(2000);
    expect(new Set(config.targetMimeTypes)).toEqual(new Set([...DATA_FILES_MIME_TYPES, ...DOCUMENT_MIME_TYPES]));
    await page.close();
  });

  it("lists the crawl with a link to its cockpit and a New crawl button", async () => {
    const page = await browser.newPage({ ...app.signedIn, viewport: { width: 1280, height: 900 } });
    await page.goto(app.baseUrl);
    const table = page.getByRole("table", { name: "Crawls" });
    await table.waitFor();
    const link = table.getByRole("link", { name: /Demo: statistics office/ });
    expect(await link.getAttribute("href")).toMatch(/^\/crawls\/\d+$/);
    expect(await table.textContent()).toContain("Queued");
    expect(await page.getByRole("link", { name: "New crawl", exact: true }).first().getAttribute("href")).toBe("/crawls/new");
    await link.click();
    await page.waitForURL(/\/crawls\/\d+$/);
    await page.close();
  });

  it("shows the crawl list as cards at phone width without horizontal scrolling", async () => {
    const page = await browser.newPage({ ...app.signedIn, viewport: { width: 390, height: 800 } });
    await page.goto(app.baseUrl);
    await page.getByRole("table", { name: "Crawls" }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.close();
  });
});
