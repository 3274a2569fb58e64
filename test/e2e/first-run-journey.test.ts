import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { startApp, type RunningApp } from "../helpers/app-server";
import { launchBrowser } from "../helpers/browser";
import { pollUntil } from "../helpers/poll-until";
import { startNodeProcess, type ManagedProcess } from "../helpers/processes";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

// What a new user's first run showed (issue #35), in Chromium against the built app, a real
// `forage worker` and the evolving simulator: a first crawl, then a harvest that re-crawls it
// and is scheduled; the schedule's times, the re-crawl's headline, the panels' reachability,
// the network policy at creation, and the forms' words.

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;
let worker: ManagedProcess;
let site: RunningEvolvingSite;
let first = 0;
let base = 0;
let harvestId = 0;
let second = 0;
let uncheckedRecrawl = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  site = await startEvolvingSite({ items: 60, seed: 5 });
  const env = { DATABASE_URL: database.config.databaseUrl, FORAGE_DATA_DIR: database.config.dataDir };
  // Only the worker may reach 127.0.0.1: the dashboard's policy stays the default (public only).
  worker = startNodeProcess(["bin/forage.mjs", "worker"], { ...env, FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32" });
  const [appStarted, browserStarted] = await Promise.allSettled([startApp(database), launchBrowser()]);
  if (appStarted.status === "fulfilled") app = appStarted.value;
  if (browserStarted.status === "fulfilled") browser = browserStarted.value;
  for (const result of [appStarted, browserStarted]) if (result.status === "rejected") throw result.reason;
  // Two first crawls of version 1: `first` stays on its own (its cockpit offers Repeat), `base`
  // becomes a harvest's first run.
  ({ id: first } = await createCrawl(database.db, { rootUrl: site.rootUrl, name: "Catalogue", politeness: { delayMs: 0 }, seed: 7 }));
  ({ id: base } = await createCrawl(database.db, { rootUrl: site.rootUrl, name: "Catalogue harvest", politeness: { delayMs: 0 }, seed: 7 }));
  await finished(first);
  await finished(base);
  // The harvest, scheduled on Mondays at 06:00 in Paris, its next run started now on version 2.
  site.version = 2;
  const created = await app.api("/api/harvests", {
    method: "POST",
    body: JSON.stringify({ fromCrawlId: base, cron: "0 6 * * 1", timeZone: "Europe/Paris", runNow: true, checkKnownFiles: true }),
  });
  expect(created.status).toBe(201);
  harvestId = ((await created.json()) as { id: number }).id;
  const run = await pollUntil(
    "the harvest's second run",
    () => database.db.crawl.findFirst({ where: { harvestId, id: { not: base } } }),
    (crawl) => crawl !== null,
    { timeoutMs: 20_000, pollMs: 200 },
  );
  second = run!.id;
  // A re-crawl of `first` on version 2 that does not check its known files.
  ({ id: uncheckedRecrawl } = await createCrawl(database.db, { rootUrl: site.rootUrl, politeness: { delayMs: 0 }, seed: 7, after: first }));
  await finished(second);
  await finished(uncheckedRecrawl);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([worker?.stop(15_000), app?.stop(), site?.close()]);
  await database?.dispose();
});

async function finished(crawlId: number) {
  const crawl = await pollUntil(
    `crawl ${crawlId} finished`,
    () => database.db.crawl.findUniqueOrThrow({ where: { id: crawlId } }),
    (row) => row.status === "finished" || row.status === "failed",
    { timeoutMs: 90_000, pollMs: 250 },
  );
  expect(crawl.status).toBe("finished");
}

async function newPage(width = 1280): Promise<Page> {
  return browser.newPage({ ...app.signedIn, viewport: { width, height: 900 } });
}

const noHorizontalScroll = (page: Page) =>
  pollUntil("no horizontal scroll", () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), (overflow) => overflow <= 0, { timeoutMs: 5_000, pollMs: 100 });

