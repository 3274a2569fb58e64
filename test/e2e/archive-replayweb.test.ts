/**
 * The exported WACZ opens in ReplayWeb.page (the `replaywebpage` package's app: ui.js and its
 * service worker sw.js), served with the archive from 127.0.0.1 as a static site would, in
 * Chromium: the archived root page shows with its title.
 */
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { streamWaczExport } from "../../lib/archive/wacz-export";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { buildSite } from "../../lib/sitesim";
import { insertCrawl } from "../../lib/store/insert-crawl";
import { launchBrowser } from "../helpers/browser";
import { startSimulatedSite, testCrawlConfig, type TestSite } from "../helpers/crawl-fixtures";
import { PROJECT_ROOT } from "../helpers/paths";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";

const APP = path.join(PROJECT_ROOT, "node_modules", "replaywebpage");

let t: TestDatabase;
let site: TestSite;
let server: http.Server;
let browser: Browser;
let origin: string;
let rootTitle: string;

/** ui.js, the service worker under /replay/, the WACZ with range requests (how ReplayWeb.page reads it). */
function serve(waczPath: string): http.Server {
  const files: Record<string, [string, string]> = {
    "/ui.js": [path.join(APP, "ui.js"), "application/javascript"],
    "/replay/sw.js": [path.join(APP, "sw.js"), "application/javascript"],
    "/crawl.wacz": [waczPath, "application/wacz"],
  };
  return http.createServer((req, res) => {
    const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
    if (pathname === "/") {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `<!doctype html><html><body><script src="/ui.js"></script>` +
          `<replay-web-page source="/crawl.wacz" url="${site.rootUrl}" replayBase="/replay/" style="display:block;width:1000px;height:700px"></replay-web-page></body></html>`,
      );
      return;
    }
    const file = files[pathname];
    if (!file) {
      res.writeHead(404);
      res.end();
      return;
    }
    const data = fs.readFileSync(file[0]);
    const range = /bytes=(\d+)-(\d*)/.exec(req.headers.range ?? "");
    if (range) {
      const start = Number(range[1]);
      const end = range[2] ? Math.min(Number(range[2]), data.length - 1) : data.length - 1;
      res.writeHead(206, { "content-type": file[1], "content-range": `bytes ${start}-${end}/${data.length}`, "content-length": end - start + 1, "accept-ranges": "bytes" });
      res.end(data.subarray(start, end + 1));
      return;
    }
    res.writeHead(200, { "content-type": file[1], "content-length": data.length, "accept-ranges": "bytes" });
    res.end(req.method === "HEAD" ? undefined : data);
  });
}

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startSimulatedSite(buildSite({ shape: "statistics-office", size: "tiny", seed: 1 }));
  const crawlId = await insertCrawl(t.db, testCrawlConfig({ rootUrl: site.rootUrl, strategy: "bfs", budget: { requests: 40 } }));
  await runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal });
  const root = await fetch(site.rootUrl).then((r) => r.text());
  rootTitle = /<title>([^<]*)<\/title>/.exec(root)![1]!.replace(/&amp;/g, "&");
  const wacz = path.join(t.config.dataDir, "crawl.wacz");
  const download = await streamWaczExport(t.db, t.config, crawlId);
  await pipeline(Readable.fromWeb(download.stream as NodeReadableStream<Uint8Array>), fs.createWriteStream(wacz));
  server = serve(wacz);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await site?.close();
  await t?.dispose();
});

describe("the exported WACZ in ReplayWeb.page", () => {
  it("shows the archived root page, with its title, from the archive alone", async () => {
    const page = await browser.newPage();
    await page.goto(`${origin}/`);
    const servedBefore = site.log.length;
    let title = "";
    let frameUrl = "";
    // The archived page is the replay iframe whose URL has a timestamp and the `mp_` modifier.
    await expect
      .poll(
        async () => {
          const archived = page.frames().find((frame) => /\/\d{14}mp_\//.test(frame.url()));
          if (archived) {
            frameUrl = archived.url();
            title = await archived.title().catch(() => "");
          }
          return title;
        },
        { timeout: 30_000, interval: 500 },
      )
      .not.toBe("");
    expect(frameUrl).toContain(`mp_/${site.rootUrl}`);
    expect(title).toBe(rootTitle);
    expect(site.log.length).toBe(servedBefore); // replayed from the WACZ, not the live site
  });
});
