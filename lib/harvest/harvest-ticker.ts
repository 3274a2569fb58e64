import type { ForageConfig } from "../config";
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
  ) {}

  async tick(now: Date = new Date()): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await runDueHarvests(this.db, now);
      await enqueueRunEndedDeliveries(this.db, { publicOrigin: this.forage.publicOrigin }, now);
      const pending = await this.db.webhookDelivery.count({ where: { state: "pending", nextAttemptAt: { lte: now } } });
      if (pending === 0) return;
      // The network policy of the moment (env ∪ the admin's list), as a crawl reads it at start.
      const sender = createWebhookSender({ privateNetworks: await getServerPrivateNetworks(this.db, this.forage.privateNetworks) });
      try {
        await sendDueDeliveries(this.db, { publicOrigin: this.forage.publicOrigin, senderId: this.senderId, send: sender }, now);
      } finally {
        await sender.close();
      }
    } catch (error) {
      console.error(`[forage worker] harvest tick failed: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.running = false;
    }
  }
}