describe("schedule times", () => {
  it("says how far ahead the next run is, in the harvest's zone, as its schedule preview does", async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/harvests/${harvestId}`);
    const next = page.getByTestId("harvest-next-run");
    await next.waitFor();
    const text = (await next.textContent())!;
    expect(text).not.toContain("just now");
    expect(text).toMatch(/Next run \w{3}, \d{1,2} \w{3} \d{4}, 06:00 (CET|CEST) \((in \d+ (days|hours|minutes)|tomorrow|in a few seconds)\)\./);
    // The preview's first time is the same time, written the same way.
    const preview = await page.getByTestId("schedule-preview").locator("li").first().textContent();
    expect(text).toContain(preview!);

    await page.goto(app.baseUrl);
    const item = page.getByTestId(`harvest-${harvestId}`);
    await item.waitFor();
    // The harvest's line (its runs below say when they started: those are past, "just now" is right there).
    const home = (await item.locator(".panel-hint").textContent())!;
    expect(home).toMatch(/next run (in \d+ (days|hours|minutes)|tomorrow)/);
    expect(home).not.toContain("just now");
    expect(home).toContain(preview!);
    await page.close();
  });
});

describe("a first crawl's cockpit", () => {
  it("says a first run has nothing to compare, and its section menu reaches Repeat and Replay", async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${first}`);
    const firstRun = page.getByTestId("changes-first-run");
    await firstRun.waitFor();
    expect(await firstRun.textContent()).toContain("First run: nothing to compare");
    expect(await page.getByTestId("changes-panel").count()).toBe(0);
    const menu = page.getByRole("navigation", { name: "Cockpit sections" });
    await pollUntil("the menu lists the optional panels", () => menu.getByRole("link").allTextContents(), (labels) => labels.includes("Replay"), { timeoutMs: 10_000, pollMs: 100 });
    expect(await menu.getByRole("link").allTextContents()).toEqual(["Overview", "What changed", "Repeat", "Replay", "Tag-path groups", "Early stopping", "Targets", "Requests", "Settings"]);
    for (const [label, id] of [["Repeat", "repeat"], ["Replay", "replays"]] as const) {
      await menu.getByRole("link", { name: label, exact: true }).click();
      await pollUntil(`#${id} scrolled into view`, () => page.locator(`#${id}`).boundingBox(), (box) => box !== null && box.y >= -1 && box.y < 900, { timeoutMs: 5_000, pollMs: 100 });
    }
    // The Targets card speaks of targets, not of how requests split.
    const targets = (await page.getByTestId("stat-targets").textContent())!;
    expect(targets).not.toMatch(/GET|HEAD/);
    expect(targets).toMatch(/files of the wanted types|no file of the wanted types found/);
    // Each replay strategy says what it does.
    const replays = page.locator("#replays");
    expect(await replays.textContent()).toContain("SB told every link's true type from the stored crawl");
    expect(await replays.textContent()).toContain("Breadth-first while it scores page structures");
    // The crawl is over: the early-stopping hint speaks in the past.
    expect(await page.locator("#early-stopping").textContent()).not.toContain("is still finding targets");
    // The groups table fits the page at 1280 px: nothing to scroll sideways to.
    const groups = page.locator("#groups .table-scroll");
    await groups.waitFor();
    expect(await groups.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    await page.close();
  });

  it("keeps the phone width without horizontal scroll", async () => {
    const page = await newPage(390);
    await page.goto(`${app.baseUrl}/crawls/${first}`);
    await page.getByTestId("changes-first-run").waitFor();
    await page.locator("#replays").waitFor();
    await noHorizontalScroll(page);
    await page.goto(app.baseUrl);
    await page.getByRole("table", { name: "Crawls" }).waitFor();
    await noHorizontalScroll(page);
    await page.close();
  });
});

describe("a re-crawl's cockpit", () => {
  it("heads with what changed and what checking cost, without targets or Saved-vs-BFS, and pages the changed files", async () => {
    const truth = site.catalogue.changes(1, 2);
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${second}`);
    const headline = page.getByTestId("recrawl-headline");
    await headline.waitFor();
    await expect(page.getByTestId("stat-new").locator(".stat-value").textContent()).resolves.toBe(String(truth.new.length));
    await expect(page.getByTestId("stat-changed").locator(".stat-value").textContent()).resolves.toBe(String(truth.changed.length));
    await expect(page.getByTestId("stat-gone").locator(".stat-value").textContent()).resolves.toBe(String(truth.gone.length));
    expect(await page.getByTestId("stat-requests").textContent()).toContain("checking cost");
    expect(await page.getByTestId("stat-targets").count()).toBe(0);
    expect(await page.getByTestId("stat-harvest").count()).toBe(0);
    expect(await page.getByTestId("saved-vs-bfs").count()).toBe(0);

    // The unchanged files are many: a page of 25 at a time.
    const panel = page.getByTestId("changes-panel");
    const unchanged = Number(await panel.getByTestId("changes-unchanged").textContent());
    expect(unchanged).toBeGreaterThan(25);
    await panel.getByRole("tab", { name: /Unchanged/ }).click();
    const range = panel.getByTestId("changes-page");
    await pollUntil("first page", () => range.textContent(), (text) => text === `1–25 of ${unchanged}`, { timeoutMs: 10_000, pollMs: 100 });
    await pollUntil("25 rows", () => panel.locator("tbody tr").count(), (rows) => rows === 25, { timeoutMs: 10_000, pollMs: 100 });
    const firstUrl = await panel.locator("tbody tr td").first().textContent();
    await panel.getByRole("button", { name: "Next →" }).click();
    await pollUntil("second page", () => range.textContent(), (text) => text!.startsWith("26–"), { timeoutMs: 10_000, pollMs: 100 });
    await pollUntil("second page's rows", () => panel.locator("tbody tr td").first().textContent(), (url) => url !== firstUrl, { timeoutMs: 10_000, pollMs: 100 });
    await page.close();
  });
});

describe("a re-crawl that did not check its known files", () => {
  it("says how many known files it did not verify, as its change report counts them", async () => {
    const answer = await app.api(`/api/crawls/${uncheckedRecrawl}/changes?change=unchanged&limit=1`);
    const { unchecked } = (await answer.json()) as { unchecked: { linked: number; unlinked: number } };
    expect(unchecked.linked).toBeGreaterThan(0);
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${uncheckedRecrawl}`);
    const note = page.getByTestId("changes-unchecked");
    await note.waitFor();
    const files = (n: number) => `${n} known ${n === 1 ? "file" : "files"}`;
    expect(await note.textContent()).toContain(`Not verified: ${files(unchecked.linked)} linked again (counted unchanged) and ${files(unchecked.unlinked)} no page of this run linked.`);
    await page.close();
  });
});

