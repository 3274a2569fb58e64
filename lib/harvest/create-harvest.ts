import { networkPolicyRefusal } from "../store/commands/check-network-policy";
import { InvalidRequestError, InvalidStateError } from "../errors";
import { ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING, CrawlConfigError, parseCrawlConfig, readStoredCrawlConfig, type CrawlConfig } from "../crawl-config";
import { parseCreateHarvest } from "./harvest-input";
import { nextRunAfter } from "./schedule";
import { newWebhookSecret } from "./webhook-signature";
import type { Db } from "../store/prisma-client";
import { getHarvest, type HarvestView } from "./get-harvest";
import { addHarvestEvent } from "./add-harvest-event";
import { startHarvestRun } from "./start-harvest-run";

export interface CreateHarvestOptions {
  /** The signed-in user (null: the command line on the server). */
  createdById?: number | null;
  /** The server's private networks (env ∪ admin list): a webhook URL naming an IP must be inside them or public. */
  privateNetworks?: readonly string[];
  /** The local admin (CLI): a repeated crawl keeps `allowPrivateNetwork`. @default false */
  asLocalAdmin?: boolean;
  /** @default new Date() */
  now?: Date;
}

/** The harvest's settings: a crawl's, without what belongs to one run (`after`). */
function definitionOf(config: CrawlConfig, checkKnownFiles: boolean | undefined, asLocalAdmin: boolean): CrawlConfig {
  return {
    ...config,
    after: null,
    checkKnownFiles: checkKnownFiles ?? config.checkKnownFiles,
    allowPrivateNetwork: asLocalAdmin ? config.allowPrivateNetwork : false,
  };
}

/**
 * Creates a harvest from a finished crawl (its settings; the crawl becomes the first run) or
 * from crawl settings; with a schedule its first due time is set; `runNow` queues a run at once.
 * @throws InvalidRequestError / CrawlConfigError (400, naming the fields); InvalidStateError (409)
 *   when the crawl is not finished or already belongs to a harvest.
 */
export async function createHarvest(db: Db, input: unknown, options: CreateHarvestOptions = {}): Promise<HarvestView> {
  const now = options.now ?? new Date();
  const asLocalAdmin = options.asLocalAdmin ?? false;
  const value = parseCreateHarvest(input, options.privateNetworks ?? []);
  let definition: CrawlConfig;
  if (value.fromCrawlId !== undefined) {
    const crawl = await db.crawl.findUnique({ where: { id: value.fromCrawlId }, select: { config: true, seed: true, status: true, harvestId: true, replayOfCrawlId: true } });
    if (!crawl) throw new InvalidRequestError({ fromCrawlId: `names crawl ${value.fromCrawlId}, which does not exist` }, "Invalid harvest");
    if (crawl.replayOfCrawlId !== null) throw new InvalidRequestError({ fromCrawlId: `names crawl ${value.fromCrawlId}, a replay: a harvest repeats a crawl of the live site` }, "Invalid harvest");
    if (crawl.status !== "finished") throw new InvalidStateError(`fromCrawlId: crawl ${value.fromCrawlId} is ${crawl.status}; a harvest repeats a finished crawl`);
    if (crawl.harvestId !== null) throw new InvalidStateError(`fromCrawlId: crawl ${value.fromCrawlId} is already a run of harvest ${crawl.harvestId}`);
    const stored = readStoredCrawlConfig(crawl.config);
    if (!stored.ok) throw new CrawlConfigError(stored.fields);
    definition = definitionOf({ ...stored.config, seed: crawl.seed }, value.checkKnownFiles, asLocalAdmin);
  } else {
    const config = value.config!;
    const fields: Record<string, string> = {};
    if (!asLocalAdmin && Object.hasOwn(config, "allowPrivateNetwork")) fields["config.allowPrivateNetwork"] = ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING;
    if (Object.hasOwn(config, "after")) fields["config.after"] = "is set by the harvest for each run (its previous finished run)";
    try {
      definition = definitionOf(parseCrawlConfig(config), value.checkKnownFiles, asLocalAdmin);
    } catch (error) {
      if (!(error instanceof CrawlConfigError)) throw error;
      for (const [field, message] of Object.entries(error.fields)) fields[`config.${field}`] ??= message;
      throw new CrawlConfigError(fields);
    }
    if (options.privateNetworks) {
      const refusal = networkPolicyRefusal(definition.rootUrl, { privateNetworks: options.privateNetworks, allowAllPrivate: definition.allowPrivateNetwork });
      if (refusal) fields["config.rootUrl"] = refusal;
    }
    if (Object.keys(fields).length > 0) throw new CrawlConfigError(fields);
  }
  const name = value.name ?? definition.name ?? new URL(definition.rootUrl).host;
  const nextRunAt = value.cron && !value.paused ? nextRunAfter({ cron: value.cron, timeZone: value.timeZone }, now) : null;

  const harvest = await db.$transaction(async (tx) => {
    const created = await tx.harvest.create({
      data: {
        name,
        config: JSON.stringify(definition),
        cron: value.cron,
        timeZone: value.timeZone,
        webhookUrl: value.webhookUrl,
        webhookSecret: value.webhookUrl ? newWebhookSecret() : null,
        paused: value.paused,
        createdById: options.createdById ?? null,
        nextRunAt,
      },
      select: { id: true },
    });
    if (value.fromCrawlId !== undefined) {
      // Conditional: two harvests made at once from one crawl cannot both claim it.
      const claimed = await tx.crawl.updateMany({ where: { id: value.fromCrawlId, harvestId: null }, data: { harvestId: created.id } });
      if (claimed.count !== 1) throw new InvalidStateError(`fromCrawlId: crawl ${value.fromCrawlId} is already a run of another harvest`);
    }
    return created;
  });
  const schedule = value.cron ? `, schedule "${value.cron}" (${value.timeZone})${value.paused ? ", paused" : ""}` : "";
  await addHarvestEvent(db, harvest.id, "created", `Harvest created${value.fromCrawlId !== undefined ? ` from crawl ${value.fromCrawlId}` : ""}${schedule}`);
  if (value.runNow) {
    const run = await startHarvestRun(db, harvest.id);
    await addHarvestEvent(db, harvest.id, "run-started", `Run started by hand: crawl ${run.crawlId}${run.after === null ? "" : ` after crawl ${run.after}`}`, run);
  }
  return getHarvest(db, harvest.id);
}
