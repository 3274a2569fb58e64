import type { Browser, Page } from "playwright-core";
import { startAppInBrowser, stopAppInBrowser } from "../helpers/app-in-browser";
import type { RunningApp } from "../helpers/app-server";
import type { TestDatabase } from "../helpers/test-database";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATA_FILES_MIME_TYPES } from "../../lib/crawler/defaults";
import { ALGORITHM_DEFAULTS } from "../../lib/crawler/settings-table";
import type { CrawlConfig } from "../../lib/crawl-config";

// The "New crawl" form in real Chromium against the built app and the real API: labels, the
// duration estimate, client-side and API-side errors next to their fields, a successful start,
// and "Clone settings".

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  ({ database, app, browser } = await startAppInBrowser());
});

afterAll(() => stopAppInBrowser({ database, app, browser }));

async function openForm(query = ""): Promise<Page> {
  const page = await browser.newPage({ ...app.signedIn, viewport: { width: 1280, height: 900 } });
  const response = await page.goto(`${app.baseUrl}/crawls/new${query}`);
  expect(response?.status()).toBe(200);
  await page.getByLabel("Root URL").waitFor();
  return page;
}

describe("new crawl form", () => {
  it("labels every field and pre-fills the protective defaults", async () => {
    const page = await openForm();
    for (const label of ["Root URL", "Request budget", "Byte limit", "Time limit", "URL patterns", "File extensions", "Politeness delay (ms)", "Strategy"]) {
      expect(await page.getByLabel(label, { exact: true }).count(), label).toBe(1);
    }
    expect(await page.getByLabel("MIME types", { exact: true }).inputValue()).toBe("image/ audio/ video/");
    expect(await page.getByLabel("File extensions", { exact: true }).inputValue()).toContain(".jpg");
    expect(await page.getByLabel("Obey robots.txt").isChecked()).toBe(true);
    // Private addresses are the server's network policy, not a setting of the crawl.
    expect(await page.getByText("Allow private network addresses").count()).toBe(0);
    expect(await page.getByTestId("network-policy-hint").textContent()).toContain("Settings → Network");
    expect(await page.getByLabel("Politeness delay (ms)").inputValue()).toBe("1000");

    // Target MIME types: a group with the three presets; "Data files" is chosen by default.
    const mimeGroup = page.getByRole("group", { name: "Target MIME types" });
    expect(await mimeGroup.getByRole("button", { name: "Data files" }).getAttribute("aria-pressed")).toBe("true");
    expect(await mimeGroup.getByRole("button", { name: "Documents" }).getAttribute("aria-pressed")).toBe("false");
    expect(await mimeGroup.getByRole("button", { name: "Paper's full list" }).count()).toBe(1);
    expect(await mimeGroup.getByRole("listitem").count()).toBe(DATA_FILES_MIME_TYPES.length);

    // Strategies: SB-CLASSIFIER first, the baselines, never SB-ORACLE (replays only).
    const options = await page.getByLabel("Strategy").locator("option").allTextContents();
    expect(options[0]).toContain("SB-CLASSIFIER");
    expect(options.some((option) => option.includes("ORACLE"))).toBe(false);
    expect(options.some((option) => option.includes("SB-PAPER"))).toBe(true);
    expect(options.some((option) => option.includes("TRES"))).toBe(true);
    expect(options).toHaveLength(8);

    // Advanced is collapsed; opening it shows the algorithm settings, each explained, and the seed.
    expect(await page.getByLabel("Seed").isVisible()).toBe(false);
    await page.getByText("Advanced", { exact: true }).click();
    expect(await page.getByLabel("Seed").isVisible()).toBe(true);
    expect(await page.getByLabel("Similarity threshold θ").inputValue()).toBe("0.75");
    expect(await page.locator("#field-params-similarityThreshold-hint").textContent()).toContain("cosine similarity");
    // The settings that are not numbers: a choice of nearest-group search and two switches.
    const groupIndex = page.getByLabel("Nearest-group search");
    expect(await groupIndex.inputValue()).toBe("exact");
    expect(await groupIndex.locator("option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value))).toEqual(["exact", "hnsw"]);
    expect(await page.locator("#field-params-groupIndex-hint").textContent()).toContain("true nearest centroid");
    // The HNSW numbers stay visible, marked as applying to HNSW only.
    for (const key of ["hnswM", "hnswEfConstruction", "hnswEf"]) {
      expect(await page.locator(`#field-params-${key}`).isVisible(), key).toBe(true);
      expect(await page.locator(`#field-params-${key}-hint`).textContent(), key).toContain("Applies to HNSW search only");
    }
    expect(await page.getByLabel("Stop early when the harvest dries up").isChecked()).toBe(true);
    expect(await page.getByLabel("Set aside URL shapes that only answer useless files").isChecked()).toBe(true);
    expect(await page.locator("#field-params-skipDeadUrlShapes-hint").textContent()).toContain("neither a page nor a target");
    await page.close();
  });

  it("estimates the duration from budget × politeness delay", async () => {
    const page = await openForm();
    await page.getByLabel("Request budget").fill("2000");
    await page.getByLabel("Politeness delay (ms)").fill("1000");
    expect(await page.getByTestId("budget-estimate").textContent()).toContain("about 33 min 20 s");
    await page.getByLabel("Politeness delay (ms)").fill("100");
    expect(await page.getByTestId("budget-estimate").textContent()).toContain("about 3 min 20 s");
    await page.close();
  });

  it("adds and removes single MIME types as chips", async () => {
    const page = await openForm();
    const group = page.getByRole("group", { name: "Target MIME types" });
    await group.getByRole("button", { name: "Remove text/csv" }).click();
    expect(await group.getByRole("button", { name: "Remove text/csv" }).count()).toBe(0);
    expect(await group.getByRole("button", { name: "Data files" }).getAttribute("aria-pressed")).toBe("false");
    await page.getByLabel("Add a MIME type").fill("not a type");
    await page.getByLabel("Add a MIME type").press("Enter");
    await group.getByText("must look like type/subtype").waitFor();
    await page.getByLabel("Add a MIME type").fill("text/tab-separated-values");
    await page.getByLabel("Add a MIME type").press("Enter");
    await group.getByRole("button", { name: "Remove text/tab-separated-values" }).waitFor();
    await group.getByRole("button", { name: "Documents" }).click();
    await group.getByRole("button", { name: "Remove application/pdf" }).waitFor();
    await page.close();
  });

  it("shows obvious mistakes next to their fields before sending anything", async () => {
    const page = await openForm();
    await page.getByLabel("Root URL").fill("ftp://x");
    await page.getByLabel("Request budget").fill("0");
    await page.getByRole("button", { name: "Start crawl" }).click();
    await page.getByTestId("error-rootUrl").waitFor();
    expect(await page.getByTestId("error-rootUrl").textContent()).toContain("Root URL must use http or https, not ftp");
    expect(await page.getByTestId("error-budget.requests").textContent()).toContain("Request budget must be at least 1");
    // Each error is attached to its input, and the summary took the focus.
    expect(await page.getByLabel("Root URL").getAttribute("aria-invalid")).toBe("true");
    expect(await page.getByLabel("Root URL").getAttribute("aria-describedby")).toContain("field-rootUrl-error");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe("error-summary");
    expect(await page.getByTestId("error-summary").textContent()).toContain("2 settings need a change");
    expect(await database.db.crawl.count()).toBe(0);
    // Fixing a field clears its error.
    await page.getByLabel("Root URL").fill("https://data.example.org/");
    expect(await page.getByTestId("error-rootUrl").count()).toBe(0);
    await page.close();
  });

  it("maps the API's 400 field errors onto the fields, opening Advanced when needed", async () => {
    const page = await openForm();
    await page.getByLabel("Root URL").fill("https://data.example.org/");
    await page.getByText("Advanced", { exact: true }).click();
    await page.getByLabel("Similarity threshold θ").fill("1.5");
    await page.getByLabel("File extensions", { exact: true }).fill(".png no/t");
    await page.getByText("Advanced", { exact: true }).click(); // collapse again: the error must reopen it
    await page.getByRole("button", { name: "Start crawl" }).click();
    const paramError = page.getByTestId("error-params.similarityThreshold");
    await paramError.waitFor();
    expect(await paramError.textContent()).toContain("Similarity threshold θ must be at most 1");
    expect(await paramError.isVisible()).toBe(true);
    expect(await page.getByTestId("error-blocklist.extensions").textContent()).toContain("“no/t”");
    expect(await database.db.crawl.count()).toBe(0);
    await page.close();
  });

  it("starts a crawl: the row is queued and the browser lands on its cockpit", async () => {
    const page = await openForm();
    await page.getByLabel("Root URL").fill("https://data.example.org/");
    await page.getByLabel("Name").fill("Ministry data");
    await page.getByLabel("Request budget").fill("50");
    await page.getByLabel("Politeness delay (ms)").fill("500");
    await page.getByLabel("URL patterns").fill("*/calendar/*");
    await page.getByRole("button", { name: "Start crawl" }).click();
    await page.waitForURL(/\/crawls\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").at(-1));
    const row = await database.db.crawl.findUniqueOrThrow({ where: { id } });
    expect(row.status).toBe("queued");
    expect(row.rootUrl).toBe("https://data.example.org/");
    const config = JSON.parse(row.config) as CrawlConfig;
    expect(config.budget.requests).toBe(50);
    expect(config.politeness.delayMs).toBe(500);
    expect(config.blocklist.urlPatterns).toEqual(["*/calendar/*"]);
    expect(config.targetMimeTypes).toEqual([...DATA_FILES_MIME_TYPES]);
    expect(config.strategy).toBe("sb");
    // Shown rounded (2.82843), sent back exact.
    expect(config.params.banditAlpha).toBe(ALGORITHM_DEFAULTS.banditAlpha);
    await page.getByTestId("crawl-status").getByText("Queued").waitFor();
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Ministry data");
    await page.close();
  });

  it("clones the settings of an existing crawl, seed included", async () => {
    const { id } = await database.db.crawl.findFirstOrThrow({ where: { name: "Ministry data" }, select: { id: true } });
    const page = await openForm(`?from=${id}`);
    await page.getByTestId("clone-notice").waitFor();
    expect(await page.getByLabel("Root URL").inputValue()).toBe("https://data.example.org/");
    expect(await page.getByLabel("Request budget").inputValue()).toBe("50");
    expect(await page.getByLabel("Politeness delay (ms)").inputValue()).toBe("500");
    expect(await page.getByLabel("URL patterns").inputValue()).toBe("*/calendar/*");
    const seed = (await database.db.crawl.findUniqueOrThrow({ where: { id } })).seed;
    expect(await page.getByLabel("Seed").inputValue()).toBe(String(seed));
    await page.close();
  });

  it("sends non-default choices (HNSW search, the paper's uniform link choice, every switch off) and clones them back", async () => {
    const page = await openForm();
    await page.getByLabel("Root URL").fill("https://hnsw.example.org/");
    await page.getByLabel("Name").fill("HNSW run");
    await page.getByText("Advanced", { exact: true }).click();
    await page.getByLabel("Nearest-group search").selectOption("hnsw");
    await page.getByLabel("HNSW ef (search)").fill("40");
    await page.getByLabel("Stop early when the harvest dries up").uncheck();
    await page.getByLabel("Set aside URL shapes that only answer useless files").uncheck();
    await page.getByLabel("Scale exploration to the site's reward").uncheck();
    await page.getByLabel("Explore less the groups whose pages bring nothing new").uncheck();
    await page.getByLabel("Move a waiting link to a better group when another page lists it").uncheck();
    await page.getByLabel("Links ranked per choice").fill("1");
    await page.getByLabel("Weight of link URLs in the group choice").fill("0");
    await page.getByRole("button", { name: "Start crawl" }).click();
    await page.waitForURL(/\/crawls\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").at(-1));
    const config = JSON.parse((await database.db.crawl.findUniqueOrThrow({ where: { id } })).config) as CrawlConfig;
    expect(config.params.groupIndex).toBe("hnsw");
    expect(config.params.hnswEf).toBe(40);
    expect(config.params.earlyStop).toBe(false);
    expect(config.params.skipDeadUrlShapes).toBe(false);
    expect(config.params.rewardScaledExploration).toBe(false);
    expect(config.params.barrenDamping).toBe(false);
    expect(config.params.regroupRediscoveredLinks).toBe(false);
    expect(config.params.linkRankSamples).toBe(1);
    expect(config.params.urlOutlookWeight).toBe(0);
    await page.close();

    const clone = await openForm(`?from=${id}`);
    await clone.getByTestId("clone-notice").waitFor();
    await clone.getByText("Advanced", { exact: true }).click();
    expect(await clone.getByLabel("Nearest-group search").inputValue()).toBe("hnsw");
    expect(await clone.getByLabel("HNSW ef (search)").inputValue()).toBe("40");
    expect(await clone.getByLabel("Stop early when the harvest dries up").isChecked()).toBe(false);
    expect(await clone.getByLabel("Set aside URL shapes that only answer useless files").isChecked()).toBe(false);
    expect(await clone.getByLabel("Scale exploration to the site's reward").isChecked()).toBe(false);
    expect(await clone.getByLabel("Explore less the groups whose pages bring nothing new").isChecked()).toBe(false);
    expect(await clone.getByLabel("Move a waiting link to a better group when another page lists it").isChecked()).toBe(false);
    expect(await clone.getByLabel("Links ranked per choice").inputValue()).toBe("1");
    expect(await clone.getByLabel("Weight of link URLs in the group choice").inputValue()).toBe("0");
    // Sent again unchanged, the clone stores the same choices.
    await clone.getByLabel("Name").fill("HNSW run, again");
    await clone.getByRole("button", { name: "Start crawl" }).click();
    await clone.waitForURL(/\/crawls\/\d+$/);
    const cloneId = Number(new URL(clone.url()).pathname.split("/").at(-1));
    expect(cloneId).not.toBe(id);
    const cloned = JSON.parse((await database.db.crawl.findUniqueOrThrow({ where: { id: cloneId } })).config) as CrawlConfig;
    expect(cloned.params).toEqual(config.params);
    await clone.close();
  });

  it("maps the API's errors on non-number settings onto their fields, opening Advanced", async () => {
    const page = await openForm();
    const before = await database.db.crawl.count();
    // The form cannot produce these values: alter the request on its way, the real API judges it.
    await page.route("**/api/crawls", async (route) => {
      const request = route.request();
      if (request.method() !== "POST") return route.continue();
      const body = JSON.parse(request.postData() ?? "{}") as { params: Record<string, unknown> };
      body.params.groupIndex = "approximate";
      body.params.skipDeadUrlShapes = "yes";
      await route.continue({ postData: JSON.stringify(body) });
    });
    await page.getByLabel("Root URL").fill("https://data.example.org/");
    await page.getByRole("button", { name: "Start crawl" }).click();
    const indexError = page.getByTestId("error-params.groupIndex");
    await indexError.waitFor();
    expect(await indexError.isVisible()).toBe(true);
    expect(await indexError.textContent()).toContain("Nearest-group search");
    expect(await page.getByLabel("Nearest-group search").getAttribute("aria-describedby")).toContain("field-params-groupIndex-error");
    const shapesError = page.getByTestId("error-params.skipDeadUrlShapes");
    expect(await shapesError.textContent()).toContain("Set aside URL shapes that only answer useless files must be a boolean");
    expect(await page.getByTestId("error-summary").textContent()).toContain("2 settings need a change");
    // Changing a setting clears its error.
    await page.getByLabel("Nearest-group search").selectOption("hnsw");
    expect(await indexError.count()).toBe(0);
    expect(await database.db.crawl.count()).toBe(before);
    await page.close();
  });
});
