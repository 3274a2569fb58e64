import type { ForageConfig } from "../config";
import { harvestLog, loggerFor, type Logger } from "../log/logger";
import type { Db } from "../store/prisma-client";
import { getServerPrivateNetworks } from "../store/queries/get-network-policy";
import { runDueHarvests } from "./scheduler";
import { enqueueRunEndedDeliveries, sendDueDeliveries } from "./webhook-deliveries";
import { createWebhookSender } from "./webhook-sender";

/** How often a worker looks at harvests: due schedules, ended runs, webhook deliveries. */
export const HARVEST_TICK_MS = 15_000;

/**
 * The harvest duties of a worker process, one `tick(now)` at a time: start due scheduled runs,
 * queue the webhook of every ended run, send the deliveries that are due. Several workers may
 * tick at once: each step claims its rows by conditional updates. A tick never overlaps the
 * previous one in the same process.
 */
export class HarvestTicker {
  private running = false;

  constructor(
    private readonly db: Db,
    private readonly forage: ForageConfig,
    private readonly senderId: string,
    /** The operator log. @default the process's (FORAGE_LOG_LEVEL / FORAGE_LOG_FORMAT) */
    private readonly log: Logger = loggerFor(forage, "forage-worker"),
  ) {}

  async tick(now: Date = new Date()): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (const outcome of await runDueHarvests(this.db, now)) {
        const log = harvestLog(this.log, outcome.harvestId);
        if (outcome.kind === "started") log.info({ crawlId: outcome.crawlId, catchUp: outcome.catchUp, missed: outcome.missed }, outcome.catchUp ? "harvest catch-up run started" : "harvest scheduled run started");
        else if (outcome.kind === "skipped") log.info({ reason: outcome.reason }, "harvest run skipped");
        else log.warn({ reason: outcome.reason }, "harvest run could not start");
      }
      const queued = await enqueueRunEndedDeliveries(this.db, { publicOrigin: this.forage.publicOrigin }, now);
      if (queued > 0) this.log.info({ queued }, "webhook deliveries queued for ended harvest runs");
      const pending = await this.db.webhookDelivery.count({ where: { state: "pending", nextAttemptAt: { lte: now } } });
      if (pending === 0) return;
      // The network policy of the moment (env ∪ the admin's list), as a crawl reads it at start.
      const sender = createWebhookSender({ privateNetworks: await getServerPrivateNetworks(this.db, this.forage.privateNetworks) });
      try {
        await sendDueDeliveries(this.db, { publicOrigin: this.forage.publicOrigin, senderId: this.senderId, send: sender, log: this.log }, now);
      } finally {
        await sender.close();
      }
    } catch (error) {
      this.log.error({ err: error }, "harvest tick failed");
    } finally {
      this.running = false;
    }
  }
}
