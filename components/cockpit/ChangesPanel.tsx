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

/** "What changed": a finished crawl's files as new / changed / unchanged / gone since the crawl it followed (`after`). */
export function ChangesPanel({ crawl }: { crawl: CrawlDetail }) {
  const [change, setChange] = useState<FileChange>("new");
  const counts = crawl.changes;
  const files = useCrawlChangesQuery(crawl.id, change, counts !== null);
  if (!counts) return null;
  const after = crawl.config.after;
  return (
    <section className="panel" id="changes" aria-labelledby="changes-title" data-testid="changes-panel">
      <div className="panel-head">
        <div>
          <h2 id="changes-title">What changed</h2>
          <p className="panel-hint">
            {after === null
              ? "A first crawl: every file is new. Re-crawl the site after this crawl to see what changes."
              : `Since crawl #${after}` +
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
          <button key={kind.change} type="button" role="tab" aria-selected={change === kind.change} className={change === kind.change ? "button button-primary" : "button"} onClick={() => setChange(kind.change)}>
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
      {files.data && files.data.total > files.data.files.length ? (
        <p className="panel-hint">
          The first {files.data.files.length} of {formatInteger(files.data.total)}; all of them: <a href={`/api/crawls/${crawl.id}/changes?change=${change}&limit=1000`}>JSON</a>.
        </p>
      ) : null}
    </section>
  );
}
