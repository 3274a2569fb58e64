import { STRATEGIES, type Strategy } from "../../crawl-config";
import { ReplayError } from "../../crawler/replay/replay-config";
import { runReplay } from "../../worker/run-replay";
import { formatBytes } from "../../format";
import { CliUsageError } from "../cli-error";
import { openCliSession } from "../cli-session";
import { parseIntegerOption, parseOptions } from "../parse-options";
import { ProgressLine } from "../progress-line";

export const replayHelp =
  "forage replay <crawlId> --strategy sb|bfs|dfs|random|focused|tp-off|tres|sb-oracle [--seed N] [--budget N]\n" +
  "             [--db URL] [--out DIR] [--json]      re-run a finished crawl offline from its stored responses\n" +
  "             (seed and budget default to the source's; URLs it never fetched cost a request: not-archived)";

const options = {
  strategy: { type: "string" },
  seed: { type: "string" },
  budget: { type: "string" },
  db: { type: "string" },
  out: { type: "string" },
  json: { type: "boolean" },
} as const;

export interface ReplayArgs {
  sourceCrawlId: number;
  strategy: Strategy;
  seed?: number;
  budget?: number;
  db?: string;
  out?: string;
  json: boolean;
}

export function replayArgs(argv: string[]): ReplayArgs {
  const { values, positionals } = parseOptions(argv, options, { positionals: 1 });
  const rawId = positionals[0];
  if (rawId === undefined) throw new CliUsageError("missing <crawlId>, e.g. forage replay 12 --strategy bfs");
  if (!/^\d+$/.test(rawId.trim()) || Number(rawId) < 1 || !Number.isSafeInteger(Number(rawId))) {
    throw new CliUsageError(`<crawlId> must be a crawl number, got "${rawId}"`);
  }
  const strategy = values.strategy;
  if (strategy === undefined) throw new CliUsageError(`missing --strategy (${STRATEGIES.join(", ")})`);
  if (!(STRATEGIES as readonly string[]).includes(strategy)) {
    throw new CliUsageError(`--strategy must be one of ${STRATEGIES.join(", ")}, got "${strategy}"`);
  }
  return {
    sourceCrawlId: Number(rawId),
    strategy: strategy as Strategy,
    seed: parseIntegerOption("seed", values.seed, { min: 0, max: 2 ** 31 - 1 }),
    budget: parseIntegerOption("budget", values.budget, { min: 1, max: 100_000_000 }),
    db: values.db,
    out: values.out,
    json: values.json ?? false,
  };
}

/**
 * `forage replay`: a finished crawl re-run offline with another strategy (the paper's local
 * mode), stored as a new crawl; same progress line, summary and `--json` line as `forage crawl`.
 * A source that cannot be replayed (missing, unfinished, no stored pages) is a usage error.
 */
export async function replayCommand(argv: string[]): Promise<number> {
  const args = replayArgs(argv);
  const session = await openCliSession(args);
  const { forage, db } = session;
  const started = Date.now();
  let progress: ProgressLine | null = null;
  try {
    const run = await runReplay({
      db,
      forage,
      sourceCrawlId: args.sourceCrawlId,
      strategy: args.strategy,
      seed: args.seed,
      budgetRequests: args.budget,
      signal: session.signal,
      onCreated: (crawlId, config, index) => {
        if (args.json) return;
        progress = new ProgressLine(config.budget.requests);
        console.error(
          `[forage] Replay ${crawlId} of crawl ${args.sourceCrawlId}: ${config.rootUrl} (${config.strategy}, seed ${config.seed}, ` +
            `budget ${config.budget.requests} requests; ${index.size} archived URLs)`,
        );
      },
      onProgress: (counters) => progress?.update(counters),
    }).catch((error: unknown) => {
      if (error instanceof ReplayError) throw new CliUsageError(error.message);
      throw error;
    });
    (progress as ProgressLine | null)?.done();
    let stopReason: string;
    if (run.end.kind === "paused") {
      // Ctrl-C: the replay keeps its data and ends as stopped by the user.
      stopReason = "user-stop";
      await db.crawl.update({ where: { id: run.crawlId }, data: { status: "finished", stopReason, finishedAt: new Date() } });
    } else {
      stopReason = run.end.reason;
    }
    const row = await db.crawl.findUniqueOrThrow({ where: { id: run.crawlId } });
    const summary = {
      crawlId: run.crawlId,
      requests: row.requestsCount,
      targets: row.targetsCount,
      targetBytes: Number(row.targetBytes),
      nonTargetBytes: Number(row.nonTargetBytes),
      stopReason,
      durationMs: Date.now() - started,
      replayOfCrawlId: args.sourceCrawlId,
      notArchived: run.stats.notArchived,
    };
    if (args.json) console.log(JSON.stringify(summary));
    else {
      console.error(
        `[forage] Done: ${summary.targets} targets (${formatBytes(summary.targetBytes)}) for ${summary.requests} requests ` +
          `(${summary.notArchived} not archived); stop reason: ${stopReason}. Files under ${forage.dataDir}/crawls/${run.crawlId}/files`,
      );
    }
    return 0;
  } finally {
    await session.close();
  }
}
