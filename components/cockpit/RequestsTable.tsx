import { REQUEST_OUTCOMES, type RequestOutcome, type RequestRow } from "@/components/hooks/api-types";
import { sitePath } from "@/components/ui/format";
import { mimeLabel } from "@/components/ui/mime";
import { formatBytes, formatInteger } from "@/lib/format";
import { targetNote } from "./target-note";

const KIND_LABELS: Record<string, string> = {
  page: "page",
  target: "target",
  "bootstrap-head": "HEAD",
  "redirect-hop": "redirect",
  robots: "robots.txt",
  sitemap: "sitemap",
  api: "API",
  render: "browser",
};

/** What each kind of request is, shown as the kind badge's tooltip. */
const KIND_HELP: Record<string, string> = {
  page: "A page read for its links",
  target: "A download: its link was typed as a file of a wanted type (by a HEAD request or the classifier)",
  "bootstrap-head": "A HEAD request that learns a link's type without downloading it",
  "redirect-hop": "A hop of a redirect chain",
  robots: "The site's robots.txt",
  sitemap: "A sitemap listing the site's pages",
  api: "A page of the site application's own listing of its files (its API or catalog)",
  render: "A request of the browser rendering a script-built page (its scripts, the JSON they read), made under the crawl's rules",
};

export function RequestsTable({ requests, rootUrl }: { requests: RequestRow[]; rootUrl: string }) {
  return (
    <div className="table-scroll">
      <table className="data-table responsive-table requests-table" aria-label="Requests">
        <thead>
          <tr>
            <th scope="col" className="num">#</th>
            <th scope="col">URL</th>
            <th scope="col" className="num">Status</th>
            <th scope="col">Type</th>
            <th scope="col" className="num">Size</th>
            <th scope="col" className="num">Group</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((request) => {
            const outcome = REQUEST_OUTCOMES[request.outcome as RequestOutcome] ?? request.outcome;
            return (
              <tr key={request.id} className={request.isTarget ? "row-target" : undefined}>
                <td className="num" data-label="#">{request.seq > 0 ? formatInteger(request.seq) : "–"}</td>
                <td data-label="URL" className="truncate-cell cell-wide cell-first request-url">
                  <span className="truncate" title={request.url}>
                    <span className={`kind kind-${request.kind}`} title={KIND_HELP[request.kind]}>
                      {request.method === "HEAD" && request.kind !== "bootstrap-head" ? "HEAD " : ""}
                      {KIND_LABELS[request.kind] ?? request.kind}
                    </span>{" "}
                    {sitePath(request.url, rootUrl)}
                  </span>
                  {request.redirectTo ? (
                    <span className="cell-sub truncate" title={request.redirectTo}>
                      → {sitePath(request.redirectTo, rootUrl)}
                    </span>
                  ) : null}
                  {request.error ? <span className="cell-sub cell-error">{request.error}</span> : null}
                  {targetNote(request) ? (
                    <span className="cell-sub" data-testid="target-note">
                      {targetNote(request)}
                    </span>
                  ) : null}
                </td>
                <td className="num" data-label="Status">{request.status ?? "–"}</td>
                <td data-label="Type" className="nowrap" title={request.mime ?? undefined}>
                  {request.mime ? mimeLabel(request.mime) : "–"}
                </td>
                <td className="num" data-label="Size">{formatBytes(request.bytes)}</td>
                <td className="num" data-label="Group">{request.groupId === null ? "–" : `#${request.groupId}`}</td>
                <td data-label="Outcome">
                  <span className={`outcome outcome-${request.outcome}`}>{request.isTarget && request.outcome === "ok" ? "Target" : outcome}</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
