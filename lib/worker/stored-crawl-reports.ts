/**
 * What a stored crawl's run reports besides its pages (run-stored-crawl.ts): a re-crawl's start,
 * its revisits, what checkpoints cost, the web archive, the change report for the next run.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import type { openCrawlWarcRecorder } from "../archive/crawl-warc-recorder";
import type { CrawlConfig } from "../crawl-config";
import type { Db } from "../store/prisma-client";
import type { DatabaseCrawlSink } from "../store/database-crawl-sink";
import { saveRecrawlRecord, type UncheckedCounts } from "../store/recrawl-store";
import type { CheckpointSchedule } from "../crawler/engine/checkpoint-schedule";
import type { CrawlRun } from "../crawler/engine/create-engine";
import type { RecrawlBasis } from "../crawler/engine/recrawl-basis";
import type { CrawlEnd, EventRow } from "../crawler/engine/types";
import { addCrawlEvent } from "../store/commands/add-crawl-event";
import { CHANGES_EVENT_KIND } from "../store/queries/get-crawl-changes";

/** A re-crawl's first event: what it starts from. */
export function recrawlStartedEvent(basis: RecrawlBasis): EventRow {
  const learned = basis.learned;
  return {
    level: "info",
    kind: "recrawl-started",
    message:
      `Re-crawl after crawl ${basis.previousCrawlId}: ${basis.known.length} known files` +
      (basis.checkKnownFiles ? " (checked with conditional requests)" : " (not downloaded again)") +
      (learned ? `, its learned model and ${learned.revisit.length} pages to revisit first` : "; it left no learned state, the model starts afresh"),
    data: { after: basis.previousCrawlId, known: basis.known.length, revisit: learned?.revisit.length ?? 0 },
  };
}

/** The events of a run's end: a re-crawl's revisits, and what the checkpoints cost. */
export function endOfRunEvents(end: CrawlEnd, run: CrawlRun, schedule: CheckpointSchedule, engineMs: number): EventRow[] {
  const events: EventRow[] = [];
  if (end.kind === "stopped" && run.recrawl) {
    const { revisited, deferredCount } = run.recrawl;
    events.push({
      level: "info",
      kind: "recrawl-revisits",
      message: `${revisited} pages the previous runs had seen were revisited after the new ones; ${deferredCount} were left (no class of them expected to pay: change rates learnt over the runs and this one)`,
      data: { revisited, left: deferredCount },
    });
  }
  if (schedule.count > 0) {
    const { count, totalMs, lastBytes } = schedule;
    events.push({
      level: "info",
      kind: "checkpoints",
      message: `${count} checkpoints in ${Math.round(totalMs)} ms (${((100 * totalMs) / Math.max(1, engineMs)).toFixed(1)} % of the engine's time), last ${Math.round(lastBytes / 1024)} KiB`,
      data: { count, totalMs: Math.round(totalMs), lastBytes, engineMs: Math.round(engineMs) },
    });
  }
  return events;
}

/** Waits for the archive's last records; says when it failed (the crawl itself went on). */
export async function closeWarc(warc: ReturnType<typeof openCrawlWarcRecorder>, sink: DatabaseCrawlSink): Promise<void> {
  if (!warc) return;
  await warc.close();
  const { failure, records, bytes, files } = warc.writer;
  if (failure) sink.event({ level: "error", kind: "warc-failed", message: `The web archive stopped: ${failure.message}`, data: { records, bytes } });
  else sink.event({ level: "info", kind: "warc-written", message: `Web archive: ${records} records, ${bytes} bytes in ${files.length} WARC files`, data: { records, bytes, files: files.length } });
}

/** Writes the run's change report and learned state (recrawl-store.ts) and logs the four counts; a failure costs the next re-crawl its head start, not this crawl. */
export async function recordChanges(db: Db, dataDir: string, crawlId: number, config: CrawlConfig, run: CrawlRun): Promise<void> {
  try {
    const engine = run.captureState();
    // A turn of the event loop between taking the state and reading the crawl's rows: each is a
    // block of its own, not one the size of both.
    await nextTurn();
    const report = await saveRecrawlRecord(db, dataDir, {
      crawlId,
      rootUrl: config.rootUrl,
      engine,
      outcomes: run.recrawl?.outcomes ?? null,
      previousCrawlId: config.after,
      checkedKnownFiles: config.checkKnownFiles,
    });
    const { counts } = report;
    await addCrawlEvent(db, crawlId, {
      level: "info",
      kind: CHANGES_EVENT_KIND,
      message:
        config.after === null
          ? `${counts.new} files collected (the next re-crawl starts from this crawl's learned state)`
          : `Since crawl ${config.after}: ${counts.new} new, ${counts.changed} changed, ${counts.unchanged} unchanged, ${counts.gone} gone` + uncheckedText(report.unchecked),
      data: counts,
    });
  } catch (error) {
    await addCrawlEvent(db, crawlId, { level: "warn", kind: "changes-not-recorded", message: `The change report could not be written: ${error instanceof Error ? error.message : String(error)}` }).catch(() => undefined);
  }
}

/** What a re-crawl without "Check known files" left unverified, for its changes event. */
function uncheckedText(unchecked: UncheckedCounts | undefined): string {
  if (!unchecked || unchecked.linked + unchecked.unlinked === 0) return "";
  return ` (not checked: ${unchecked.linked} known files linked again and taken as unchanged, ${unchecked.unlinked} not linked by any page read)`;
}
