import fs from "node:fs";
import path from "node:path";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueSetupLink } from "../../lib/auth/setup-link";
import { DATA_FILES_MIME_TYPES } from "../../lib/crawler/defaults";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { startApp, type RunningApp } from "../helpers/app-server";
import { axeViolations } from "../helpers/axe";
import { launchBrowser } from "../helpers/browser";
import { PROJECT_ROOT } from "../helpers/paths";
import { pollUntil } from "../helpers/poll-until";
import { freePort, startNodeProcess, waitForHttp, type ManagedProcess } from "../helpers/processes";
import { createTestAccount, type TestAccount } from "../helpers/test-accounts";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

// Accessibility (issue #35): every page of the app passes axe-core's WCAG 2.1 A/AA rules as a
// user reaches it (forms with their errors shown, a running and a finished crawl's cockpit with
// a file's preview open), and the main journey works with the keyboard alone: sign in, define a
// crawl, watch it, preview a collected file, download the ZIP. One dashboard, a real worker and
// the demo site, from before the first account exists. With FORAGE_SCREENSHOTS=1 the finished
// crawl's files panel, its preview open, is also saved as README's picture (docs/images/previews.png).

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;
let worker: ManagedProcess;
let demo: ManagedProcess;
let demoUrl: string;
/** The admin, created after the first-run pages were checked. */
let admin: TestAccount;
let signedIn: BrowserContextOptions;

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.config.databaseUrl, FORAGE_DATA_DIR: database.config.dataDir };
  const demoPort = await freePort();
  demoUrl = `http://127.0.0.1:${demoPort}/`;
  demo = startNodeProcess(["bin/forage.mjs", "demo", "--port", String(demoPort)], env);
  worker = startNodeProcess(["bin/forage.mjs", "worker"], { ...env, FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32" });
  // No account at first: the setup page is only a form while the server has none.
  const [appStarted, browserStarted, demoReady] = await Promise.allSettled([
    startApp(database, { FORAGE_DEMO_PORT: String(demoPort), FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32" }, { withAdmin: false }),
    launchBrowser(),
    waitForHttp(demoUrl, demo),
  ]);
  if (appStarted.status === "fulfilled") app = appStarted.value;
  if (browserStarted.status === "fulfilled") browser = browserStarted.value;
  for (const result of [appStarted, browserStarted, demoReady]) if (result.status === "rejected") throw result.reason;
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([worker?.stop(15_000), demo?.stop(), app?.stop()]);
  await database?.dispose();
});

/** `fetch` on the app with the admin's bearer token. */
function api(pathname: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${admin.token}`);
  if (init.body !== undefined) headers.set("content-type", "application/json");
  return fetch(`${app.baseUrl}${pathname}`, { ...init, headers });
}

async function newPage(options: BrowserContextOptions = signedIn): Promise<Page> {
  return browser.newPage({ ...options, viewport: { width: 1280, height: 900 } });
}

/** Soft: one test walks several pages, and every page's violations are worth seeing at once. */
async function expectNoViolations(page: Page, what: string): Promise<void> {
  expect.soft(await axeViolations(page, what)).toEqual([]);
}

/** Waits for the open preview's body: its table, or the reason it has none (which fails the test). */
async function previewTable(page: Page): Promise<void> {
  const preview = page.getByTestId("file-preview");
  await preview.locator('[data-testid="file-preview-table"], [data-testid="file-preview-error"], [data-testid="file-preview-pdf"], [data-testid="file-preview-json"]').first().waitFor();
  expect.soft(await preview.getByTestId("file-preview-error").count(), (await preview.textContent()) ?? "").toBe(0);
  expect.soft(await preview.getByTestId("file-preview-table").count()).toBe(1);
}

async function crawlEnded(crawlId: number, timeoutMs = 90_000) {
  const crawl = await pollUntil(
    `crawl ${crawlId} over`,
    () => database.db.crawl.findUniqueOrThrow({ where: { id: crawlId } }),
    (row) => row.status === "finished" || row.status === "failed",
    { timeoutMs, pollMs: 250, context: () => `worker:\n${worker.output()}` },
  );
  expect(crawl.status).toBe("finished");
}

/** Filters the cockpit's file list to the CSV files (its first page may hold none), once one was collected. */
async function showCsvFilesOnly(page: Page): Promise<void> {
  const filter = page.getByTitle("Show only text/csv files");
  await filter.waitFor({ timeout: 120_000 });
  await filter.click();
  await page.locator("#files").getByRole("heading", { name: "Files of type text/csv" }).waitFor();
}

/** A CSV file's Preview button in the cockpit's files table, once it lists one (the demo site's .xlsx files are not real workbooks). */
async function tablePreviewButton(page: Page) {
  const button = page.locator("#files").getByRole("button", { name: /^Preview .*\.csv$/ }).first();
  await button.waitFor({ timeout: 120_000 });
  return button;
}

describe("before the first account", () => {
  it("the setup page (empty, with errors, with a bad link) and the sign-in page pass axe", async () => {
    const secret = await issueSetupLink(database.db);
    const page = await newPage({});
    await page.goto(`${app.baseUrl}/setup?token=${secret}`, { waitUntil: "networkidle" });
    await page.getByRole("button", { name: "Create admin account" }).waitFor();
    await expectNoViolations(page, "setup");
    await page.getByLabel("Email").fill("not an address");
    await page.getByRole("button", { name: "Create admin account" }).click();
    await page.getByTestId("error-email").waitFor();
    await expectNoViolations(page, "setup with field errors");

    await page.goto(`${app.baseUrl}/setup?token=wrong`);
    await page.getByTestId("setup-problem").waitFor();
    await expectNoViolations(page, "setup with a bad link");

    await page.goto(`${app.baseUrl}/sign-in`);
    await page.getByTestId("no-users").waitFor();
    await expectNoViolations(page, "sign-in without accounts");
    await page.close();

    admin = await createTestAccount(database.db);
    signedIn = {
      storageState: {
        cookies: [{ name: "forage_session", value: admin.session, domain: "127.0.0.1", path: "/", expires: -1, httpOnly: true, secure: false, sameSite: "Lax" }],
        origins: [],
      },
    };
  });
});

/** Whether the focused element shows it: an outline or a box shadow (what :focus-visible draws). */
async function focusShows(page: Page): Promise<{ element: string; visible: boolean }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { element: "body", visible: false };
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    const shadow = style.boxShadow !== "none";
    const name = element.getAttribute("aria-label") ?? element.textContent?.trim().slice(0, 40) ?? "";
    return { element: `${element.tagName.toLowerCase()} "${name}"`, visible: outline || shadow };
  });
}

/** The focused element's tag, accessible name (label text for inputs) and href. */
async function focused(page: Page): Promise<{ tag: string; name: string; href: string | null }> {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element) return { tag: "", name: "", href: null };
    const labelled = element.id ? document.querySelector(`label[for="${CSS.escape(element.id)}"]`)?.textContent : null;
    const name = (element.getAttribute("aria-label") ?? labelled ?? element.textContent ?? "").trim();
    return { tag: element.tagName.toLowerCase(), name, href: element.getAttribute("href") };
  });
}

/**
 * Presses Tab (Shift+Tab with `backwards`) until the focused element's name matches `name`, as
 * a keyboard user moves through the page; fails naming the path taken when `maxPresses` is spent.
 */
async function tabTo(page: Page, name: RegExp, { backwards = false, maxPresses = 60 } = {}): Promise<void> {
  const seen: string[] = [];
  for (let press = 0; press < maxPresses; press++) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    const now = await focused(page);
    if (name.test(now.name)) return;
    seen.push(`${now.tag}:${now.name.slice(0, 30)}`);
  }
  throw new Error(`${name} not reached in ${maxPresses} presses of ${backwards ? "Shift+Tab" : "Tab"}; focus went through: ${seen.join(" | ")}`);
}

async function expectFocusShows(page: Page): Promise<void> {
  const focus = await focusShows(page);
  expect(focus, `focus ring on ${focus.element}`).toMatchObject({ visible: true });
}

describe("the keyboard alone", () => {
  it("signs in, defines a crawl, watches it, previews a collected file and downloads the ZIP", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(app.baseUrl, { waitUntil: "networkidle" });
    await page.waitForURL(/\/sign-in/);

    // The skip link comes first, then the form.
    await page.keyboard.press("Tab");
    expect((await focused(page)).name).toBe("Skip to content");
    await expectFocusShows(page);
    await tabTo(page, /^Email$/);
    await expectFocusShows(page);
    await page.keyboard.type(admin.user.email);
    await tabTo(page, /^Password$/);
    await page.keyboard.type(admin.password);
    await tabTo(page, /^Sign in$/);
    await expectFocusShows(page);
    await page.keyboard.press("Enter");
    await page.waitForURL(`${app.baseUrl}/`);
    await page.waitForLoadState("networkidle");

    // The main menu's New crawl.
    await tabTo(page, /^New crawl$/);
    await expectFocusShows(page);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/crawls\/new$/);
    await page.waitForLoadState("networkidle");
    await tabTo(page, /^Root URL$/);
    await expectFocusShows(page);
    await page.keyboard.type(demoUrl);
    await tabTo(page, /^Name$/);
    await page.keyboard.type("Keyboard crawl");
    await tabTo(page, /^Request budget$/);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("1500");
    await tabTo(page, /^Politeness delay \(ms\)$/);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("100");
    await tabTo(page, /^Start crawl$/);
    await expectFocusShows(page);
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/crawls\/\d+$/);
    const crawlId = Number(new URL(page.url()).pathname.split("/").at(-1));
    const row = await database.db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
    expect(row).toMatchObject({ rootUrl: demoUrl, name: "Keyboard crawl" });
    await page.getByTestId("crawl-status").getByText("Running", { exact: true }).waitFor({ timeout: 15_000 });

    // The section menu's Targets link, then a CSV or spreadsheet's Preview button.
    await tabTo(page, /^Targets$/);
    await expectFocusShows(page);
    await page.keyboard.press("Enter");
    // Only the CSV files (the first page of files may hold none): the type's button in the breakdown.
    await page.getByTitle("Show only text/csv files").waitFor({ timeout: 120_000 });
    await tabTo(page, /^CSV$/, { maxPresses: 30 });
    await expectFocusShows(page);
    await page.keyboard.press("Space");
    await page.locator("#files").getByRole("heading", { name: "Files of type text/csv" }).waitFor();
    await tablePreviewButton(page);
    await tabTo(page, /^Preview .*\.csv$/, { maxPresses: 30 });
    await expectFocusShows(page);
    const previewed = (await focused(page)).name.replace(/^Preview /, "");
    await page.keyboard.press("Enter");
    const preview = page.getByTestId("file-preview");
    await previewTable(page);
    expect(await preview.getByRole("heading").textContent()).toBe(`Preview of ${previewed}`);
    // Focus moved into the preview (its heading), so the next Tab reaches its Close button.
    expect((await focused(page)).name).toBe(`Preview of ${previewed}`);
    await tabTo(page, /^Close preview$/, { maxPresses: 3 });
    await expectFocusShows(page);
    await page.keyboard.press("Enter");
    await pollUntil("the preview closed", () => preview.count(), (count) => count === 0, { timeoutMs: 5_000, pollMs: 50 });
    // Closing gives focus back to the button that opened the preview.
    expect((await focused(page)).name).toBe(`Preview ${previewed}`);

    // Back up the panel to the ZIP.
    await tabTo(page, /Download all targets \(ZIP\)/, { backwards: true, maxPresses: 150 });
    await expectFocusShows(page);
    const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
    expect(download.suggestedFilename()).toMatch(/\.zip$/);
    await context.close();
    // The machine's two cores are for the crawls that follow.
    await api(`/api/crawls/${crawlId}/stop`, { method: "POST", body: "{}" });
  });
});

describe("every page passes axe", () => {
  let finishedId = 0;

  beforeAll(async () => {
    ({ id: finishedId } = await createCrawl(database.db, {
      rootUrl: demoUrl,
      name: "Demo: statistics office",
      // CSV only: a short crawl of every data type may collect none, and the preview shown is a CSV's.
      targetMimeTypes: ["text/csv"],
      budget: { requests: 300 },
      politeness: { delayMs: 0 },
      seed: 11,
    }));
    await crawlEnded(finishedId, 150_000);
  }, 180_000);

  it("the crawl list and the New crawl form, empty and with its errors", async () => {
    const page = await newPage();
    await page.goto(app.baseUrl, { waitUntil: "networkidle" });
    await page.getByRole("table", { name: "Crawls" }).waitFor();
    await expectNoViolations(page, "home");

    await page.goto(`${app.baseUrl}/crawls/new`, { waitUntil: "networkidle" });
    await page.getByLabel("Root URL").waitFor();
    await expectNoViolations(page, "new crawl");
    await page.getByLabel("Root URL").fill("ftp://x");
    await page.getByLabel("Request budget").fill("0");
    await page.getByRole("button", { name: "Start crawl" }).click();
    await page.getByTestId("error-summary").waitFor();
    await expectNoViolations(page, "new crawl with errors");
    await page.close();
  });

  it("a finished crawl's cockpit with a preview open, and its Compare and harvest pages", async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${finishedId}`, { waitUntil: "networkidle" });
    await page.locator("#replays").waitFor();
    await showCsvFilesOnly(page);
    const button = await tablePreviewButton(page);
    await button.click();
    await previewTable(page);
    await expectNoViolations(page, "finished cockpit with a preview");
    if (process.env.FORAGE_SCREENSHOTS === "1") await saveFilesPanelPicture(page);

    const replay = await api(`/api/crawls/${finishedId}/replays`, { method: "POST", body: JSON.stringify({ strategies: ["bfs"], seed: 1 }) });
    expect(replay.status).toBe(201);
    const replayId = await pollUntil(
      "the replay crawl",
      () => database.db.crawl.findFirst({ where: { replayOfCrawlId: finishedId } }),
      (crawl) => crawl !== null,
      { timeoutMs: 10_000, pollMs: 100 },
    );
    await crawlEnded(replayId!.id);
    await page.goto(`${app.baseUrl}/compare?ids=${finishedId},${replayId!.id}`, { waitUntil: "networkidle" });
    await page.locator(".recharts-line").first().waitFor();
    await expectNoViolations(page, "compare");

    const created = await api("/api/harvests", {
      method: "POST",
      body: JSON.stringify({ fromCrawlId: finishedId, cron: "0 6 * * 1", timeZone: "Europe/Paris", runNow: false }),
    });
    expect(created.status).toBe(201);
    const { id: harvestId } = (await created.json()) as { id: number };
    await page.goto(`${app.baseUrl}/harvests/${harvestId}`, { waitUntil: "networkidle" });
    await page.getByTestId("harvest-next-run").waitFor();
    await expectNoViolations(page, "harvest");

    await page.goto(app.baseUrl, { waitUntil: "networkidle" });
    await page.getByTestId(`harvest-${harvestId}`).waitFor();
    await expectNoViolations(page, "home with a harvest and replays");
    await page.close();
  }, 240_000);

  it("a running crawl's cockpit with a preview open", async () => {
    const { id } = await createCrawl(database.db, {
      rootUrl: demoUrl,
      name: "Slow demo crawl",
      targetMimeTypes: [...DATA_FILES_MIME_TYPES],
      budget: { requests: 2000 },
      politeness: { delayMs: 200 },
      seed: 12,
    });
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${id}`, { waitUntil: "networkidle" });
    await page.getByTestId("crawl-status").getByText("Running", { exact: true }).waitFor({ timeout: 15_000 });
    await showCsvFilesOnly(page);
    const button = await tablePreviewButton(page);
    await button.click();
    await previewTable(page);
    await expectNoViolations(page, "running cockpit with a preview");
    await api(`/api/crawls/${id}/stop`, { method: "POST", body: "{}" });
    await page.close();
  });

  it("settings, account, workers and missing pages", async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/settings`, { waitUntil: "networkidle" });
    await page.getByTestId("tokens-table").waitFor();
    await page.waitForFunction(() => !(document.querySelector("textarea[name=privateNetworks]") as HTMLTextAreaElement | null)?.disabled);
    await expectNoViolations(page, "settings");
    await page.locator("textarea[name=privateNetworks]").fill("not-a-cidr");
    await page.getByRole("button", { name: "Save network policy" }).click();
    await page.getByTestId("error-privateNetworks").waitFor();
    await expectNoViolations(page, "settings with a field error");

    await page.goto(`${app.baseUrl}/account`, { waitUntil: "networkidle" });
    await page.getByTestId("account-identity").waitFor();
    await expectNoViolations(page, "account");

    await page.goto(`${app.baseUrl}/workers`, { waitUntil: "networkidle" });
    await page.getByRole("table", { name: "Workers" }).waitFor();
    await expectNoViolations(page, "workers");

    const missing = await page.goto(`${app.baseUrl}/no-such-page`, { waitUntil: "networkidle" });
    expect(missing?.status()).toBe(404);
    await expectNoViolations(page, "not found");
    const noCrawl = await page.goto(`${app.baseUrl}/crawls/999999`, { waitUntil: "networkidle" });
    expect(noCrawl?.status()).toBe(404);
    await expectNoViolations(page, "a crawl that does not exist");
    await page.close();
  });
});

/**
 * README's picture (FORAGE_SCREENSHOTS=1): the files panel at 1280 px, from the last rows of the
 * file list (their Preview buttons) to the end of the open preview.
 */
async function saveFilesPanelPicture(page: Page): Promise<void> {
  // Page coordinates (a full-page shot's clip), not the viewport's.
  const { top, bottom } = await page.evaluate(() => {
    const panel = document.getElementById("files")!.getBoundingClientRect();
    const preview = document.querySelector('[data-testid="file-preview"]')!.getBoundingClientRect();
    return { top: Math.max(panel.top, preview.top - 240) + window.scrollY, bottom: preview.bottom + window.scrollY };
  });
  const file = path.join(PROJECT_ROOT, "docs/images/previews.png");
  await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: top - 8, width: 1280, height: bottom - top + 24 } });
  expect(fs.statSync(file).size).toBeLessThan(250 * 1024);
}
