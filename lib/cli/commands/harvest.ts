import { DomainError } from "../../errors";
import { parseId } from "../../api/ids";
import { CrawlConfigError } from "../../crawl-config";
import { getServerPrivateNetworks } from "../../store";
import { addHarvestEvent, createHarvest, listHarvests, startHarvestRun, type HarvestView } from "../../harvest";
import { CliUsageError } from "../cli-error";
import { parseIntegerOption, parseOptions } from "../parse-options";
import { withAccountsDb } from "./accounts-session";

export const harvestHelp =
  'forage harvest create --from <crawlId> [--cron "0 6 * * 1" --tz Europe/Paris --webhook URL --now] | list [--json] | run <id>   repeated crawls (a worker runs them)';

/**
 * `forage harvest create|list|run`: the harvest API's commands on the local database. Runs are
 * queued; a `forage worker` (or `npm start`) runs them and starts the scheduled ones.
 */
export async function harvestCommand(argv: string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action === "create") return create(rest);
  if (action === "list") return list(rest);
  if (action === "run") return run(rest);
  throw new CliUsageError(action ? `unknown action "${action}" (create, list or run)` : "say what to do: create, list or run");
}

function describe(harvest: HarvestView): string {
  const schedule = harvest.cron ? `"${harvest.cron}" (${harvest.timeZone})${harvest.paused ? ", paused" : harvest.nextRunAt ? `, next run ${harvest.nextRunAt}` : ""}` : "run by hand";
  return `Harvest ${harvest.id} "${harvest.name}" of ${harvest.rootUrl}: ${schedule}; ${harvest.runs.length} runs (${harvest.runs.map((r) => `#${r.id} ${r.status}`).join(", ")})`;
}

/** API errors as one-line usage errors naming the option. */
function asUsageError(error: unknown): never {
  const fields = error instanceof CrawlConfigError ? error.fields : error instanceof DomainError ? error.fields : undefined;
  const option: Record<string, string> = { fromCrawlId: "--from", cron: "--cron", timeZone: "--tz", webhookUrl: "--webhook", name: "--name" };
  if (fields && Object.keys(fields).length > 0) {
    throw new CliUsageError(Object.entries(fields).map(([field, message]) => `${option[field] ?? field} ${message}`).join("; "));
  }
  if (error instanceof DomainError) throw new CliUsageError(error.message);
  throw error;
}

async function create(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, {
    from: { type: "string" },
    cron: { type: "string" },
    tz: { type: "string" },
    webhook: { type: "string" },
    name: { type: "string" },
    now: { type: "boolean" },
    "check-known-files": { type: "boolean" },
    db: { type: "string" },
  });
  const fromCrawlId = parseIntegerOption("from", values.from, { min: 1 });
  if (fromCrawlId === undefined) throw new CliUsageError("needs --from <crawlId>: the finished crawl to repeat");
  return withAccountsDb(values.db, async (db, forage) => {
    const input = {
      fromCrawlId,
      ...(values.cron !== undefined ? { cron: values.cron } : {}),
      ...(values.tz !== undefined ? { timeZone: values.tz } : {}),
      ...(values.webhook !== undefined ? { webhookUrl: values.webhook } : {}),
      ...(values.name !== undefined ? { name: values.name } : {}),
      ...(values["check-known-files"] !== undefined ? { checkKnownFiles: values["check-known-files"] } : {}),
      runNow: values.now ?? false,
    };
    const privateNetworks = await getServerPrivateNetworks(db, forage.privateNetworks);
    const harvest = await createHarvest(db, input, { asLocalAdmin: true, privateNetworks }).catch(asUsageError);
    console.log(describe(harvest));
    return 0;
  });
}

async function list(argv: string[]): Promise<number> {
  const { values } = parseOptions(argv, { json: { type: "boolean" }, db: { type: "string" } });
  return withAccountsDb(values.db, async (db) => {
    const harvests = await listHarvests(db);
    if (values.json) console.log(JSON.stringify(harvests));
    else if (harvests.length === 0) console.log("No harvests (forage harvest create --from <crawlId> makes one).");
    else for (const harvest of harvests) console.log(describe(harvest));
    return 0;
  });
}

async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parseOptions(argv, { db: { type: "string" } }, { positionals: 1 });
  let id: number;
  try {
    id = parseId(positionals[0], "Harvest");
  } catch {
    throw new CliUsageError(`needs the harvest's id (a whole number, shown by forage harvest list), got "${positionals[0] ?? ""}"`);
  }
  return withAccountsDb(values.db, async (db) => {
    const started = await startHarvestRun(db, id).catch(asUsageError);
    await addHarvestEvent(db, id, "run-started", `Run started from the command line: crawl ${started.crawlId}${started.after === null ? "" : ` after crawl ${started.after}`}`, started);
    console.log(`Queued crawl ${started.crawlId}${started.after === null ? "" : ` after crawl ${started.after}`}; a worker runs it.`);
    return 0;
  });
}
