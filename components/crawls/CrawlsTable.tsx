import { describeStatus } from "@/lib/crawl-status";
import { formatBytes, formatDuration, formatHarvestRate, formatInteger } from "@/lib/format";
import type { CrawlListItem } from "@/lib/store/queries/list-crawls";

export function CrawlsTable({ crawls }: { crawls: CrawlListItem[] }) {
  if (crawls.length === 0) {
    return (
      <p className="empty" data-testid="crawls-empty">
        No crawls yet. A crawl starts from a root URL and collects every file whose type you ask for.
      </p>
    );
  }
  return (
    <div className="table-scroll">
      <table className="data-table" aria-label="Crawls">
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
              <td className="url-cell" title={crawl.rootUrl}>
                {crawl.name ? <span className="crawl-name">{crawl.name}</span> : null}
                {crawl.rootUrl}
              </td>
              <td>
                <span className={`status status-${crawl.status}`}>
                  {describeStatus(crawl.status, crawl.stopReason, crawl.stopDetail)}
                </span>
              </td>
              <td className="num">{formatInteger(crawl.targets)}</td>
              <td className="num">{formatInteger(crawl.requests)}</td>
              <td className="num">{formatHarvestRate(crawl.targets, crawl.requests)}</td>
              <td className="num">{formatBytes(crawl.targetBytes)}</td>
              <td>{crawl.startedAt ? new Date(crawl.startedAt).toLocaleString("en-GB") : "–"}</td>
              <td className="num">{crawl.startedAt ? formatDuration(crawl.activeMs) : "–"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
