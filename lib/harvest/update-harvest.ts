import { withCurrentParamNames } from "../crawl-config";
import { NotFoundError } from "../errors";
import { parseUpdateHarvest } from "./harvest-input";
import { nextRunAfter } from "./schedule";
import { newWebhookSecret } from "./webhook-signature";
import type { Db } from "../store/prisma-client";
import { getHarvest, type HarvestView } from "./get-harvest";
import { addHarvestEvent } from "./add-harvest-event";

/**
 * Changes a harvest's name, schedule, time zone, webhook, pause or `checkKnownFiles`. A new
 * schedule, zone or un-pausing counts the next run from now (times missed while paused are not
 * caught up: pausing means "not now"); pausing clears it.
 * @throws NotFoundError; InvalidRequestError naming the bad fields.
 */
export async function updateHarvest(db: Db, id: number, input: unknown, options: { privateNetworks?: readonly string[]; now?: Date } = {}): Promise<HarvestView> {
  const now = options.now ?? new Date();
  const patch = parseUpdateHarvest(input, options.privateNetworks ?? []);
  const current = await db.harvest.findUnique({ where: { id } });
  if (!current) throw new NotFoundError(`Harvest ${id}`);
  const cron = patch.cron === undefined ? current.cron : patch.cron;
  const timeZone = patch.timeZone ?? current.timeZone;
  const paused = patch.paused ?? current.paused;
  const scheduleChanged = cron !== current.cron || timeZone !== current.timeZone || paused !== current.paused;
  const config = withCurrentParamNames(JSON.parse(current.config)) as Record<string, unknown>;
  if (patch.checkKnownFiles !== undefined) config.checkKnownFiles = patch.checkKnownFiles;
  await db.harvest.update({
    where: { id },
    data: {
      name: patch.name ?? current.name,
      cron,
      timeZone,
      paused,
      webhookUrl: patch.webhookUrl === undefined ? current.webhookUrl : patch.webhookUrl,
      // Kept when the URL changes (the receiver keeps verifying); made with the first URL.
      ...(patch.webhookUrl && !current.webhookSecret ? { webhookSecret: newWebhookSecret() } : {}),
      config: JSON.stringify(config),
      ...(scheduleChanged ? { nextRunAt: cron && !paused ? nextRunAfter({ cron, timeZone }, now) : null } : {}),
    },
  });
  const changed = Object.keys(patch).filter((key) => patch[key as keyof typeof patch] !== undefined);
  if (changed.length > 0) await addHarvestEvent(db, id, "updated", `Changed: ${changed.join(", ")}`, patch);
  return getHarvest(db, id);
}
