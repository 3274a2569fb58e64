"use client";

import Link from "next/link";
import { useState } from "react";
import { compareHref } from "@/components/hooks/use-compare-queries";
import { siteKey } from "@/lib/crawler/url-rules";
import "@/components/compare/compare.css";
import { DateTime } from "@/components/ui/DateTime";
import { StatusBadge } from "@/components/ui/StatusBadge";
import { stripScheme } from "@/components/ui/format";
import { STRATEGY_LABELS, type Strategy } from "@/lib/crawl-config";
import { formatBytes, formatDuration, formatHarvestRate, formatInteger } from "@/lib/format";
import type { CrawlListItem } from "@/lib/store/queries/list-crawls";
import { crawlDisplayName } from "@/components/ui/crawl-name";
import { BreakableUrl } from "@/components/ui/BreakableUrl";

function strategyName(strategy: string): string {
  const label = STRATEGY_LABELS[strategy as Strategy] as string | undefined;
  return label ? (label.split(" (")[0] ?? label) : strategy;
}

/** "127.0.0.1:4000" or "example.org": a crawl's site as siteKey() defines it (host without `www.`, port for local hosts). */
function siteOf(rootUrl: string): string {
  try {
    const key = siteKey(rootUrl);
    return key.port === null ? key.host : `${key.host}:${key.port}`;
  } catch {
    return rootUrl;
  }
}

/** Crawls ticked for the Compare view, kept in the list's order; all must be of one site. */
function CompareSelection({ selected, onClear }: { selected: CrawlListItem[]; onClear: () => void }) {
  const sites = [...new Set(selected.map((crawl) => siteOf(crawl.rootUrl)))];
  let body;
  if (selected.length === 0) body = <span className="hint">Tick crawls of one site to compare their curves.</span>;
  else if (sites.length > 1) {
    body = (
      <span role="alert" className="field-error" data-testid="compare-mixed-sites">
        Crawls of different sites cannot be compared ({sites.join(", ")}).
      </span>
    );
  } else if (selected.length === 1) body = <span className="hint">Tick at least one more crawl of {sites[0]}.</span>;
  else {
    body = (
      <Link className="button button-primary button-small" href={compareHref(selected.map((crawl) => crawl.id))} data-testid="compare-selected">
        Compare {selected.length} crawls
      </Link>
    );
  }
  return (
    <div className="compare-selection" aria-live="polite">
      {body}
      {selected.length > 0 ? (
        <button type="button" className="link-button" onClick={onClear}>
          Clear selection
        </button>
      ) : null}
    </div>
  );
}

/** The crawl list; below 700 px each row becomes a card (labels from `data-label`). */
export function CrawlsTable({ crawls }: { crawls: CrawlListItem[] }) {
  const [selectedIds, setSelectedIds] = useState<number[]>([]);
  const selected = crawls.filter((crawl) => selectedIds.includes(crawl.id));
  const toggle = (id: number, on: boolean) => setSelectedIds((ids) => (on ? [...ids, id] : ids.filter((other) => other !== id)));
  return (
    <>
    <CompareSelection selected={selected} onClear={() => setSelectedIds([])} />
    <div className="table-scroll">
      <table className="data-table crawls-table responsive-table" aria-label="Crawls">
        <thead>
          <tr>
            <th scope="col" className="select-cell">
              <span className="visually-hidden">Compare</span>
            </th>
            <th scope="col">Root URL</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">Targets</th>
            <th scope="col" className="num">Requests</th>
            <th scope="col" className="num">Harvest rate</th>
            <th scope="col" className="num">Data</th>
            <th scope="col">Started</th>
            <th scope="col" className="num">Duration</th>
          </tr>
        </thead>
        <tbody>
          {crawls.map((crawl) => (
            <tr key={crawl.id} className={selectedIds.includes(crawl.id) ? "row-selected" : undefined}>
              <td className="select-cell cell-nolabel" data-label="Compare">
                <input
                  type="checkbox"
                  checked={selectedIds.includes(crawl.id)}
                  disabled={crawl.status === "cancelled"}
                  onChange={(event) => toggle(crawl.id, event.target.checked)}
                  aria-label={`Compare crawl #${crawl.id} (${stripScheme(crawl.rootUrl)})`}
                  title={crawl.status === "cancelled" ? "A cancelled crawl discarded its data" : undefined}
                />
              </td>
              <td className="url-cell crawl-cell cell-wide cell-nolabel" data-label="Crawl">
                <Link href={`/crawls/${crawl.id}`} className="row-link">
                  {crawl.name ? <span className="crawl-name">{crawlDisplayName(crawl.name)}</span> : null}
                  <span className={crawl.name ? "crawl-url" : "crawl-name"}>
                    <BreakableUrl text={stripScheme(crawl.rootUrl)} />
                  </span>
                </Link>
                <span className="crawl-meta">
                  #{crawl.id} · {strategyName(crawl.strategy)}
                  {crawl.createdBy ? ` · by ${crawl.createdBy}` : ""}
                  {crawl.harvestId !== null ? (
                    <>
                      {" · "}
                      <Link href={`/harvests/${crawl.harvestId}`}>harvest #{crawl.harvestId}</Link>
                    </>
                  ) : null}
                </span>
              </td>
              <td data-label="Status" className="cell-wide cell-nolabel">
                <StatusBadge status={crawl.status} stopReason={crawl.stopReason} stopDetail={crawl.stopDetail} />
              </td>
              <td className="num" data-label="Targets">{formatInteger(crawl.targets)}</td>
              <td className="num" data-label="Requests">{formatInteger(crawl.requests)}</td>
              <td className="num" data-label="Harvest rate">{formatHarvestRate(crawl.targets, crawl.requests)}</td>
              <td className="num" data-label="Data">{formatBytes(crawl.targetBytes)}</td>
              <td data-label="Started">{crawl.startedAt ? <DateTime iso={crawl.startedAt} relative /> : "–"}</td>
              <td className="num" data-label="Duration">{crawl.startedAt ? formatDuration(crawl.activeMs) : "–"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
    </>
  );
}
