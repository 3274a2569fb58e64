"use client";

import { useState } from "react";
import type { CrawlDetail } from "@/components/hooks/api-types";
import { useCrawlChangesQuery } from "@/components/hooks/use-crawl-changes-query";
import type { FileChange } from "@/lib/store/recrawl-store";
import { formatInteger } from "@/lib/format";

const KINDS: { change: FileChange; label: string }[] = [
  { change: "new", label: "New" },
  { change: "changed", label: "Changed" },
  { change: "unchanged", label: "Unchanged" },
  { change: "gone", label: "Gone" },
];

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
