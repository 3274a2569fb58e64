"use client";

import Link from "next/link";
import { useHarvestQuery } from "./use-harvest-queries";

/** In the cockpit of a harvest run: its harvest, and the previous and next runs. */
export function HarvestRunLinks({ crawlId, harvestId }: { crawlId: number; harvestId: number }) {
  const harvest = useHarvestQuery(harvestId).data;
  if (!harvest) return null;
  const runs = [...harvest.runs].sort((a, b) => a.id - b.id);
  const index = runs.findIndex((run) => run.id === crawlId);
  const previous = index > 0 ? runs[index - 1] : undefined;
  const next = index >= 0 ? runs[index + 1] : undefined;
  return (
    <nav className="harvest-run-links notice notice-small" aria-label="Runs of this harvest" data-testid="harvest-run-links">
      Run {index + 1} of {runs.length} of harvest <Link href={`/harvests/${harvest.id}`}>{harvest.name}</Link>
      {previous ? (
        <>
          {" · "}
          <Link href={`/crawls/${previous.id}`} rel="prev">
            ← previous run (#{previous.id})
          </Link>
        </>
      ) : null}
      {next ? (
        <>
          {" · "}
          <Link href={`/crawls/${next.id}`} rel="next">
            next run (#{next.id}) →
          </Link>
        </>
      ) : null}
    </nav>
  );
}
