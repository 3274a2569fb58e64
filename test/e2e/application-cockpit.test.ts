/**
 * Application-aware crawling as the user sees it: a crawl of a simulated CKAN portal (run by the
 * worker's own code on the app's database), then its cockpit in Chromium — what was recognised
 * and why, the listing's result, the API action named in the groups table, the setting in the
 * summary — and the crawl form's "site's own catalog or API" choice, sent to the real API.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { buildSite, SIM_TARGET_MIME_TYPES, startSiteServer, type RunningSite } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { startAppInBrowser, stopAppInBrowser } from "../helpers/app-in-browser";
import type { RunningApp } from "../helpers/app-server";
import type { TestDatabase } from "../helpers/test-database";

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;
let portal: RunningSite;
let crawlId: number;

beforeAll(async () => {
  ({ database, app, browser } = await startAppInBrowser({ FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32" }));
  portal = await startSiteServer(buildSite({ shape: "ckan-portal", seed: 3, size: "tiny" }), { port: 0, delayMs: 0 });
  const config = parseCrawlConfig(
    { rootUrl: portal.rootUrl, name: "City portal", targetMimeTypes: [...SIM_TARGET_MIME_TYPES], budget: { requests: 120 }, politeness: { delayMs: 0 }, allowPrivateNetwork: true },
    () => 4,
  );
  crawlId = await insertCrawl(database.db, config);
  const end = await runStoredCrawl({ db: database.db, forage: database.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
  expect(end.kind).toBe("stopped");
}, 120_000);

afterAll(async () => {
  await portal?.close();
  await stopAppInBrowser({ database, app, browser });
});

describe("a crawl of an application site, in the cockpit and the form", () => {
  it("says what was recognised and why, how the listing went, and names the API action in the groups", async () => {
    const page = await browser.newPage({ ...app.signedIn, viewport: { width: 1280, height: 900 } });
    await page.goto(`${app.baseUrl}/crawls/${crawlId}`);
    const notes = page.locator("#application");
    await expect.poll(() => notes.textContent(), { timeout: 15_000 }).toMatch(/Recognised CKAN 2\.10\.4 from generator tag "ckan 2\.10\.4".*\(confirmed by its API\) — listing files through CKAN package_search/);
    expect(await notes.textContent()).toMatch(/CKAN package_search \(every dataset with its resources\) listed \d+ files? in 1 request/);
    await expect.poll(() => page.locator(".section-nav a", { hasText: "Application" }).count()).toBe(1);
    const action = page.locator(".groups-table .application-action");
    await expect.poll(() => action.first().textContent(), { timeout: 15_000 }).toContain("CKAN package_search");
    expect(await action.first().locator(".badge").textContent()).toBe("API");
    expect(await page.getByTestId("settings-summary").textContent()).toContain("its catalog or API used when recognised (recognised automatically)");
    await page.close();
  });

  it("offers the choice in the form and sends the named application to the API", async () => {
    const page = await browser.newPage({ ...app.signedIn, viewport: { width: 1280, height: 900 } });
    await page.goto(`${app.baseUrl}/crawls/new`);
    const use = page.getByLabel("Use the site's own catalog or API when recognised");
    expect(await use.isChecked()).toBe(true);
    const choice = page.getByLabel("Application", { exact: true });
    await expect.poll(() => choice.locator("option").allTextContents()).toEqual(expect.arrayContaining(["Automatic", "CKAN", "WordPress", "DSpace 7+", "MediaWiki"]));
    await page.getByLabel("Root URL").fill("https://data.example.org/");
    await choice.selectOption("ckan");
    const created = page.waitForResponse((response) => response.url().endsWith("/api/crawls") && response.request().method() === "POST");
    await page.getByRole("button", { name: /start crawl/i }).click();
    const body = (await (await created).request().postDataJSON()) as { applications: unknown };
    expect(body.applications).toEqual({ use: true, recipe: "ckan" });
    await page.close();
  });
});
