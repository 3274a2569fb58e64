import type { CrawlConfig } from "../crawl-config";
import type { Db } from "../store/prisma-client";
import { loadCheckpoint, rollBackToCheckpoint } from "../store/checkpoint-store";
import { loadRecoveryLog } from "../store/recovery-journal";
import { checkEngineState, decodeStateAsync, type EngineState } from "../crawler/engine/engine-state";
import type { RecoveryEnd, RecoveryLog } from "../crawler/fetch/recovering-fetcher";
import type { EventRow } from "../crawler/engine/types";
import { failedCrawlRow } from "./held-crawl-updates";

/** What a checkpoint's `state` holds: the engine's state and the sink's row count at that point. */
export interface CheckpointDocument {
  engine: EngineState;
  /** Request-log rows written with the checkpoint (see `DatabaseCrawlSink.requestRows`). */
  requestRows: number;
}

/** Where a stored crawl's run starts: its checkpoint, if any, with the rows after it rolled back. */
export interface ResumePoint {
  document: CheckpointDocument | null;
  /** The rolled-back rows' answers, which the resumed engine asks again (RecoveringFetcher). */
  recoveryLog: RecoveryLog | null;
  /** The `resumed-from-checkpoint` event's message. */
  resumedMessage: string | null;
}

/** A run without a checkpoint to resume from (a first run, or a run without checkpoints). */
export const NO_CHECKPOINT: ResumePoint = { document: null, recoveryLog: null, resumedMessage: null };

/**
 * Reads the crawl's checkpoint and, when there is one, rolls the rows written after it back
 * (checkpoint-store.ts), after reading their answers (recovery-journal.ts). An unreadable
 * checkpoint (another format version, damaged) fails the crawl through `failCrawl` and throws.
 */
export async function resumePoint(db: Db, dataDir: string, crawlId: number, config: CrawlConfig, failCrawl: (row: ReturnType<typeof failedCrawlRow>) => Promise<void>): Promise<ResumePoint> {
  const saved = await loadCheckpoint(db, crawlId);
  let document: CheckpointDocument | null = null;
  try {
    document = saved ? await decodeCheckpoint(saved.state, config) : null;
  } catch (error) {
    // An unreadable checkpoint (another format version, corrupt): the crawl cannot go on.
    const cause = `checkpoint unreadable: ${error instanceof Error ? error.message : String(error)}`;
    await failCrawl(failedCrawlRow(cause));
    throw error;
  }
  let resumedMessage: string | null = null;
  let recoveryLog: RecoveryLog | null = null;
  if (document) {
    const engine = document.engine;
    // Read the answers of the rows about to be rolled back first: the resumed crawl repeats those requests.
    // Unreadable (a damaged pack): the crawl resumes as before, asking the site again.
    recoveryLog = await loadRecoveryLog(db, dataDir, crawlId, document.requestRows).catch(() => null);
    const rolledBack = await rollBackToCheckpoint(db, dataDir, crawlId, {
      requests: engine.counters.requests,
      requestRows: document.requestRows,
      counters: engine.counters,
    });
    resumedMessage =
      `Crawl resumed from its checkpoint at request ${engine.counters.requests} (${engine.counters.targets} targets); ` +
      `${rolledBack.requestRows} request rows and ${rolledBack.targets} targets written after it were rolled back` +
      (recoveryLog?.answers.length ? ` (the log answers their ${recoveryLog.answers.length} requests again)` : "");
  }
  return { document, recoveryLog, resumedMessage };
}

async function decodeCheckpoint(state: Uint8Array, config: CrawlConfig): Promise<CheckpointDocument> {
  const document = (await decodeStateAsync(state)) as CheckpointDocument;
  if (!document || typeof document.requestRows !== "number") throw new TypeError("Invalid checkpoint: no request row count");
  return { engine: checkEngineState(document.engine, config), requestRows: document.requestRows };
}

/** The event that says how the resumed engine's repeated requests were answered from the log. */
export function recoveryEvent(end: RecoveryEnd): EventRow {
  const stopped =
    end.reason === "exhausted"
      ? "all of them"
      : end.reason === "diverged"
        ? `then the crawl asked for ${end.divergedAt} where the log had ${end.left} more (sent to the site)`
        : `the run ended with ${end.left} left`;
  return {
    level: "info",
    kind: "recovered-from-log",
    message: `${end.answered} requests answered from the request log instead of the site in ${end.ms} ms: ${stopped}`,
    data: { answered: end.answered, left: end.left, reason: end.reason, ms: end.ms },
  };
}
