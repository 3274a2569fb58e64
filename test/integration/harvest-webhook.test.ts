/**
 * Webhooks of harvest runs against a real receiver on 127.0.0.1: the summary of a real re-crawl
 * (counts equal to the simulator's truth, links from FORAGE_PUBLIC_URL), retried with backoff
 * after failures, given up after the last attempt, kept as rows so another sender finishes a
 * dead one's delivery, and refused when the network policy does not allow the receiver.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HostPoliteness } from "../../lib/crawler/fetch/host-politeness";
import { runStoredCrawl } from "../../lib/worker/run-stored-crawl";
import { HarvestTicker } from "../../lib/harvest/harvest-ticker";
import { enqueueRunEndedDeliveries, sendDueDeliveries, webhookBackoffMs } from "../../lib/harvest/webhook-deliveries";
import { createWebhookSender } from "../../lib/harvest/webhook-sender";
import { verifyWebhook } from "../../lib/harvest/webhook-signature";
import type { RunEndedSummary } from "../../lib/harvest/webhook-summary";
import { startEvolvingSite, type RunningEvolvingSite } from "../../lib/sitesim/evolving";
import { createCrawl } from "../../lib/store/commands/create-crawl";
import { createHarvest } from "../../lib/harvest";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { listenOnFreePort } from "../helpers/ports";

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver that answers the given statuses in turn (the last one from then on). */
async function startReceiver(statuses: number[]): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      res.end("ok");
    });
  });
  const port = await listenOnFreePort(server);
  return { url: `http://127.0.0.1:${port}/hooks/forage`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

let t: TestDatabase;
let site: RunningEvolvingSite;
const LOCAL = ["127.0.0.0/8"];
const PUBLIC_ORIGIN = "https://forage.example.org";
const localSender = createWebhookSender({ privateNetworks: LOCAL, timeoutMs: 5000 });

beforeAll(async () => {
  t = await createTestDatabase();
  site = await startEvolvingSite({ items: 30, seed: 11 });
});

afterAll(async () => {
  await localSender.close();
  await site?.close();
  await t?.dispose();
});

const run = (crawlId: number) =>
  runStoredCrawl({ db: t.db, forage: t.config, crawlId, politeness: new HostPoliteness(), signal: new AbortController().signal, privateNetworks: LOCAL });
const options = (send = localSender, extra: object = {}) => ({ publicOrigin: PUBLIC_ORIGIN, senderId: "worker-a", send, ...extra });
const eventsOf = async (harvestId: number) => (await t.db.harvestEvent.findMany({ where: { harvestId }, orderBy: { id: "asc" } })).map((e) => `${e.kind}: ${e.message}`);

/** A harvest with a webhook whose second run (after a first crawl, on version 2) has ended. */
async function harvestWithEndedRun(webhookUrl: string, seed: number) {
  site.version = 1;
  const { id: first } = await createCrawl(t.db, { rootUrl: site.rootUrl, politeness: { delayMs: 0 }, allowPrivateNetwork: true, seed }, { asLocalAdmin: true });
  await run(first);
  const harvest = await createHarvest(t.db, { fromCrawlId: first, webhookUrl, runNow: true, checkKnownFiles: true }, { privateNetworks: LOCAL });
  site.version = 2;
  await run(harvest.activeRunId!);
  return { harvestId: harvest.id, first, second: harvest.activeRunId!, secret: harvest.webhookSecret! };
}

describe("webhooks of harvest runs", () => {
  it("POSTs the run's summary, retrying a failing receiver with backoff until it answers", async () => {
    const receiver = await startReceiver([500, 503, 200]);
    try {
      const { harvestId, first, second, secret } = await harvestWithEndedRun(receiver.url, 21);
      expect(secret).toMatch(/^whsec_[\w-]{32}$/);
      const t0 = new Date();
      // The crawl the harvest was made from ended before it: no webhook for it; one for the run.
      expect(await enqueueRunEndedDeliveries(t.db, { publicOrigin: PUBLIC_ORIGIN }, t0)).toBe(1);
      expect(await enqueueRunEndedDeliveries(t.db, { publicOrigin: PUBLIC_ORIGIN }, t0)).toBe(0);

      expect(await sendDueDeliveries(t.db, options(), t0)).toBe(1); // 500
      expect(await sendDueDeliveries(t.db, options(), new Date(t0.getTime() + 999))).toBe(0); // backoff: 1 s
      expect(await sendDueDeliveries(t.db, options(), new Date(t0.getTime() + 1000))).toBe(1); // 503
      expect(await sendDueDeliveries(t.db, options(), new Date(t0.getTime() + 1000 + 3999))).toBe(0); // backoff: 4 s
      expect(await sendDueDeliveries(t.db, options(), new Date(t0.getTime() + 5000))).toBe(1); // 200
      expect(await sendDueDeliveries(t.db, options(), new Date(t0.getTime() + 600_000))).toBe(0); // delivered: never again

      expect(receiver.received).toHaveLength(3);
      expect(receiver.received.map((r) => r.headers["x-forage-attempt"])).toEqual(["1", "2", "3"]);
      expect(receiver.received[0]!.headers["content-type"]).toBe("application/json");
      // Signed with the harvest's secret and the attempt's time: a receiver verifies each, and refuses forgeries and replays.
      const attemptSecs = [0, 1000, 5000].map((ms) => Math.floor((t0.getTime() + ms) / 1000));
      receiver.received.forEach((r, i) => expect(verifyWebhook(secret, r.body, r.headers["x-forage-signature"] as string, attemptSecs[i]!), `attempt ${i + 1}`).toBe(true));
      const last = receiver.received[2]!;
      const signature = last.headers["x-forage-signature"] as string;
      expect(verifyWebhook(secret, last.body.replace('"finished"', '"failed"'), signature, attemptSecs[2]!)).toBe(false);
      expect(verifyWebhook("whsec_someone-else", last.body, signature, attemptSecs[2]!)).toBe(false);
      expect(verifyWebhook(secret, last.body, signature, attemptSecs[2]! + 3600)).toBe(false);
      expect(verifyWebhook(secret, last.body, undefined, attemptSecs[2]!)).toBe(false);
      const summary = JSON.parse(receiver.received[2]!.body) as RunEndedSummary;
      const truth = site.catalogue.changes(1, 2);
      expect(summary).toMatchObject({
        event: "harvest.run.ended",
        harvest: { id: harvestId },
        run: { id: second, status: "finished", after: first },
        changes: { new: truth.new.length, changed: truth.changed.length, unchanged: truth.unchanged.length, gone: truth.gone.length },
        links: {
          cockpit: `${PUBLIC_ORIGIN}/crawls/${second}`,
          newAndChangedZip: `${PUBLIC_ORIGIN}/api/crawls/${second}/export.zip?changes=new,changed`,
        },
      });
      const stored = await t.db.crawl.findUniqueOrThrow({ where: { id: second } });
      expect(summary.run.requests).toBe(stored.requestsCount);
      expect(summary.run.targets).toBe(stored.targetsCount);
      expect(summary.run.stopReason).toBe(stored.stopReason);

      const log = await eventsOf(harvestId);
      expect(log.slice(-3)).toEqual([
        `webhook-failed: Webhook attempt 1 for run ${second} failed: HTTP 500; next attempt at ${new Date(t0.getTime() + 1000).toISOString()}`,
        `webhook-failed: Webhook attempt 2 for run ${second} failed: HTTP 503; next attempt at ${new Date(t0.getTime() + 5000).toISOString()}`,
        `webhook-delivered: Webhook delivered for run ${second} (attempt 3, HTTP 200)`,
      ]);
    } finally {
      await receiver.close();
    }
  });

  it("gives up after the last attempt, and another sender takes over a delivery whose sender died", async () => {
    const receiver = await startReceiver([500]);
    try {
      const { harvestId, second } = await harvestWithEndedRun(receiver.url, 22);
      const t0 = new Date();
      await enqueueRunEndedDeliveries(t.db, { publicOrigin: PUBLIC_ORIGIN }, t0);
      // A worker claimed it and died before sending: the claim lapses, then another worker sends.
      const delivery = await t.db.webhookDelivery.findUniqueOrThrow({ where: { crawlId: second } });
      await t.db.webhookDelivery.update({ where: { id: delivery.id }, data: { claimedBy: "worker-dead", claimedUntil: new Date(t0.getTime() + 60_000) } });
      expect(await sendDueDeliveries(t.db, options(), t0)).toBe(0);
      let now = t0.getTime() + 60_001;
      for (let attempt = 1; attempt <= 3; attempt++) {
        expect(await sendDueDeliveries(t.db, options(localSender, { senderId: "worker-b", maxAttempts: 3 }), new Date(now))).toBe(1);
        now += webhookBackoffMs(attempt);
      }
      expect(await sendDueDeliveries(t.db, options(localSender, { maxAttempts: 3 }), new Date(now + 3_600_000))).toBe(0);
      expect(receiver.received).toHaveLength(3);
      expect(await t.db.webhookDelivery.findUniqueOrThrow({ where: { id: delivery.id } })).toMatchObject({ state: "gave-up", attempts: 3 });
      expect((await eventsOf(harvestId)).slice(-2)).toEqual([
        `webhook-failed: Webhook attempt 3 for run ${second} failed: HTTP 500`,
        `webhook-gave-up: Webhook for run ${second} given up after 3 attempts`,
      ]);
    } finally {
      await receiver.close();
    }
  });

  it("cannot reach a private address the server's network policy does not allow (DNS names included)", async () => {
    const receiver = await startReceiver([200]);
    try {
      // Saved while an admin allowed 127.0.0.0/8; the policy has changed since: the connection is refused.
      const { harvestId, second } = await harvestWithEndedRun(receiver.url.replace("127.0.0.1", "localhost"), 23);
      const publicOnly = createWebhookSender({ privateNetworks: [] });
      try {
        const t0 = new Date();
        await enqueueRunEndedDeliveries(t.db, { publicOrigin: PUBLIC_ORIGIN }, t0);
        expect(await sendDueDeliveries(t.db, options(publicOnly), t0)).toBe(1);
        expect(receiver.received).toHaveLength(0);
        expect((await eventsOf(harvestId)).at(-1)).toMatch(new RegExp(`^webhook-failed: Webhook attempt 1 for run ${second} failed: .*(refused|loopback)`));
        // A redirect is not followed either: it could point anywhere.
        const redirecting = await startReceiver([307]);
        try {
          const result = await localSender(redirecting.url, "{}", {});
          expect(result).toEqual({ ok: false, status: 307, error: "HTTP 307" });
        } finally {
          await redirecting.close();
        }
      } finally {
        await publicOnly.close();
      }
    } finally {
      await receiver.close();
    }
  });

  it("the worker's tick starts a due scheduled run and sends the webhook of an ended one, under the server's network policy", async () => {
    const receiver = await startReceiver([200]);
    try {
      const { harvestId, second } = await harvestWithEndedRun(receiver.url, 24);
      const forage = { ...t.config, publicOrigin: PUBLIC_ORIGIN, privateNetworks: LOCAL };
      await t.db.harvest.update({ where: { id: harvestId }, data: { cron: "0 * * * *", nextRunAt: new Date(Date.now() - 1000) } });
      await new HarvestTicker(t.db, forage, "worker-t").tick(new Date());
      const runs = await t.db.crawl.findMany({ where: { harvestId }, orderBy: { id: "asc" }, select: { id: true, status: true, config: true } });
      expect(runs).toHaveLength(3);
      expect(runs[2]!.status).toBe("queued");
      expect(JSON.parse(runs[2]!.config)).toMatchObject({ after: second });
      expect(receiver.received).toHaveLength(1);
      expect(JSON.parse(receiver.received[0]!.body)).toMatchObject({ run: { id: second }, links: { cockpit: `${PUBLIC_ORIGIN}/crawls/${second}` } });
      expect((await eventsOf(harvestId)).slice(-2).map((line) => line.split(":")[0])).toEqual(["scheduled-run", "webhook-delivered"]);
    } finally {
      await receiver.close();
    }
  });
});
