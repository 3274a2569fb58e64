/**
 * The Content-Security-Policy of the built app, attacked in real Chromium: every page loads and
 * hydrates under a nonce-based script policy with no violation, the nonce is fresh per request
 * and carried by the scripts, an injected inline script without it does not run, and downloads
 * keep their own sandbox policy instead of the page policy (next.config.ts used to overwrite it).
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseCrawlConfig } from "../../lib/crawl-config";
import { startAppInBrowser, stopAppInBrowser } from "../helpers/app-in-browser";
import type { RunningApp } from "../helpers/app-server";
import type { TestDatabase } from "../helpers/test-database";

let database: TestDatabase;
let app: RunningApp;
let browser: Browser;
let crawlId: number;
let targetId: number;
let harvestId: number;

/** A crawled HTML page that tries to run a script: served as a download, it must stay inert. */
const HOSTILE_TARGET = "<!doctype html><title>t</title><script>document.title = 'ran'</script><p>crawled</p>";

async function seed(db: TestDatabase["db"], dataDir: string): Promise<void> {
  const config = parseCrawlConfig({ rootUrl: "http://stats.example.org/", name: "Statistics office", budget: { requests: 100 } }, () => 7);
  const crawl = await db.crawl.create({
    data: {
      name: config.name,
      rootUrl: config.rootUrl,
      config: JSON.stringify(config),
      strategy: "sb",
      seed: 7,
      status: "finished",
      requestsCount: 30,
      getCount: 30,
      targetsCount: 1,
      startedAt: new Date(Date.now() - 60_000),
      finishedAt: new Date(),
      activeMs: 60_000,
    },
  });
  crawlId = crawl.id;
  // Chart points, so the crawl page draws its recharts charts (inline styles, SVG).
  await db.metricPoint.createMany({
    data: Array.from({ length: 10 }, (_, index) => ({ crawlId, requests: (index + 1) * 3, targets: index, targetBytes: BigInt(index * 100), nonTargetBytes: BigInt(index * 50), frontierSize: 10, activeMs: index * 1000 })),
  });
  const digest = "ab".repeat(32);
  const folder = path.join(dataDir, "crawls", String(crawlId), "files");
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, digest), HOSTILE_TARGET);
  const target = await db.target.create({
    data: {
      crawlId,
      url: "http://stats.example.org/page.html",
      mime: "text/html",
      bytes: Buffer.byteLength(HOSTILE_TARGET),
      sha256: digest,
      storagePath: `crawls/${crawlId}/files/${digest}`,
      sourceUrl: "http://stats.example.org/",
      tagPath: "/html/body/a",
      requestSeq: 1,
      fetchedAt: new Date(),
    },
  });
  targetId = target.id;
}

beforeAll(async () => {
  ({ database, app, browser } = await startAppInBrowser());
  await seed(database.db, database.config.dataDir);
  const harvest = await app.api("/api/harvests", { method: "POST", body: JSON.stringify({ fromCrawlId: crawlId, cron: "0 3 * * *" }) });
  expect(harvest.status, await harvest.clone().text()).toBe(201);
  harvestId = ((await harvest.json()) as { id: number }).id;
});

afterAll(() => stopAppInBrowser({ database, app, browser }));

const nonceOf = (csp: string | null) => /'nonce-([^']+)'/.exec(csp ?? "")?.[1];

describe("downloads", () => {
  const downloads = () => [
    `/api/crawls/${crawlId}/targets/${targetId}/file`,
    `/api/crawls/${crawlId}/manifest.csv`,
    `/api/crawls/${crawlId}/manifest.json`,
    `/api/crawls/${crawlId}/requests.csv`,
    `/api/crawls/${crawlId}/export.zip`,
  ];

  it("answer with their own sandbox policy, not the page policy", async () => {
    for (const url of downloads()) {
      const response = await app.api(url);
      await response.arrayBuffer();
      expect(response.status, url).toBe(200);
      const csp = response.headers.get("content-security-policy");
      expect(csp, url).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
      expect(response.headers.get("x-content-type-options"), url).toBe("nosniff");
      expect(response.headers.get("x-frame-options"), url).toBe("DENY");
    }
  });

  it("do not run a crawled page's script when a browser opens one", async () => {
    const context = await browser.newContext(app.signedIn);
    const page = await context.newPage();
    // An attachment is downloaded, not rendered; render the same bytes by fetching them into a
    // page of the download's own URL instead: Chromium applies the response's CSP to the document.
    await page.route(`${app.baseUrl}/api/crawls/${crawlId}/targets/${targetId}/file`, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers["content-disposition"];
      await route.fulfill({ response, headers });
    });
    await page.goto(`${app.baseUrl}/api/crawls/${crawlId}/targets/${targetId}/file`);
    await page.getByText("crawled").waitFor();
    // The script would have renamed the page.
    expect(await page.title()).toBe("t");
    await context.close();
  });
});

