import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { startApp, type RunningApp } from "../helpers/app-server";
import { launchBrowser } from "../helpers/browser";
import { parseCsv } from "../helpers/csv";
import { runForageCli } from "../helpers/forage-cli";
import { PROJECT_ROOT } from "../helpers/paths";
import { pollUntil } from "../helpers/poll-until";
import { freePort, startNodeProcess, waitForHttp, type ManagedProcess } from "../helpers/processes";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

// Compare crawls, as a researcher does it: a finished crawl of the demo site, replayed with BFS
// and Random from its cockpit (the `forage worker` process runs the replays), then the Compare
// view with three curves and the table, whose numbers must equal those of `forage replay` for
// the same seed. Screenshots at 1280 and 390 px go to test-results/.

const SEED = 3;
const SHOTS = path.join(PROJECT_ROOT, "test-results");

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;
let worker: ManagedProcess;
let demo: ManagedProcess;
let demoUrl: string;
let sourceId: number;
const replayIds: Record<string, number> = {};

beforeAll(async () => {
  database = await createTestDatabase();
  const env = { DATABASE_URL: database.config.databaseUrl, FORAGE_DATA_DIR: database.config.dataDir };
  const demoPort = await freePort();
  demoUrl = `http://127.0.0.1:${demoPort}/`;
  // The tiny demo site: the source crawl takes all of it, so every replay can reach 90 % of its targets.
  demo = startNodeProcess(["bin/forage.mjs", "demo", "--port", String(demoPort), "--size", "tiny"], env);
  worker = startNodeProcess(["bin/forage.mjs", "worker"], { ...env, FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32" });
  const [appStarted, browserStarted, ...ready] = await Promise.allSettled([startApp(database, { FORAGE_DEMO_PORT: String(demoPort), FORAGE_PRIVATE_NETWORKS: "127.0.0.1/32" }), launchBrowser(), waitForHttp(demoUrl, demo)]);
  if (appStarted.status === "fulfilled") app = appStarted.value;
  if (browserStarted.status === "fulfilled") browser = browserStarted.value;
  for (const result of [appStarted, browserStarted, ...ready]) if (result.status === "rejected") throw result.reason;
  fs.mkdirSync(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([worker?.stop(15_000), demo?.stop(), app?.stop()]);
  await database?.dispose();
});

async function newPage(width = 1280, height = 900): Promise<Page> {
  return browser.newPage({ ...app.signedIn, viewport: { width, height }, acceptDownloads: true });
}

const crawlRow = (id: number) => database.db.crawl.findUniqueOrThrow({ where: { id } });

function waitFinished(ids: number[], timeoutMs = 90_000) {
  return pollUntil(
    `crawls ${ids.join(", ")} to end`,
    () => database.db.crawl.findMany({ where: { id: { in: ids } }, select: { id: true, status: true } }),
    (rows) => rows.length === ids.length && rows.every((row) => !["queued", "running", "paused"].includes(row.status)),
    { timeoutMs, pollMs: 200, context: () => `worker:\n${worker.output()}` },
  );
}

/** A crawl's requests and targets, in order: what two runs of one replay must share. */
async function crawlLog(id: number) {
  const requests = await database.db.crawlRequest.findMany({ where: { crawlId: id, seq: { gt: 0 } }, orderBy: { id: "asc" }, select: { seq: true, method: true, url: true, status: true, outcome: true, bytes: true } });
  const targets = await database.db.target.findMany({ where: { crawlId: id }, orderBy: { requestSeq: "asc" }, select: { url: true, sha256: true, requestSeq: true } });
  return { requests, targets };
}

/** Requests after which the crawl held `n` targets, from its target rows. */
async function requestsToTargets(id: number, n: number): Promise<number | null> {
  const seqs = (await database.db.target.findMany({ where: { crawlId: id }, select: { requestSeq: true } })).map((t) => t.requestSeq).sort((a, b) => a - b);
  return seqs[n - 1] ?? null;
}

const count = (text: string | null) => Number((text ?? "").replace(/[^\d]/g, ""));

describe("Compare crawls", () => {
  it("a finished crawl of the demo site is replayed with BFS and Random from its cockpit, by the worker", async () => {
    const created = await app.api("/api/crawls", { method: "POST", body: JSON.stringify({ rootUrl: demoUrl, strategy: "sb", seed: 11, budget: { requests: 600 }, politeness: { delayMs: 0 } }) });
    expect(created.status).toBe(201);
    sourceId = ((await created.json()) as { id: number }).id;
    await waitFinished([sourceId]);
    expect((await crawlRow(sourceId)).status).toBe("finished");

    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${sourceId}`);
    const panel = page.locator("#replays");
    await panel.getByRole("heading", { name: "Replay with…" }).waitFor();
    // Nothing picked: the form says so instead of sending.
    await panel.getByRole("button", { name: "Replay", exact: true }).click();
    await panel.getByRole("alert").getByText("Pick at least one strategy.").waitFor();
    await panel.getByRole("checkbox", { name: "Random" }).check();
    await panel.getByRole("checkbox", { name: "Breadth-first" }).check();
    await panel.getByRole("textbox", { name: /Seed/ }).fill(String(SEED));
    await panel.getByRole("button", { name: "Replay", exact: true }).click();
    const queued = await panel.getByRole("status").filter({ hasText: "Queued" }).textContent();
    for (const [strategy, label] of [["bfs", "Breadth-first"], ["random", "Random"]] as const) {
      const match = new RegExp(`#(\\d+) \\(${label}\\)`).exec(queued ?? "");
      expect(match, queued ?? "").not.toBeNull();
      replayIds[strategy] = Number(match![1]);
      expect(await crawlRow(replayIds[strategy]!)).toMatchObject({ replayOfCrawlId: sourceId, strategy, seed: SEED });
    }
    // Ordinary crawls: the worker claims them and they show up live in the family list.
    await waitFinished(Object.values(replayIds));
    for (const id of Object.values(replayIds)) {
      expect((await crawlRow(id)).status).toBe("finished");
      await panel.getByTestId(`replay-${id}`).getByText("Finished").waitFor({ timeout: 10_000 });
    }
    await page.screenshot({ path: path.join(SHOTS, "compare-cockpit-replays-1280.png"), fullPage: false });
    await page.close();
  });

  it("Compare shows three curves and the table, with the numbers of `forage replay` for the same seeds", async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${sourceId}`);
    await page.getByTestId("compare-family").click();
    await page.waitForURL(/\/compare\?ids=/);
    const ids = [sourceId, replayIds.bfs!, replayIds.random!];
    expect(new URL(page.url()).searchParams.get("ids")).toBe(ids.join(","));
    await page.getByRole("heading", { name: /^Compare crawls of 127\.0\.0\.1/ }).waitFor();

    const targetsChart = page.locator('figure[aria-labelledby="compare-targets-chart-title"]');
    // Three crawls, the ideal line and the omniscient line (a crawl and its replays).
    await expect.poll(() => targetsChart.locator(".recharts-line").count()).toBe(5);
    const legend = await targetsChart.locator(".curves-legend li").allTextContents();
    expect(legend).toEqual([
      `#${sourceId} SB-CLASSIFIER (seed 11)`,
      `#${replayIds.bfs} Breadth-first (seed ${SEED})`,
      `#${replayIds.random} Random (seed ${SEED})`,
      "Ideal: 1 target per request",
      expect.stringMatching(new RegExp(`^Omniscient: the [\\d,]+ targets of crawl #${sourceId}, one request each$`)),
    ]);
    // Every curve has its own dash pattern or marker: distinct in grey.
    const marks = await targetsChart.locator(".curves-legend li svg").evaluateAll((svgs) => svgs.map((svg) => svg.innerHTML));
    expect(new Set(marks).size).toBe(marks.length);

    const source = await crawlRow(sourceId);
    const rows = await Promise.all(ids.map(crawlRow));
    const best = Math.max(...rows.map((row) => row.targetsCount));
    for (const row of rows) {
      const tr = page.getByTestId(`compare-row-${row.id}`);
      expect(count(await tr.getByTestId("compare-requests").textContent())).toBe(row.requestsCount);
      expect(count(await tr.getByTestId("compare-targets").textContent())).toBe(row.targetsCount);
      const to90 = await requestsToTargets(row.id, Math.ceil(best * 0.9));
      expect(await tr.getByTestId("compare-to90").textContent()).toBe(to90 === null ? "not reached" : to90.toLocaleString("en-US"));
    }
    expect(await page.getByTestId(`compare-row-${replayIds.bfs}`).getByTestId("compare-ratio").textContent()).toMatch(/^(1\.00×|–)$/);

    // `forage replay` with the same strategy and seed: the same crawl, request for request.
    for (const strategy of ["bfs", "random"] as const) {
      const cli = await runForageCli(["replay", String(sourceId), "--strategy", strategy, "--seed", String(SEED), "--json"], {
        DATABASE_URL: database.config.databaseUrl,
        FORAGE_DATA_DIR: database.config.dataDir,
      });
      expect(cli.code, cli.stderr).toBe(0);
      const summary = JSON.parse(cli.stdout.trim().split("\n").at(-1)!) as { crawlId: number; requests: number; targets: number; targetBytes: number; nonTargetBytes: number; stopReason: string };
      const byWorker = await crawlRow(replayIds[strategy]!);
      expect({ requests: byWorker.requestsCount, targets: byWorker.targetsCount, targetBytes: Number(byWorker.targetBytes), nonTargetBytes: Number(byWorker.nonTargetBytes), stopReason: byWorker.stopReason }).toEqual({
        requests: summary.requests,
        targets: summary.targets,
        targetBytes: summary.targetBytes,
        nonTargetBytes: summary.nonTargetBytes,
        stopReason: summary.stopReason,
      });
      expect(await crawlLog(replayIds[strategy]!)).toEqual(await crawlLog(summary.crawlId));
    }
    expect(source.status).toBe("finished");

    await page.screenshot({ path: path.join(SHOTS, "compare-1280.png"), fullPage: true });
    await page.close();
  });

  it("exports the curves as CSV and the chart as SVG and PNG", async () => {
    const ids = [sourceId, replayIds.bfs!, replayIds.random!];
    const page = await newPage();
    await page.goto(`${app.baseUrl}/compare?ids=${ids.join(",")}`);
    await page.locator(".recharts-line").first().waitFor();

    const [csvDownload] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download curves (CSV)" }).click()]);
    const csv = parseCsv(fs.readFileSync(await csvDownload.path(), "utf8"));
    expect(csv[0]).toEqual(["crawl_id", "strategy", "seed", "replay_of", "requests", "targets", "target_bytes", "non_target_bytes"]);
    for (const id of ids) {
      const row = await crawlRow(id);
      const lines = csv.slice(1).filter((line) => line[0] === String(id));
      // Every metric point (not the chart's sample), ending on the crawl's counters.
      expect(lines.length).toBeGreaterThanOrEqual(await database.db.metricPoint.count({ where: { crawlId: id } }));
      expect(lines.at(-1)!.slice(4).map(Number)).toEqual([row.requestsCount, row.targetsCount, Number(row.targetBytes), Number(row.nonTargetBytes)]);
    }

    const chart = page.locator('figure[aria-labelledby="compare-targets-chart-title"]');
    const [svgDownload] = await Promise.all([page.waitForEvent("download"), chart.getByRole("button", { name: "SVG" }).click()]);
    expect(svgDownload.suggestedFilename()).toBe(`forage-compare-${ids.join("-")}-targets.svg`);
    const svg = fs.readFileSync(await svgDownload.path(), "utf8");
    expect(svg).toMatch(/^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain("Targets vs requests");
    expect(svg).toContain(`#${replayIds.random} Random (seed ${SEED})`);
    expect(svg.match(/class="recharts-curve recharts-line-curve"/g)?.length).toBe(5);

    const [pngDownload] = await Promise.all([page.waitForEvent("download"), chart.getByRole("button", { name: "PNG" }).click()]);
    const png = fs.readFileSync(await pngDownload.path());
    fs.writeFileSync(path.join(SHOTS, "compare-export.png"), png);
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    // Twice the drawn size: IHDR width at byte 16.
    expect(png.readUInt32BE(16)).toBeGreaterThan(1000);
    await page.close();
  });

  it("the replay's cockpit says what it saved against breadth-first; the crawl list selects crawls of one site", async () => {
    const page = await newPage();
    await page.goto(`${app.baseUrl}/crawls/${replayIds.random}`);
    const line = page.getByTestId("saved-vs-bfs");
    await line.waitFor();
    const text = (await line.textContent()) ?? "";
    expect(text).toMatch(new RegExp(`^Saved vs breadth-first: .*BFS \\(crawl #${replayIds.bfs}\\)`));
    const [mine, bfs] = await Promise.all([crawlRow(replayIds.random!), crawlRow(replayIds.bfs!)]);
    const targets90 = Math.ceil(Math.max(mine.targetsCount, bfs.targetsCount) * 0.9);
    expect(text).toContain(`90 % of the targets (${targets90.toLocaleString("en-US")})`);
    const [mineTo90, bfsTo90] = await Promise.all([requestsToTargets(mine.id, targets90), requestsToTargets(bfs.id, targets90)]);
    if (mineTo90 !== null) expect(text).toContain(mineTo90.toLocaleString("en-US"));
    else expect(text).toContain("This crawl did not reach");
    if (bfsTo90 !== null) expect(text).toContain(bfsTo90.toLocaleString("en-US"));
    else expect(text).toContain("never did");
    await page.locator("#replays").getByText(`This crawl is a replay of crawl #${sourceId}`).waitFor();
    await page.screenshot({ path: path.join(SHOTS, "compare-replay-cockpit-1280.png"), fullPage: true });

    // Another site in the list: ticking it with the demo crawls is refused with a message.
    // Stored as held by this test (a queued row would be claimed by the worker), then finished.
    const other = await insertCrawl(database.db, parseCrawlConfig({ rootUrl: "https://example.org/", seed: 1 }), { heldBy: { holderId: "compare-test", leaseMs: 60_000 } });
    await database.db.crawl.update({ where: { id: other }, data: { status: "finished", stopReason: "budget-requests", workerId: null, leaseExpiresAt: null } });
    await page.goto(app.baseUrl);
    const demoSite = demoUrl.replace("http://", "");
    await page.getByRole("checkbox", { name: `Compare crawl #${sourceId} (${demoSite})` }).check();
    await page.getByRole("checkbox", { name: `Compare crawl #${replayIds.bfs} (${demoSite})` }).check();
    await page.getByTestId("compare-selected").getByText("Compare 2 crawls").waitFor();
    await page.getByRole("checkbox", { name: `Compare crawl #${other} (example.org/)` }).check();
    await page.getByTestId("compare-mixed-sites").getByText(/^Crawls of different sites cannot be compared/).waitFor();
    await page.screenshot({ path: path.join(SHOTS, "compare-crawl-list-1280.png") });
    expect(await page.getByTestId("compare-selected").count()).toBe(0);
    await page.getByRole("checkbox", { name: `Compare crawl #${other} (example.org/)` }).uncheck();
    await page.getByTestId("compare-selected").click();
    await page.waitForURL(new RegExp(`/compare\\?ids=(${replayIds.bfs},${sourceId}|${sourceId},${replayIds.bfs})$`));
    await page.locator(".recharts-line").first().waitFor();

    // The address names crawls of two sites: the API's message, not a chart.
    await page.goto(`${app.baseUrl}/compare?ids=${sourceId},${other}`);
    expect(await page.getByTestId("compare-error").textContent()).toMatch(/^Crawls of different sites cannot be compared/);
    await page.goto(`${app.baseUrl}/compare?ids=abc`);
    expect(await page.getByTestId("compare-error").textContent()).toContain("ids must be crawl numbers separated by commas");
    await page.close();
  });

  it("six curves stay apart (colour, dash, marker) and the view reads at 1280 and 390 px (screenshots)", async () => {
    const more = await app.api(`/api/crawls/${sourceId}/replays`, { method: "POST", body: JSON.stringify({ strategies: ["dfs", "focused", "tp-off"], seed: SEED }) });
    expect(more.status).toBe(201);
    const extra = ((await more.json()) as { replays: { id: number }[] }).replays.map((r) => r.id);
    await waitFinished(extra);
    const ids = [sourceId, replayIds.bfs!, replayIds.random!, ...extra];
    for (const [width, height] of [[1280, 900], [390, 844]] as const) {
      const page = await newPage(width, height);
      await page.goto(`${app.baseUrl}/compare?ids=${ids.join(",")}`);
      const chart = page.locator('figure[aria-labelledby="compare-targets-chart-title"]');
      await expect.poll(() => chart.locator(".recharts-line").count(), { timeout: 15_000 }).toBe(8);
      const samples = await chart.locator(".curves-legend li svg").evaluateAll((svgs) =>
        svgs.map((svg) => ({ color: svg.querySelector("line")?.getAttribute("stroke"), dash: svg.querySelector("line")?.getAttribute("stroke-dasharray") ?? "", marker: svg.querySelector("path")?.getAttribute("d")?.replace(/[\d.,-]+/g, "") ?? "" })),
      );
      const crawls = samples.slice(0, 6);
      // In grey only the dash and the marker remain: each must differ from every other curve's.
      expect(new Set(crawls.map((s) => s.dash)).size).toBe(6);
      expect(new Set(crawls.map((s) => s.marker)).size).toBe(6);
      expect(new Set(crawls.map((s) => s.color)).size).toBe(6);
      // Nothing wider than the screen: the page does not scroll sideways (polled: the chart settles its layout after a resize).
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth), { timeout: 5_000 }).toBeLessThanOrEqual(width);
      await page.screenshot({ path: path.join(SHOTS, `compare-view-${width}.png`), fullPage: true });
      await chart.screenshot({ path: path.join(SHOTS, `compare-chart-${width}.png`) });
      await page.close();
    }
  });
});
