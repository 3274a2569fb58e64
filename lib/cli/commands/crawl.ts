import { CrawlConfigError, parseCrawlConfig, STRATEGIES, type CrawlConfigInput } from "../../crawl-config";
import { runStoredCrawl } from "../../worker/run-stored-crawl";
import { closeProcessRendering } from "../../worker/process-rendering";
import { formatBytes } from "../../format";
import { CliUsageError } from "../cli-error";
import { openCliSession } from "../cli-session";
import { parseIntegerOption, parseOptions } from "../parse-options";
import { ProgressLine } from "../progress-line";
import { createHostClock } from "../../store/host-clock";
import { insertCrawl } from "../../store/insert-crawl";
import { checkPreviousCrawl } from "../../store/commands/check-previous-crawl";
import { networkPolicyRefusal } from "../../store/commands/check-network-policy";
import { getServerPrivateNetworks } from "../../store/queries/get-network-policy";
import { getChangeCounts } from "../../store/queries/get-crawl-changes";
import { InvalidStateError } from "../../errors";
import { CLI_LEASE_MS, cliHolderId, holdLease } from "../../worker/leases";

export const crawlHelp =
  "forage crawl <rootUrl> [--target-mime a/b,c/d] [--budget N] [--max-bytes N] [--max-seconds N] [--delay-ms N]\n" +
  "             [--strategy sb|sb-paper|bfs|dfs|random|focused|tp-off|tres] [--policy auer|thompson|kl-ucb] [--seed N] [--allow-private-network] [--no-robots]\n" +
  "             [--after CRAWL_ID [--check-known-files]] [--render auto|always|off] [--db URL] [--out DIR] [--json]      run one crawl in this process\n" +
  "             --render: run script-built pages in a browser (Chromium) to see their links: auto (default) when a page's\n" +
  "             HTML looks like a script-built shell, always, or off; the browser's requests obey the crawl's rules\n" +
  "             --after: re-crawl the site of a finished crawl from what it learned; its files are known (not downloaded\n" +
  "             again, unless --check-known-files: conditional requests); the summary counts new/changed/unchanged/gone files\n" +
  "             --allow-private-network: reach loopback/private/link-local addresses (you are the admin here;\n" +
  "             without it, only FORAGE_PRIVATE_NETWORKS and Settings → Network); cloud-metadata addresses never";

const options = {
  "target-mime": { type: "string" },
  budget: { type: "string" },
  "max-bytes": { type: "string" },
  "max-seconds": { type: "string" },
  "delay-ms": { type: "string" },
  strategy: { type: "string" },
  policy: { type: "string" },
  seed: { type: "string" },
  "allow-private-network": { type: "boolean" },
  robots: { type: "boolean" },
  db: { type: "string" },
  out: { type: "string" },
  json: { type: "boolean" },
  name: { type: "string" },
  after: { type: "string" },
  "check-known-files": { type: "boolean" },
  render: { type: "string" },
} as const;

/** Turns command-line options into crawl settings (validated by the same schema as the API). */
export function crawlInputFromArgs(argv: string[]): { input: CrawlConfigInput; db?: string; out?: string; json: boolean } {
  const { values, positionals } = parseOptions(argv, options, { positionals: 1 });
  const rootUrl = positionals[0];
  if (!rootUrl) throw new CliUsageError("missing <rootUrl>, e.g. forage crawl https://www.example.org/");
  const strategy = values.strategy;
  if (strategy !== undefined && !(STRATEGIES as readonly string[]).includes(strategy)) {
    throw new CliUsageError(`--strategy must be one of ${STRATEGIES.filter((s) => s !== "sb-oracle").join(", ")}, got "${strategy}"`);
  }
  if (strategy === "sb-oracle") throw new CliUsageError('--strategy sb-oracle needs a stored crawl: use "forage replay <crawlId> --strategy sb-oracle"');
  const input: CrawlConfigInput = {
    rootUrl,
    name: values.name ?? null,
    budget: {
      requests: parseIntegerOption("budget", values.budget, { min: 1 }) ?? 1000,
      bytes: parseIntegerOption("max-bytes", values["max-bytes"], { min: 1 }) ?? null,
      seconds: parseIntegerOption("max-seconds", values["max-seconds"], { min: 1 }) ?? null,
    },
    politeness: {
      delayMs: parseIntegerOption("delay-ms", values["delay-ms"], { min: 0 }) ?? 1000,
      obeyRobots: values.robots ?? true,
    },
    strategy: (strategy as CrawlConfigInput["strategy"]) ?? "sb",
    seed: parseIntegerOption("seed", values.seed, { min: 0, max: 2 ** 31 - 1 }),
    // The CLI stores its crawl itself (insertCrawl), not through the API's createCrawl: its user
    // runs it on their own machine with the database, so they are the admin and may set this.
    allowPrivateNetwork: values["allow-private-network"] ?? false,
    after: parseIntegerOption("after", values.after, { min: 1 }) ?? null,
    checkKnownFiles: values["check-known-files"] ?? false,
  };
  // Checked by the settings schema (the messages name --policy / --render and the choices).
  if (values.policy !== undefined) input.params = { policy: values.policy as "auer" };
  if (values.render !== undefined) input.render = values.render as CrawlConfigInput["render"];
  if (input.checkKnownFiles && input.after === null) throw new CliUsageError("--check-known-files needs --after <crawlId> (the crawl whose files to check)");
  if (values["target-mime"] !== undefined) {
    input.targetMimeTypes = values["target-mime"].split(",").map((mime) => mime.trim()).filter(Boolean);
  }
  return { input, db: values.db, out: values.out, json: values.json ?? false };
}

