/**
 * The script-built shapes in a real Chromium: each shell's rendered DOM holds exactly the links
 * the rendered ground truth says (after every "Load more" click and every scroll), the hostile
 * pages really try every channel (against a canary server on 127.0.0.1), and the never-ending
 * pages really never idle. The browser here has no guard: it checks the sites, not a renderer.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSite, scriptedTruth, startSiteServer, type RunningSite, type ScriptedShape, type ScriptedTruth, type SiteSpec } from "../../lib/sitesim";
import { launchBrowser } from "../helpers/browser";
import { pollUntil, withDeadline } from "../helpers/poll-until";

const POLL = { timeoutMs: 15_000, pollMs: 50 };

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** In-site `a[href]` links of the page's DOM as path + query keys, document order. */
function renderedLinks(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll("a[href]"), (a) => new URL(a.getAttribute("href")!, location.href))
      .filter((u) => u.origin === location.origin)
      .map((u) => u.pathname + u.search),
  );
}

async function withSite(spec: SiteSpec, run: (running: RunningSite, truth: ScriptedTruth, context: BrowserContext) => Promise<void>): Promise<void> {
  const site = buildSite(spec);
  const running = await startSiteServer(site);
  const context = await browser.newContext();
  try {
    await run(running, scriptedTruth(site), context);
  } finally {
    await withDeadline("closing the browser context", context.close(), 20_000);
    await running.close();
  }
}

describe.each(["scripted-listing", "hostile-scripted"] as ScriptedShape[])("%s in Chromium", (shape) => {
  it("renders, on every shell, exactly the links of the rendered ground truth", async () => {
    await withSite({ shape, seed: 1, size: "tiny", forbiddenUrls: ["http://127.0.0.1:9/unused"] }, async (running, truth, context) => {
      const page = await context.newPage();
      for (const key of truth.shells) {
        await page.goto(running.origin + key);
        const want = truth.renderedLinks(key)!;
        expect(await pollUntil(`the links of ${key}`, () => renderedLinks(page), (links) => links.length >= want.length, POLL)).toEqual(want);
      }
    });
  });
});

describe.each(["load-more", "infinite-scroll"] as ScriptedShape[])("%s in Chromium", (shape) => {
  it("renders the first 10 files, then every file after clicking or scrolling until the list ends", async () => {
    await withSite({ shape, seed: 1, size: "tiny" }, async (running, truth, context) => {
      const page = await context.newPage();
      for (const key of truth.shells) {
        await page.goto(running.origin + key);
        const want = truth.renderedLinks(key)!;
        const first = await pollUntil(`the first batch of ${key}`, () => renderedLinks(page), (links) => links.length > 1, POLL);
        expect(first).toEqual(want.slice(0, 11)); // home, then 10 files
        if (shape === "infinite-scroll") {
          // The sentinel starts below the fold: the next batch waits for a scroll.
          expect(await page.evaluate(() => document.getElementById("sentinel")!.getBoundingClientRect().top > innerHeight + 200)).toBe(true);
        }
        const all = await pollUntil(`every file of ${key}`, async () => {
          if (shape === "load-more") {
            const button = page.locator("#load-more");
            if (await button.isVisible()) await button.click();
          } else {
            await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
          }
          return renderedLinks(page);
        }, (links) => links.length >= want.length, { ...POLL, progress: (links) => links.length });
        expect(all).toEqual(want);
        if (shape === "load-more") expect(await page.locator("#load-more").isHidden()).toBe(true);
        else expect(await page.locator("#sentinel").count()).toBe(0);
      }
    });
  });
});

describe("hostile-scripted in Chromium", () => {
  let canary: http.Server;
  const seen: string[] = [];
  beforeAll(async () => {
    canary = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(204).end();
    });
    canary.on("upgrade", (req, socket) => {
      seen.push(`UPGRADE ${req.url}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => canary.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => {
    canary.close(() => resolve());
    canary.closeAllConnections();
  }));

  it("tries fetch, XHR, <img>, <iframe>, WebSocket, sendBeacon and a worker's fetch to each forbidden URL", async () => {
    const canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}/latest/meta-data/`;
    await withSite({ shape: "hostile-scripted", seed: 1, size: "tiny", forbiddenUrls: [canaryUrl] }, async (running, truth, context) => {
      const page = await context.newPage();
      await page.goto(running.origin + truth.shells[0]!);
      const ways = ["fetch", "xhr", "img", "iframe", "websocket", "beacon", "worker"];
      const via = () => new Set(seen.map((line) => /via=([a-z]+)/.exec(line)?.[1]));
      await pollUntil("an attempt by every channel", via, (got) => ways.every((w) => got.has(w)), POLL);
      expect(seen).toContain("POST /latest/meta-data/?via=beacon");
      expect(seen).toContain("UPGRADE /latest/meta-data/?via=websocket");
      expect(await renderedLinks(page)).toEqual(truth.renderedLinks(truth.shells[0]!));
    });
  });
});

describe("never-ending in Chromium", () => {
  it("/ping renders all its links, then keeps asking the server forever", async () => {
    await withSite({ shape: "never-ending", seed: 1, size: "tiny" }, async (running, truth, context) => {
      const page = await context.newPage();
      await page.goto(running.origin + "/ping");
      const want = truth.renderedLinks("/ping")!;
      expect(await pollUntil("the links of /ping", () => renderedLinks(page), (links) => links.length >= want.length, POLL)).toEqual(want);
      const after = running.requestCount();
      await pollUntil("more pings", () => running.requestCount(), (count) => count >= after + 10, POLL);
    });
  });

  it("/spin blocks its main thread for good once it has rendered", async () => {
    await withSite({ shape: "never-ending", seed: 1, size: "tiny" }, async (running, _truth, context) => {
      const page = await context.newPage();
      await page.goto(running.origin + "/spin", { waitUntil: "commit" });
      // A page that answers at all has not rendered yet; once it has, it never answers again.
      const answer = () => Promise.race([
        page.evaluate(() => document.body?.getAttribute("data-rendered") ?? "not yet"),
        new Promise<string>((resolve) => setTimeout(() => resolve("no answer"), 1_000)),
      ]);
      await pollUntil("/spin to stop answering", answer, (value) => value === "no answer", POLL);
      expect(await answer()).toBe("no answer");
    });
  });
});
