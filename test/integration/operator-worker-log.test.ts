/**
 * The worker's operator log at the moments an operator needs it, each line with its ids: the
 * step watchdog pausing a crawl, a lease lost to another holder, webhook attempts (failed then
 * delivered: the receiver's host, never its URL's secret), a harvest's scheduled run started.
 * A real worker in this process, real crawls of a site on 127.0.0.1, a real webhook receiver.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { HarvestTicker } from "../../lib/harvest/harvest-ticker";
import { enqueueRunEndedDeliveries, sendDueDeliveries } from "../../lib/harvest/webhook-deliveries";
import { createWebhookSender } from "../../lib/harvest/webhook-sender";
import { createLogger } from "../../lib/log/logger";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { createHarvest } from "../../lib/harvest";
import { CrawlWorker } from "../../lib/worker/crawl-worker";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { page, startRouteSite, startTestSite, type TestSite } from "../helpers/crawl-fixtures";
import { pollUntil } from "../helpers/poll-until";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { listenOnFreePort } from "../helpers/ports";

type Line = Record<string, unknown> & { msg: string };

let t: TestDatabase;
/** An endless site: `/p/N` links `/p/3N+1` … `/p/3N+3`. */
let endless: TestSite;
let small: TestSite;
const LOCAL = ["127.0.0.0/8"];

beforeAll(async () => {
  t = await createTestDatabase();
  endless = await startTestSite((req, res) => {
    const n = Number(/^\/p\/(\d+)$/.exec(req.url ?? "")?.[1] ?? (req.url === "/" ? 0 : NaN));
    if (!Number.isFinite(n)) return void res.writeHead(404, { "content-type": "text/html" }).end("<html><body>no</body></html>");
    res.writeHead(200, { "content-type": "text/html" }).end(page([1, 2, 3].map((k) => `/p/${3 * n + k}`)));
  });
  small = await startRouteSite({ "/": page(["/a"]), "/a": page([]) });
});
afterAll(async () => {
  await endless?.close();
  await small?.close();
  await t?.dispose();
});

function capture() {
  const lines: Line[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Line);
      done();
    },
  });
  return { lines, log: createLogger({ name: "forage-worker", level: "info", format: "json", destination: destination as never }) };
}

const endlessCrawl = (seed: number) =>
  createCrawl(t.db, { rootUrl: endless.rootUrl, strategy: "bfs", budget: { requests: 100_000 }, politeness: { delayMs: 10 }, params: { earlyStop: false }, allowPrivateNetwork: true, seed }, { asLocalAdmin: true });

describe("worker log", () => {
  it("names the crawl the watchdog paused and the crawl whose lease was lost", async () => {
    const { lines, log } = capture();
    let slowId = -1;
    let slow = false;
    let reads = 0;
    // The step watch's clock of one crawl gains 2 s at every read once `slow` is set: its steps seem to take 2 s.
    const slowClock = () => performance.now() + (slow ? ++reads * 2_000 : 0);
    const worker = new CrawlWorker(t.db, t.config, { pollMs: 100, controlPollMs: 50, leaseMs: 4_000, maxStepMs: 1_000, stepClock: (id) => (id === slowId ? slowClock : () => performance.now()), log });
    const find = (msg: RegExp, crawlId: number) => () => lines.find((line) => msg.test(line.msg) && line.crawlId === crawlId);
    try {
      const victim = await endlessCrawl(1);
      slowId = victim.id;
      const robbed = await endlessCrawl(2);
      await worker.start();
      await pollUntil("both running", () => t.db.crawl.findMany({ where: { id: { in: [victim.id, robbed.id] } } }), (rows) => rows.every((row) => row.status === "running" && row.requestsCount > 3), { timeoutMs: 30_000, pollMs: 50 });
      slow = true;
      const paused = await pollUntil("the watchdog line", find(/^watchdog: crawl paused/, victim.id), Boolean, { timeoutMs: 30_000, pollMs: 20 });
      expect(paused).toMatchObject({ level: 40, workerId: worker.id, limitMs: 1_000, stepMs: expect.any(Number), step: expect.any(String) });

      // Another holder takes the crawl: the worker's next write finds it gone.
      await t.db.crawl.update({ where: { id: robbed.id }, data: { workerId: "another-worker", leaseExpiresAt: new Date(Date.now() + 60_000) } });
      const lost = await pollUntil("the lease-lost line", find(/^lease lost/, robbed.id), Boolean, { timeoutMs: 30_000, pollMs: 20 });
      expect(lost).toMatchObject({ level: 40, workerId: worker.id, err: { type: "LeaseLostError" } });
    } finally {
      await worker.stop();
    }
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(["worker started", "crawl claimed", "crawl started", "worker stopped"]));
  });

  it("logs webhook attempts by harvest with the receiver's host only, and a harvest's scheduled run", async () => {
    const { lines, log } = capture();
    const statuses = [500, 200];
    let served = 0;
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.statusCode = statuses[Math.min(served++, statuses.length - 1)]!;
        res.end("ok");
      });
    });
    await listenOnFreePort(receiver);
    const host = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    const sender = createWebhookSender({ privateNetworks: LOCAL, timeoutMs: 5_000 });
    const run = (crawlId: number) => runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal, privateNetworks: LOCAL });
    try {
      const { id: first } = await createCrawl(t.db, { rootUrl: small.rootUrl, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed: 3 }, { asLocalAdmin: true });
      await run(first);
      const harvest = await createHarvest(t.db, { fromCrawlId: first, webhookUrl: `http://${host}/hooks?token=receiver-secret-42`, runNow: true, cron: "0 3 * * *" }, { privateNetworks: LOCAL });
      await run(harvest.activeRunId!);
      const now = new Date();
      await enqueueRunEndedDeliveries(t.db, { publicOrigin: "https://forage.example.org" }, now);
      const options = { publicOrigin: "https://forage.example.org", senderId: "worker-a", send: sender, log, backoffMs: () => 1_000 };
      expect(await sendDueDeliveries(t.db, options, now)).toBe(1);
      expect(await sendDueDeliveries(t.db, options, new Date(now.getTime() + 1_000))).toBe(1);

      const attempts = lines.filter((line) => /^webhook/.test(line.msg));
      expect(attempts).toEqual([
        expect.objectContaining({ msg: "webhook attempt failed: will retry", level: 40, harvestId: harvest.id, crawlId: harvest.activeRunId, attempt: 1, receiver: host, status: 500, error: "HTTP 500" }),
        expect.objectContaining({ msg: "webhook delivered", level: 30, harvestId: harvest.id, crawlId: harvest.activeRunId, attempt: 2, receiver: host, status: 200 }),
      ]);

      // The schedule comes due: the worker's harvest tick starts the run and says so.
      await t.db.harvest.update({ where: { id: harvest.id }, data: { nextRunAt: new Date(Date.now() - 1_000) } });
      await new HarvestTicker(t.db, t.config, "worker-a", log).tick(new Date());
      const started = lines.find((line) => line.msg === "harvest scheduled run started");
      expect(started).toMatchObject({ harvestId: harvest.id, crawlId: expect.any(Number), catchUp: false });
      expect(JSON.stringify(lines)).not.toContain("receiver-secret-42");
      expect(JSON.stringify(lines)).not.toContain(harvest.webhookSecret!);
    } finally {
      await sender.close();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
