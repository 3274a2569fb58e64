import { z } from "zod";
import { InvalidStateError, NotFoundError } from "../../errors";
import { STRATEGIES, type Strategy } from "../../crawl-config";
import { replayConfig, ReplayError } from "../../crawler/replay/replay-config";
import { insertCrawl } from "../insert-crawl";
import type { Db } from "../prisma-client";
import { checkReplayable } from "../replay-source";

/** `POST /api/crawls/:id/replays`: one or more strategies (each once) and an optional seed. */
export const createReplaysSchema = z.strictObject({
  strategies: z
    .array(z.enum(STRATEGIES, `must be one of ${STRATEGIES.join(", ")}`), "must be a list of strategies")
    .min(1, "must name at least one strategy")
    .max(STRATEGIES.length, `must name at most ${STRATEGIES.length} strategies`)
    .refine((list) => new Set(list).size === list.length, "must name each strategy once"),
  seed: z.number("must be a whole number").int("must be a whole number").min(0, "must be at least 0").max(2 ** 31 - 1, `must be at most ${2 ** 31 - 1}`).optional(),
});
export type CreateReplaysInput = z.output<typeof createReplaysSchema>;

export interface CreatedReplay {
  id: number;
  strategy: Strategy;
  seed: number;
}

/**
 * Queues replays of a finished crawl, one per strategy: ordinary crawls (`replayOfCrawlId` set)
 * that the worker runs offline from the source's stored responses, with the same settings as
 * `forage replay` (replay-config.ts `replayConfig`: the source's budget, no politeness delay, the
 * given seed or the source's). Replaying a replay replays its source: a replay stored only what
 * it fetched, a subset of the source, and one family keeps the comparison on one target set.
 * @throws NotFoundError for an unknown crawl, InvalidStateError when the source cannot be
 * replayed (unfinished, cancelled, no stored pages).
 */
export async function createReplays(db: Db, crawlId: number, input: CreateReplaysInput, options: { createdById?: number | null } = {}): Promise<{ sourceCrawlId: number; replays: CreatedReplay[] }> {
  const crawl = await db.crawl.findUnique({ where: { id: crawlId }, select: { replayOfCrawlId: true } });
  if (!crawl) throw new NotFoundError(`Crawl ${crawlId}`);
  const sourceCrawlId = crawl.replayOfCrawlId ?? crawlId;
  let source;
  try {
    source = await checkReplayable(db, sourceCrawlId);
  } catch (error) {
    if (error instanceof ReplayError) throw new InvalidStateError(`Cannot replay: ${error.message}`);
    throw error;
  }
  const configs = input.strategies.map((strategy) => {
    try {
      return replayConfig(source, sourceCrawlId, { strategy, seed: input.seed });
    } catch (error) {
      if (error instanceof ReplayError) throw new InvalidStateError(`Cannot replay: ${error.message}`);
      throw error;
    }
  });
  const replays: CreatedReplay[] = [];
  for (const config of configs) {
    const id = await insertCrawl(db, config, { replayOfCrawlId: sourceCrawlId, createdById: options.createdById ?? null });
    replays.push({ id, strategy: config.strategy, seed: config.seed });
  }
  return { sourceCrawlId, replays };
}
