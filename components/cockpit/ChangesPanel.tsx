"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/hooks/api-fetch";
import type { CrawlDetail } from "@/components/hooks/api-types";
import { useCrawlChangesQuery } from "@/components/hooks/use-crawl-changes-query";
import type { FileChange } from "@/lib/store/recrawl-store";
import { formatInteger } from "@/lib/format";
import type { VersionComparison } from "@/lib/preview/version-comparison";

const KINDS: { change: FileChange; label: string }[] = [
  { change: "new", label: "New" },
  { change: "changed", label: "Changed" },
  { change: "unchanged", label: "Unchanged" },
  { change: "gone", label: "Gone" },
];

/** A changed file's differences between its two stored versions (size, rows, sheets), fetched when asked. */
function VersionDifferences({ crawlId, url }: { crawlId: number; url: string }) {
  const [asked, setAsked] = useState(false);
  const comparison = useQuery({
    queryKey: ["crawls", crawlId, "changes", "compare", url],
    queryFn: () => apiFetch<VersionComparison>(`/api/crawls/${crawlId}/changes/compare?url=${encodeURIComponent(url)}`),
    enabled: asked,
    retry: false,
    staleTime: Infinity,
  });
  if (!asked) {
    return (
      <button type="button" className="button button-small" onClick={() => setAsked(true)}>
        Compare
      </button>
    );
  }
  if (comparison.error) return <span role="alert">{comparison.error.message}</span>;
  if (!comparison.data) return <span className="panel-loading">Comparing…</span>;
  if (comparison.data.differences.length === 0) return <span>{comparison.data.before ? "The new version is not stored." : "The previous version is not stored."}</span>;
  return (
    <ul className="change-differences" data-testid="version-differences">
      {comparison.data.differences.map((difference) => (
        <li key={difference}>{difference}</li>
      ))}
    </ul>
  );
}

/** Files shown per page: a few screens at most, so the panels below stay close. */
const PAGE_SIZE = 25;

/**
 * "What changed": a finished re-crawl's files as new / changed / unchanged / gone since the crawl
 * it followed (`after`), a page at a time. A first crawl has nothing to compare with: one line says so.
 */
export function ChangesPanel({ crawl }: { crawl: CrawlDetail }) {
  const [change, setChange] = useState<FileChange>("new");
  const [offset, setOffset] = useState(0);
  const counts = crawl.changes;
  const after = crawl.config.after;
  const files = useCrawlChangesQuery(crawl.id, change, counts !== null && after !== null, { offset, limit: PAGE_SIZE });
  if (!counts) return null;
  if (after === null) {
    return (
      <section className="panel" id="changes" aria-labelledby="changes-title" data-testid="changes-first-run">
        <h2 id="changes-title">What changed</h2>
        <p className="panel-hint">
          First run: nothing to compare. Its {formatInteger(counts.new)} {counts.new === 1 ? "file is" : "files are"} what a re-crawl after it will compare with (Repeat this crawl, below).
        </p>
      </section>
    );
  }
  // The pager follows the rows shown: none while a page loads or when it failed.
  const total = files.data?.total ?? 0;
  const pick = (kind: FileChange) => {
    setChange(kind);
    setOffset(0);
  };
  return (
    <section className="panel" id="changes" aria-labelledby="changes-title" data-testid="changes-panel">
      <div className="panel-head">
        <div>
          <h2 id="changes-title">What changed</h2>
          <p className="panel-hint">
            {`Since crawl #${after}` +
              (crawl.config.checkKnownFiles ? ", known files checked with conditional requests." : ": known files were not downloaded again, nor checked (unchanged means linked again).")}
          </p>
          {files.data?.unchecked ? <UncheckedNote unchecked={files.data.unchecked} /> : null}
        </div>
        {counts.new + counts.changed > 0 ? (
          <a className="button button-small" href={`/api/crawls/${crawl.id}/export.zip?changes=new,changed`} download data-testid="download-new-changed">
            Download new and changed files (ZIP)
          </a>
        ) : null}
      </div>
      <div role="tablist" aria-label="Kind of change" className="change-kinds">
        {KINDS.map((kind) => (
          <button key={kind.change} type="button" role="tab" aria-selected={change === kind.change} className={change === kind.change ? "button button-primary" : "button"} onClick={() => pick(kind.change)}>
            {kind.label} <strong data-testid={`changes-${kind.change}`}>{formatInteger(counts[kind.change])}</strong>
          </button>
        ))}
      </div>
      {files.error ? (
        <p role="alert" className="error-box">
          {files.error.message}
        </p>
      ) : files.data ? (
        files.data.files.length === 0 ? (
          <p className="empty">No {change} files.</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th>URL</th>
                <th>SHA-256</th>
                <th>First seen</th>
                <th>Versions</th>
                {change === "changed" ? <th>What changed</th> : null}
              </tr>
            </thead>
            <tbody>
              {files.data.files.map((file) => (
                <tr key={file.url}>
                  <td className="url-cell">{file.url}</td>
                  <td>
                    <code>{file.sha256.slice(0, 12)}</code>
                  </td>
                  <td>#{file.firstSeenCrawlId}</td>
                  <td>{file.versions.length}</td>
                  {change === "changed" ? (
                    <td>
                      <VersionDifferences crawlId={crawl.id} url={file.url} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : (
        <p className="panel-loading">Loading…</p>
      )}
      {total > PAGE_SIZE ? (
        <nav className="pager" aria-label={`Pages of ${change} files`}>
          <button type="button" className="button button-small" onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))} disabled={offset === 0 || files.isFetching}>
            ← Previous
          </button>
          <span className="pager-page" aria-live="polite" data-testid="changes-page">
            {formatInteger(offset + 1)}–{formatInteger(Math.min(total, offset + PAGE_SIZE))} of {formatInteger(total)}
          </span>
          <button type="button" className="button button-small" onClick={() => setOffset(offset + PAGE_SIZE)} disabled={offset + PAGE_SIZE >= total || files.isFetching}>
            Next →
          </button>
        </nav>
      ) : null}
    </section>
  );
}

/** What a re-crawl without "Check known files" did not verify: known files linked again (counted unchanged) and those no page linked. */
function UncheckedNote({ unchecked }: { unchecked: { linked: number; unlinked: number } }) {
  if (unchecked.linked + unchecked.unlinked === 0) return null;
  const files = (n: number) => `${formatInteger(n)} known ${n === 1 ? "file" : "files"}`;
  return (
    <p className="panel-hint" data-testid="changes-unchecked">
      Not verified: {files(unchecked.linked)} linked again (counted unchanged) and {files(unchecked.unlinked)} no page of this run linked. Repeat with
      “Check known files” to verify them.
    </p>
  );
}