describe("the network policy when a crawl is created", () => {
  it("answers 400 naming the policy in the API, and the form shows it next to the Root URL", async () => {
    const answer = await app.api("/api/crawls", { method: "POST", body: JSON.stringify({ rootUrl: "http://169.254.169.254/" }) });
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as { error: { fields: Record<string, string> } };
    expect(body.error.fields.rootUrl).toBe("is a cloud-metadata address (169.254.169.254): no crawl or webhook may reach it, whatever the network policy");

    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/new`);
    await page.getByLabel("Root URL").fill("http://10.0.0.7/data/");
    await page.getByRole("button", { name: "Start crawl" }).click();
    const error = page.getByTestId("error-rootUrl");
    await error.waitFor();
    expect(await error.textContent()).toBe("⚠ Root URL is a private or reserved address (10.0.0.7: a private address); an admin can allow private networks in Settings");
    expect(page.url()).toMatch(/\/crawls\/new$/);
    await page.close();
  });
});

describe("the forms' words and controls", () => {
  it("names fields by their labels, styles the Add user inputs, and lets the new token be copied", async () => {
    const context = await browser.newContext({ ...app.signedIn, viewport: { width: 1280, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await page.goto(`${app.baseUrl}/settings`);
    const networks = page.locator("textarea[name=privateNetworks]");
    await page.waitForFunction(() => !(document.querySelector("textarea[name=privateNetworks]") as HTMLTextAreaElement | null)?.disabled);
    await networks.fill("not-a-cidr");
    await page.getByRole("button", { name: "Save network policy" }).click();
    const networkError = page.getByTestId("error-privateNetworks");
    await networkError.waitFor();
    const networkText = (await networkError.textContent())!;
    expect(networkText).toMatch(/^⚠ Private networks crawls may reach: "not-a-cidr" is not a CIDR/);
    expect(networkText).not.toContain("privateNetworks");

    // The Add user inputs look like every other input (border, height).
    const email = page.locator("form").filter({ has: page.getByRole("button", { name: "Add user" }) }).getByLabel("Email");
    const style = await email.evaluate((element) => {
      const computed = getComputedStyle(element);
      return { border: computed.borderTopWidth, minHeight: computed.minHeight };
    });
    expect(style).toEqual({ border: "1px", minHeight: "38px" });

    await page.getByLabel("Token name").fill("first-run copy");
    await page.getByRole("button", { name: "Create token" }).click();
    const token = (await page.getByTestId("new-token").textContent())!.trim();
    await page.getByRole("button", { name: "Copy token" }).click();
    await page.getByText("Copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await context.close();
  });

  it("says which password differs in the words of the form", async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/account`);
    await page.getByLabel("Current password").fill("whatever it is");
    await page.getByLabel("New password", { exact: true }).fill("a new long passphrase");
    await page.getByLabel("Repeat the new password").fill("another passphrase");
    await page.getByRole("button", { name: /Change password/ }).click();
    const error = page.getByTestId("error-repeatPassword");
    await error.waitFor();
    expect(await error.textContent()).toBe("⚠ The repeated password does not match the new password");
    await page.close();
  });

  it("shows a replay's strategy by its display name in the crawl list", async () => {
    const replay = await app.api(`/api/crawls/${first}/replays`, { method: "POST", body: JSON.stringify({ strategies: ["bfs"], seed: 1 }) });
    expect(replay.status).toBe(201);
    const page = await newPage();
    await page.goto(app.baseUrl);
    const table = page.getByRole("table", { name: "Crawls" });
    await table.waitFor();
    const text = (await table.textContent())!;
    expect(text).toContain(`Replay of crawl ${first} (Breadth-first)`);
    expect(text).not.toContain("(bfs)");
    // Root URLs wrap at their punctuation, not mid-word.
    expect(await table.locator(".crawl-url wbr, .crawl-name wbr").count()).toBeGreaterThan(0);
    await page.close();
  });
});
