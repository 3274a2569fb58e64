"use client";

import Link from "next/link";
import { DateTime } from "@/components/ui/DateTime";
import { StatusBadge } from "@/components/ui/StatusBadge";
import { stripScheme } from "@/components/ui/format";
import { formatInteger } from "@/lib/format";
import { useHarvestsQuery } from "./use-harvest-queries";

/** Shown runs per harvest on the home page; the harvest's page lists them all. */
const RUNS_SHOWN = 5;

/** The home page's harvests: each with its schedule, next run and latest runs. Nothing when there is none. */
export function HarvestsSection() {
  const harvests = useHarvestsQuery().data ?? [];
  if (harvests.length === 0) return null;
  return (
    <section aria-labelledby="harvests-title" data-testid="harvests-section">
      <div className="section-head">
        <h2 id="harvests-title">Harvests</h2>
      </div>
      <ul className="harvest-list">
        {harvests.map((harvest) => (
          <li key={harvest.id} className="panel harvest-item" data-testid={`harvest-${harvest.id}`}>
            <div className="panel-head">
              <div>
                <h3>
                  <Link href={`/harvests/${harvest.id}`}>{harvest.name}</Link>
                </h3>
                <p className="panel-hint">
                  {stripScheme(harvest.rootUrl)} · {harvest.runs.length} {harvest.runs.length === 1 ? "run" : "runs"} ·{" "}
                  {harvest.cron ? (
                    <>
                      <code>{harvest.cron}</code> ({harvest.timeZone})
                      {harvest.paused ? " · paused" : harvest.nextRunAt ? (
                        <>
                          {" · next run "}
                          <DateTime iso={harvest.nextRunAt} relative /> (<DateTime iso={harvest.nextRunAt} timeZone={harvest.timeZone} />)
                        </>
                      ) : null}
                    </>
                  ) : (
                    "run by hand"
                  )}
                </p>
              </div>
            </div>
            <table className="data-table" aria-label={`Runs of ${harvest.name}`}>
              <tbody>
                {harvest.runs.slice(0, RUNS_SHOWN).map((run) => (
                  <tr key={run.id}>
                    <td>
                      <Link href={`/crawls/${run.id}`}>Crawl #{run.id}</Link>
                    </td>
                    <td>
                      <StatusBadge status={run.status} stopReason={run.stopReason} stopDetail={run.stopDetail} />
                    </td>
                    <td className="num">{formatInteger(run.targets)} targets</td>
                    <td className="num">{formatInteger(run.requests)} requests</td>
                    <td>{run.startedAt ? <DateTime iso={run.startedAt} relative /> : "–"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </li>
        ))}
      </ul>
    </section>
  );
}