/** Collects CSP violations and console errors of a page (installed before any of its scripts). */
async function watchViolations(page: Page): Promise<string[]> {
  const seen: string[] = [];
  await page.exposeFunction("__reportViolation", (text: string) => seen.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __reportViolation(text: string): void }).__reportViolation(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  page.on("console", (message) => {
    if (message.type() === "error") seen.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => seen.push(`pageerror: ${error.message}`));
  return seen;
}

describe("pages", () => {
  /** Every page of the app, signed in as an admin (the settings page shows its admin sections). */
  const pages = () => ["/", `/crawls/${crawlId}`, "/crawls/new", `/compare?ids=${crawlId}`, `/harvests/${harvestId}`, "/settings", "/workers", "/no-such-page"];

  it("carry a nonce-based script policy, fresh on every request, and keep the other directives", async () => {
    const first = await fetch(`${app.baseUrl}/sign-in`);
    const second = await fetch(`${app.baseUrl}/sign-in`);
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(nonceOf(csp)).toMatch(/^[A-Za-z0-9+/=]{22,}$/);
    expect(nonceOf(second.headers.get("content-security-policy"))).not.toBe(nonceOf(csp));
    const directives = csp.split(/;\s*/);
    expect(directives).toContain(`script-src 'self' 'nonce-${nonceOf(csp)}' 'strict-dynamic'`);
    expect(csp).not.toContain("'unsafe-inline' 'unsafe-eval'");
    expect(directives.find((d) => d.startsWith("script-src"))).not.toContain("unsafe");
    // <style> elements need the nonce; style attributes (React, recharts) stay allowed.
    expect(directives).toContain(`style-src 'self' 'nonce-${nonceOf(csp)}'`);
    expect(directives).toContain("style-src-attr 'unsafe-inline'");
    for (const kept of ["default-src 'self'", "img-src 'self' data: blob:", "font-src 'self'", "connect-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'none'"]) {
      expect(directives, kept).toContain(kept);
    }
    // Every script tag Next.js wrote carries this response's nonce.
    const html = await first.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((match) => match[0]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonceOf(csp)}"`);
  });

  it("load and hydrate in Chromium with no policy violation", async () => {
    const anonymous = await browser.newContext();
    const signedIn = await browser.newContext(app.signedIn);
    const visits = [...["/sign-in", "/setup"].map((url) => ({ context: anonymous, url })), ...pages().map((url) => ({ context: signedIn, url }))];
    for (const { context, url } of visits) {
      const page = await context.newPage();
      const violations = await watchViolations(page);
      const response = await page.goto(`${app.baseUrl}${url}`);
      expect(nonceOf(response?.headers()["content-security-policy"] ?? null), url).toBeDefined();
      // Hydrated: React attached its fibers to the server's DOM (only client JS does that).
      await page.waitForFunction(() => Object.keys(document.body).some((key) => key.startsWith("__reactFiber")));
      await page.waitForLoadState("networkidle");
      // The missing page answers 404, which Chromium logs as a failed resource load.
      const ignorable = (text: string) => url === "/no-such-page" && text.includes("404");
      expect(violations.filter((text) => !ignorable(text)), url).toEqual([]);
      await page.close();
    }
    await Promise.all([anonymous.close(), signedIn.close()]);
  });

  it("does not run an injected inline script or handler without the nonce", async () => {
    const context = await browser.newContext(app.signedIn);
    const page = await context.newPage();
    const violations = await watchViolations(page);
    // A stored XSS as the server would send it: markup in the page's HTML, policy header untouched.
    await page.route(`${app.baseUrl}/`, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(
        "<body>",
        "<body><script>window.__injected = 'script'</script><img src=/icon.svg onload=\"window.__injected = 'handler'\">",
      );
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${app.baseUrl}/`);
    await expect.poll(() => violations.filter((text) => text.startsWith("script-src")).length).toBeGreaterThanOrEqual(2);
    expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined();
    // The app's own scripts, which carry the nonce, ran: the page hydrated.
    await page.waitForFunction(() => Object.keys(document.body).some((key) => key.startsWith("__reactFiber")));
    await context.close();
  });
});
