import { addHarvestEvent } from "./add-harvest-event";
import { isUniqueViolation } from "./start-harvest-run";
import type { Db } from "../store/prisma-client";
import { harvestLog, type Logger } from "../log/logger";
import type { WebhookSender } from "./webhook-sender";
import { SIGNATURE_HEADER, signWebhook } from "./webhook-signature";
import { buildRunEndedSummary } from "./webhook-summary";

/** Statuses of a run that is over. */
const ENDED = ["finished", "failed", "cancelled"];

/** Attempts before a delivery is given up. @default 5 */
export const WEBHOOK_MAX_ATTEMPTS = 5;

/** Wait before attempt n + 1 after n failed ones: 1 s · 4^(n-1) (1 s, 4 s, 16 s, 64 s). */
export function webhookBackoffMs(failedAttempts: number): number {
  return 1000 * 4 ** Math.max(0, failedAttempts - 1);
}

/** How long a sender holds a delivery it is sending; past it (a killed worker) another sends it. */
const CLAIM_MS = 60_000;

export interface DeliveryOptions {
  publicOrigin: string;
  /** Who claims deliveries (the worker id). */
  senderId: string;
  send: WebhookSender;
  maxAttempts?: number;
  backoffMs?: (failedAttempts: number) => number;
  /** The operator log: one line per attempt (the receiver's host only: a webhook URL may hold a secret). */
  log?: Logger;
}

/**
 * Queues one webhook delivery (a row, so it survives a worker restart) for every run of a
 * harvest with a webhook that ended after the harvest was created and has none yet. The unique
 * `crawlId` keeps it to one delivery per run when several workers look at once.
 */
export async function enqueueRunEndedDeliveries(db: Db, options: Pick<DeliveryOptions, "publicOrigin">, now: Date): Promise<number> {
  const harvests = await db.harvest.findMany({ where: { webhookUrl: { not: null } }, select: { id: true, webhookUrl: true, createdAt: true } });
  let queued = 0;
  for (const harvest of harvests) {
    const ended = await db.crawl.findMany({ where: { harvestId: harvest.id, status: { in: ENDED }, finishedAt: { gt: harvest.createdAt } }, select: { id: true } });
    if (ended.length === 0) continue;
    const known = await db.webhookDelivery.findMany({ where: { crawlId: { in: ended.map((run) => run.id) } }, select: { crawlId: true } });
    const done = new Set(known.map((row) => row.crawlId));
    for (const run of ended.filter((run) => !done.has(run.id))) {
      const summary = await buildRunEndedSummary(db, run.id, options.publicOrigin);
      if (!summary) continue;
      try {
        await db.webhookDelivery.create({ data: { harvestId: harvest.id, crawlId: run.id, url: harvest.webhookUrl!, payload: JSON.stringify(summary), nextAttemptAt: now } });
        queued += 1;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error; // another worker queued it first
      }
    }
  }
  return queued;
}

/**
 * Sends the deliveries due at `now`: each claimed by a conditional update (one sender per
 * attempt), POSTed, then marked delivered, or rescheduled with backoff, or given up after
 * `maxAttempts`; every attempt is a harvest event.
 */
export async function sendDueDeliveries(db: Db, options: DeliveryOptions, now: Date): Promise<number> {
  const maxAttempts = options.maxAttempts ?? WEBHOOK_MAX_ATTEMPTS;
  const backoffMs = options.backoffMs ?? webhookBackoffMs;
  const due = await db.webhookDelivery.findMany({
    where: { state: "pending", nextAttemptAt: { lte: now }, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] },
    orderBy: { nextAttemptAt: "asc" },
    take: 20,
    include: { harvest: { select: { webhookSecret: true } } },
  });
  let sent = 0;
  for (const delivery of due) {
    const claim = await db.webhookDelivery.updateMany({
      where: { id: delivery.id, state: "pending", attempts: delivery.attempts, claimedUntil: delivery.claimedUntil },
      data: { claimedBy: options.senderId, claimedUntil: new Date(now.getTime() + CLAIM_MS) },
    });
    if (claim.count !== 1) continue;
    const attempt = delivery.attempts + 1;
    const headers: Record<string, string> = { "x-forage-event": "harvest.run.ended", "x-forage-delivery": String(delivery.id), "x-forage-attempt": String(attempt) };
    // Signed at each attempt, with the attempt's time: a receiver's replay window holds for retries too.
    if (delivery.harvest.webhookSecret) headers[SIGNATURE_HEADER] = signWebhook(delivery.harvest.webhookSecret, delivery.payload, Math.floor(now.getTime() / 1000));
    const result = await options.send(delivery.url, delivery.payload, headers);
    sent += 1;
    const run = `run ${delivery.crawlId}`;
    const line = { deliveryId: delivery.id, crawlId: delivery.crawlId, attempt, receiver: receiverHost(delivery.url), status: result.status };
    const log = options.log ? harvestLog(options.log, delivery.harvestId) : null;
    if (result.ok) log?.info(line, "webhook delivered");
    else if (attempt >= maxAttempts) log?.warn({ ...line, error: result.error }, "webhook attempt failed: given up");
    else log?.warn({ ...line, error: result.error }, "webhook attempt failed: will retry");
    if (result.ok) {
      await db.webhookDelivery.update({ where: { id: delivery.id }, data: { state: "delivered", attempts: attempt, claimedBy: null, claimedUntil: null } });
      await addHarvestEvent(db, delivery.harvestId, "webhook-delivered", `Webhook delivered for ${run} (attempt ${attempt}, HTTP ${result.status})`, { crawlId: delivery.crawlId, attempt, status: result.status });
    } else if (attempt >= maxAttempts) {
      await db.webhookDelivery.update({ where: { id: delivery.id }, data: { state: "gave-up", attempts: attempt, claimedBy: null, claimedUntil: null } });
      await addHarvestEvent(db, delivery.harvestId, "webhook-failed", `Webhook attempt ${attempt} for ${run} failed: ${result.error}`, { crawlId: delivery.crawlId, attempt, status: result.status, error: result.error });
      await addHarvestEvent(db, delivery.harvestId, "webhook-gave-up", `Webhook for ${run} given up after ${attempt} attempts`, { crawlId: delivery.crawlId, attempts: attempt });
    } else {
      const next = new Date(now.getTime() + backoffMs(attempt));
      await db.webhookDelivery.update({ where: { id: delivery.id }, data: { attempts: attempt, nextAttemptAt: next, claimedBy: null, claimedUntil: null } });
      await addHarvestEvent(db, delivery.harvestId, "webhook-failed", `Webhook attempt ${attempt} for ${run} failed: ${result.error}; next attempt at ${next.toISOString()}`, {
        crawlId: delivery.crawlId,
        attempt,
        status: result.status,
        error: result.error,
        nextAttemptAt: next.toISOString(),
      });
    }
  }
  return sent;
}

/** The host a webhook goes to, for the log (its path and query may carry the receiver's secret). */
function receiverHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "invalid-url";
  }
}
