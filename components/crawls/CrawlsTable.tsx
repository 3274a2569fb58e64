import Link from "next/link";
import { DateTime } from "@/components/ui/DateTime";
import { StatusBadge } from "@/components/ui/StatusBadge";
import { stripScheme } from "@/components/ui/format";
import { STRATEGY_LABELS, type Strategy } from "@/lib/crawl-config";
import { formatBytes, formatDuration, formatHarvestRate, formatInteger } from "@/lib/format";
import type { CrawlListItem } from "@/lib/store/queries/list-crawls";

function strategyName(strategy: string): string {
  const label = STRATEGY_LABELS[strategy as Strategy] as string | undefined;
  return label ? (label.split(" (")[0] ?? label) : strategy;
}

/** The crawl list; below 700 px each row becomes a card (labels from `data-label`). */
export function CrawlsTable({ crawls }: { crawls: CrawlListItem[] }) {
  return (
    <div className="table-scroll">
      <table className="data-table crawls-table responsive-table" aria-label="Crawls">
        <thead>
          <tr>
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
            <tr key={crawl.id}>
              <td className="url-cell cell-wide cell-nolabel" data-label="Crawl">
                <Link href={`/crawls/${crawl.id}`} className="row-link">
                  {crawl.name ? <span className="crawl-name">{crawl.name}</span> : null}
                  <span className={crawl.name ? "crawl-url" : "crawl-name"}>{stripScheme(crawl.rootUrl)}</span>
                </Link>
                <span className="crawl-meta">
                  #{crawl.id} · {strategyName(crawl.strategy)}
                  {crawl.createdBy ? ` · by ${crawl.createdBy}` : ""}
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
  );
}
