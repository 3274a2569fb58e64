import { ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING, CrawlConfigError, parseCrawlConfig, RECIPE_CHOICE_AUTO, type FieldErrors } from "../../crawl-config";
import { insertCrawl } from "../insert-crawl";
import { checkPreviousCrawl } from "./check-previous-crawl";
import { networkPolicyRefusal, type CreationNetworkPolicy } from "./check-network-policy";
import type { Db } from "../prisma-client";

export interface CreateCrawlOptions {
  /** Draws the seed when the settings have none. @default Math.random */
  drawSeed?: () => number;
  /**
   * The caller is the admin of this machine (a local command or test with the database
   * itself), so `allowPrivateNetwork` is accepted. Never set it for an API request: there the
   * server's network policy decides which private networks crawls reach. @default false
   */
  asLocalAdmin?: boolean;
  /** The signed-in user who asked for it (null: the command line on the server). */
  createdById?: number | null;
  /** The recipe ids in force (shipped and FORAGE_RECIPES_DIR): a crawl naming another is refused. @default not checked */
  knownRecipeIds?: readonly string[];
  /**
   * The server's network policy: a root URL it refuses (a literal private or reserved IP, a
   * cloud-metadata address, localhost) is a field error now rather than a crawl that fails when
   * it runs. Omitted: not checked here (the worker checks every connection anyway).
   */
  networkPolicy?: CreationNetworkPolicy;
}

/**
 * Validates crawl settings, draws the seed when absent and stores a `queued` crawl with its
 * "created" event (one statement: no crawl without its first log line); a worker claims it
 * from there. The CLI stores crawls through the same `insertCrawl`.
 *
 * Settings that set `allowPrivateNetwork` (even to false: it is not the client's to send) are
 * refused unless `asLocalAdmin`, together with any other bad field.
 * With `networkPolicy`, a root URL the policy refuses is a `rootUrl` field error (check-network-policy.ts).
 * A re-crawl's `after` must name a finished crawl of the same site (check-previous-crawl.ts).
 * @throws CrawlConfigError naming every bad field (the API's 400 `fields`); InvalidStateError (409) when `after` is not finished.
 */
export async function createCrawl(db: Db, input: unknown, options: CreateCrawlOptions = {}): Promise<{ id: number }> {
  if (!options.asLocalAdmin && typeof input === "object" && input !== null && Object.hasOwn(input, "allowPrivateNetwork")) {
    const { allowPrivateNetwork: _refused, ...rest } = input as Record<string, unknown>;
    const fields: FieldErrors = { allowPrivateNetwork: ALLOW_PRIVATE_NETWORK_IS_SERVER_SETTING };
    try {
      parseCrawlConfig(rest, () => 0);
    } catch (error) {
      if (!(error instanceof CrawlConfigError)) throw error;
      Object.assign(fields, error.fields);
    }
    throw new CrawlConfigError(fields);
  }
  const config = parseCrawlConfig(input, options.drawSeed);
  const recipe = config.applications.recipe;
  if (options.knownRecipeIds && recipe !== RECIPE_CHOICE_AUTO && !options.knownRecipeIds.includes(recipe)) {
    throw new CrawlConfigError({ "applications.recipe": `is not a known recipe: choose "auto" or one of ${options.knownRecipeIds.join(", ")}` });
  }
  await checkPreviousCrawl(db, config);
  if (options.networkPolicy) {
    const refusal = networkPolicyRefusal(config.rootUrl, { ...options.networkPolicy, allowAllPrivate: config.allowPrivateNetwork });
    if (refusal) throw new CrawlConfigError({ rootUrl: refusal });
  }
  return { id: await insertCrawl(db, config, { createdById: options.createdById ?? null }) };
}
