import type { CrawlEngineParts } from "./engine-parts";
import type { RequestOutcome } from "./request-runner";
import type { ApplicationFile } from "./site-applications";
import type { FrontierLink } from "./types";

/**
 * Records a stored target — the crawl's count, the re-crawl's file list, the byte budget, the
 * sink's row — and returns false when its body could not be kept.
 */
export function recordTarget(
  parts: Pick<CrawlEngineParts, "counters" | "recrawl" | "budget" | "sink">,
  outcome: RequestOutcome,
  url: string,
  link: FrontierLink,
  sourceUrl: string | null = link.referrer,
  record: ApplicationFile["record"] | null = null,
): boolean {
  if (!outcome.stored) return false;
  parts.counters.targets += 1;
  parts.recrawl?.storedFile(url, outcome.stored.sha256);
  parts.budget.noteStored(outcome.stored.bytes);
  parts.sink.target({
    url,
    mime: outcome.result.mime,
    bytes: outcome.stored.bytes,
    sha256: outcome.stored.sha256,
    storagePath: outcome.stored.storagePath,
    sourceUrl,
    tagPath: link.tagPath || null,
    groupId: link.groupId,
    requestSeq: outcome.seq,
    fetchedAt: new Date(),
    record,
    detectedMime: outcome.content?.detectedMime ?? null,
    typeMatch: outcome.content?.typeMatch ?? null,
  });
  return true;
}
