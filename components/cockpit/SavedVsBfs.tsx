"use client";

import Link from "next/link";
import { compareHref, useCrawlReplaysQuery, useSavedVsBfsQuery, type SavedVsBfs as Saved } from "@/components/hooks/use-compare-queries";
import { formatInteger } from "@/lib/format";

/** The sentence for a crawl compared with a breadth-first run of its site. */
export function savedVsBfsText(saved: Saved): string {
  const bfs = `BFS (crawl #${saved.bfsCrawlId})`;
  const goal = `90 % of the targets (${formatInteger(saved.targets90)})`;
  if (saved.requestsTo90 === null && saved.bfsRequestsTo90 === null) return `Neither this crawl nor ${bfs} reached ${goal}.`;
  if (saved.requestsTo90 === null) return `This crawl did not reach ${goal}; ${bfs} did after ${formatInteger(saved.bfsRequestsTo90!)} requests.`;
  if (saved.bfsRequestsTo90 === null) return `This crawl reached ${goal} after ${formatInteger(saved.requestsTo90)} requests; ${bfs} never did.`;
  const counts = `(${formatInteger(saved.requestsTo90)} vs ${formatInteger(saved.bfsRequestsTo90)})`;
  const saving = saved.savedRequests!;
  if (saving > 0) return `${formatInteger(saving)} fewer requests than ${bfs} to reach ${goal} ${counts}.`;
  if (saving < 0) return `${formatInteger(-saving)} more requests than ${bfs} to reach ${goal} ${counts}.`;
  return `As many requests as ${bfs} to reach ${goal} ${counts}.`;
}

/** "Saved vs breadth-first: …", one line under the headline numbers when the site has a finished BFS run. */
export function SavedVsBfs({ crawlId, strategy, over }: { crawlId: number; strategy: string; over: boolean }) {
  const family = useCrawlReplaysQuery(crawlId);
  const ended = family.data?.replays.filter((replay) => replay.status === "finished").length ?? 0;
  const query = useSavedVsBfsQuery(crawlId, over && strategy !== "bfs", ended);
  const saved = query.data;
  if (!saved) return null;
  return (
    <p className="notice saved-vs-bfs" data-testid="saved-vs-bfs">
      <strong>Saved vs breadth-first:</strong> {savedVsBfsText(saved)}{" "}
      <Link href={compareHref([crawlId, saved.bfsCrawlId])}>Compare</Link>
    </p>
  );
}