/** `forage crawl`: one crawl in the foreground, with a progress line and a summary. */
export async function crawlCommand(argv: string[]): Promise<number> {
  const args = crawlInputFromArgs(argv);
  let config;
  try {
    config = parseCrawlConfig(args.input);
  } catch (error) {
    if (error instanceof CrawlConfigError) {
      throw new CliUsageError(Object.entries(error.fields).map(([field, message]) => `${cliName(field)} ${message}`).join("; "));
    }
    throw error;
  }
  const session = await openCliSession(args);
  const { forage, db } = session;
  const started = Date.now();
  let stopLease = () => {};
  try {
    const holderId = cliHolderId();
    await checkPreviousCrawl(db, config).catch((error: unknown) => {
      if (error instanceof CrawlConfigError) throw new CliUsageError(Object.entries(error.fields).map(([field, message]) => `${cliName(field)} ${message}`).join("; "));
      if (error instanceof InvalidStateError) throw new CliUsageError(`--${error.message}`);
      throw error;
    });
    // The worker would refuse the root URL's address: say so now, with what to do about it.
    const refusal = networkPolicyRefusal(
      config.rootUrl,
      { privateNetworks: await getServerPrivateNetworks(db, forage.privateNetworks), allowAllPrivate: config.allowPrivateNetwork },
      "pass --allow-private-network (you are the admin here), or list it in FORAGE_PRIVATE_NETWORKS or Settings → Network",
    );
    if (refusal) throw new CliUsageError(`<rootUrl> ${config.rootUrl} ${refusal}`);
    const crawlId = await insertCrawl(db, config, { heldBy: { holderId, leaseMs: CLI_LEASE_MS } });
    const lease = holdLease(db, crawlId, holderId, CLI_LEASE_MS);
    stopLease = lease.stop;
    const progress = args.json ? null : new ProgressLine(config.budget.requests);
    if (!args.json) console.error(`[forage] Crawl ${crawlId}: ${config.rootUrl} (${config.strategy}, seed ${config.seed}, budget ${config.budget.requests} requests)`);
    const politeness = createHostClock(db, forage, holderId);
    const end = await runStoredCrawl({
      db,
      forage,
      crawlId,
      politeness,
      signal: session.signal,
      onProgress: (counters) => progress?.update(counters),
    }).finally(() => Promise.all([politeness.close(), closeProcessRendering()]));
    progress?.done();
    let stopReason: string;
    if (end.kind === "paused") {
      // Ctrl-C: the crawl keeps its data and ends as stopped by the user.
      stopReason = "user-stop";
      await db.crawl.update({ where: { id: crawlId }, data: { status: "finished", stopReason, finishedAt: new Date() } });
    } else {
      stopReason = end.reason;
    }
    const row = await db.crawl.findUniqueOrThrow({ where: { id: crawlId } });
    const summary = {
      crawlId,
      requests: row.requestsCount,
      targets: row.targetsCount,
      targetBytes: Number(row.targetBytes),
      nonTargetBytes: Number(row.nonTargetBytes),
      stopReason,
      durationMs: Date.now() - started,
      after: config.after,
      changes: await getChangeCounts(db, crawlId),
    };
    if (args.json) console.log(JSON.stringify(summary));
    if (stopReason === "failed") {
      // A crawl that could not run (robots.txt refuses the root URL, …) is not a normal end.
      console.error(`forage crawl: crawl ${crawlId} failed: ${row.stopDetail ?? "see its events"}`);
      return 1;
    }
    if (!args.json) {
      console.error(
        `[forage] Done: ${summary.targets} targets (${formatBytes(summary.targetBytes)}) for ${summary.requests} requests; stop reason: ${stopReason}. ` +
          `Files under ${forage.dataDir}/crawls/${crawlId}/files`,
      );
      const changes = summary.changes;
      if (config.after !== null && changes) {
        console.error(`[forage] Since crawl ${config.after}: ${changes.new} new, ${changes.changed} changed, ${changes.unchanged} unchanged, ${changes.gone} gone`);
      }
    }
    return 0;
  } finally {
    stopLease();
    await session.close();
  }
}

/** Maps a settings path back to the option a CLI user typed. */
function cliName(field: string): string {
  const names: Record<string, string> = {
    rootUrl: "<rootUrl>",
    targetMimeTypes: "--target-mime",
    "budget.requests": "--budget",
    "budget.bytes": "--max-bytes",
    "budget.seconds": "--max-seconds",
    "politeness.delayMs": "--delay-ms",
    seed: "--seed",
    strategy: "--strategy",
    "params.policy": "--policy",
    after: "--after",
    render: "--render",
  };
  if (field.startsWith("targetMimeTypes.")) return "--target-mime";
  return names[field] ?? field;
}
