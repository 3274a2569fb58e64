import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CrawlConfig } from "../../lib/crawl-config";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { startApp, type RunningApp } from "../helpers/app-server";
import { launchBrowser } from "../helpers/browser";
import { pollUntil } from "../helpers/poll-until";
import { startNodeProcess, type ManagedProcess } from "../helpers/processes";
import { PROJECT_ROOT } from "../helpers/paths";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

// Harvests in Chromium against the built app, a real `forage worker` process and the evolving
// simulator: a finished crawl is repeated from its cockpit (the schedule form checks the cron
// expression and previews the next runs), the harvest page and the home page show its two runs,
// and the second run's cockpit links back to the first and says what changed.

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;
let worker: ManagedProcess;
let site: RunningEvolvingSite;
let first = 0;
const SHOTS = path.join(PROJECT_ROOT, "test-results");

beforeAll(async () => {
  database = await createTestDatabase();
  site = await startEvolvingSite({ items: 24, seed: 3 });
  const env = { DATABASE_URL: database.config.databaseUrl, FORAGE_DATA_DIR: database.config.dataDir };
  // The server's network policy lets crawls reach the simulator on 127.0.0.1.
  worker = startNodeProcess(["bin/forage.mjs", "worker"], { ...env, FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32" });
  const [appStarted, browserStarted] = await Promise.allSettled([startApp(database), launchBrowser()]);
  if (appStarted.status === "fulfilled") app = appStarted.value;
  if (browserStarted.status === "fulfilled") browser = browserStarted.value;
  for (const result of [appStarted, browserStarted]) if (result.status === "rejected") throw result.reason;
  ({ id: first } = await createCrawl(database.db, { rootUrl: site.rootUrl, name: "Catalogue", politeness: { delayMs: 0 }, seed: 7 }));
  await finished(first);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([worker?.stop(15_000), app?.stop(), site?.close()]);
  await database?.dispose();
});

async function finished(crawlId: number) {
  return pollUntil(
    `crawl ${crawlId} finished`,
    () => database.db.crawl.findUniqueOrThrow({ where: { id: crawlId } }),
    (crawl) => crawl.status === "finished" || crawl.status === "failed",
    { timeoutMs: 90_000, pollMs: 250 },
  );
}

async function newPage(): Promise<Page> {
  return browser.newPage({ ...app.signedIn, viewport: { width: 1280, height: 900 } });
}

describe("repeat a crawl as a harvest", () => {
  it("repeats a finished crawl from its cockpit; the harvest shows two runs and the second says what changed", async () => {
    expect((await database.db.crawl.findUniqueOrThrow({ where: { id: first } })).status).toBe("finished");
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${first}`);
    const panel = page.getByTestId("repeat-panel");
    await panel.waitFor();

    // The schedule form: an error next to the cron field, then a preview of the next three runs.
    await panel.getByRole("radio", { name: "On a schedule" }).check();
    await panel.getByLabel("Schedule (cron)").fill("0 0 6 * * 1");
    await expect(panel.getByTestId("error-cron").textContent()).resolves.toMatch(/five fields/);
    expect(await panel.getByTestId("repeat-submit").isDisabled()).toBe(true);
    await panel.getByLabel("Schedule (cron)").fill("30 6 * * 1-5");
    await panel.getByLabel("Time zone").fill("Europe/Paris");
    await expect(panel.getByTestId("schedule-preview").locator("li").count()).resolves.toBe(3);
    expect(await panel.getByTestId("schedule-preview").textContent()).toMatch(/06:30/);
    fs.mkdirSync(SHOTS, { recursive: true });
    await panel.screenshot({ path: path.join(SHOTS, "harvests-repeat-panel.png") });

    // Now instead: the site publishes its version 2, the run starts after the first crawl.
    await panel.getByRole("radio", { name: "Now" }).check();
    site.version = 2;
    await panel.getByTestId("repeat-submit").click();
    await page.waitForURL(/\/harvests\/\d+$/);
    const harvestId = Number(new URL(page.url()).pathname.split("/").at(-1));
    const runs = await database.db.crawl.findMany({ where: { harvestId }, orderBy: { id: "asc" } });
    expect(runs.map((run) => run.id)[0]).toBe(first);
    const second = runs[1]!.id;
    expect(JSON.parse(runs[1]!.config) as CrawlConfig).toMatchObject({ after: first, checkKnownFiles: true, rootUrl: site.rootUrl });
    await finished(second);

    const runRows = page.getByTestId("harvest-runs").locator("tbody tr");
    await pollUntil("two finished runs on the harvest page", () => runRows.allTextContents(), (rows) => rows.length === 2 && rows.every((row) => row.includes("Finished")), { timeoutMs: 20_000, pollMs: 250 });
    await expect(page.getByTestId("harvest-events").textContent()).resolves.toContain(`Run started by hand: crawl ${second} after crawl ${first}`);
    await page.screenshot({ path: path.join(SHOTS, "harvests-page.png"), fullPage: true });

    // The home page groups the runs under their harvest.
    await page.goto(app.baseUrl);
    const item = page.getByTestId(`harvest-${harvestId}`);
    await item.waitFor();
    expect(await item.textContent()).toContain("2 runs");
    expect(await item.getByRole("link", { name: /Crawl #/ }).allTextContents()).toEqual([`Crawl #${second}`, `Crawl #${first}`]);
    await page.screenshot({ path: path.join(SHOTS, "harvests-home.png"), fullPage: true });

    // The second run's cockpit: its place in the harvest and What changed.
    await item.getByRole("link", { name: `Crawl #${second}` }).click();
    await page.waitForURL(new RegExp(`/crawls/${second}$`));
    const links = page.getByTestId("harvest-run-links");
    await links.waitFor();
    expect(await links.textContent()).toContain("Run 2 of 2");
    expect(await links.getByRole("link", { name: /previous run/ }).getAttribute("href")).toBe(`/crawls/${first}`);
    await page.getByTestId("changes-panel").waitFor();
    const truth = site.catalogue.changes(1, 2);
    await expect(page.getByTestId("changes-new").textContent()).resolves.toBe(String(truth.new.length));
    await expect(page.getByTestId("changes-changed").textContent()).resolves.toBe(String(truth.changed.length));
    await expect(page.getByTestId("changes-gone").textContent()).resolves.toBe(String(truth.gone.length));
    expect(await page.getByTestId("download-new-changed").getAttribute("href")).toBe(`/api/crawls/${second}/export.zip?changes=new,changed`);
    // A run of a harvest is repeated from its harvest, not made into another one.
    expect(await page.getByTestId("repeat-panel").count()).toBe(0);
    await page.close();
  });
});
