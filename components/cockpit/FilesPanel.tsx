"use client";

import { useState } from "react";
import type { CrawlDetail } from "@/components/hooks/api-types";
import { useCrawlTargetsQuery, useTargetsByMimeQuery } from "@/components/hooks/use-crawl-targets-query";
import { Pager, useCursorPager } from "@/components/ui/Pager";
import { mimeLabel } from "@/components/ui/mime";
import type { TargetFile } from "@/components/hooks/api-types";
import { fileNameOf } from "@/components/ui/format";
import { formatInteger } from "@/lib/format";
import { DownloadsPanel } from "./DownloadsPanel";
import { FilePreview } from "./FilePreview";
import { MimeBreakdown } from "./MimeBreakdown";
import { PanelError, PanelLoading } from "./QueryState";
import { TargetsTable } from "./TargetsTable";

/** Targets: the downloads, the breakdown by type and the file list (paged, filterable by type). */
export function FilesPanel({ crawl, live }: { crawl: CrawlDetail; live: boolean }) {
  const [mime, setMime] = useState<string | null>(null);
  const [mismatched, setMismatched] = useState(false);
  const [previewed, setPreviewed] = useState<TargetFile | null>(null);
  const pager = useCursorPager();
  const byMime = useTargetsByMimeQuery(crawl.id, live);
  const targets = useCrawlTargetsQuery(crawl.id, { mime, cursor: pager.cursor, live, mismatched });
  const selectMime = (next: string | null) => {
    setMime(next);
    pager.reset();
  };
  const showMismatched = (next: boolean) => {
    setMismatched(next);
    pager.reset();
  };
  const mismatches = targets.data?.mismatches ?? 0;
  return (
    <section className="panel" id="files" aria-labelledby="files-title">
      <div className="panel-head">
        <h2 id="files-title">Targets</h2>
      </div>
      <div className="files-top">
        <DownloadsPanel
          crawlId={crawl.id}
          targets={crawl.counters.targets}
          targetBytes={crawl.counters.targetBytes}
          cancelled={crawl.status === "cancelled"}
          webArchive={crawl.config.archive.keepWarc}
        />
        <div>
          {byMime.error ? <PanelError label="the MIME types" error={byMime.error} /> : null}
          {byMime.data ? <MimeBreakdown mimeTypes={byMime.data} selected={mime} onSelect={selectMime} /> : null}
        </div>
      </div>
      <div className="table-toolbar">
        <h3 id="target-files-title">
          {mismatched ? "Files whose bytes show another type" : mime ? `Files of type ${mime}` : "Files, in the order they were collected"}
        </h3>
        {mime ? (
          <button type="button" className="button button-small" onClick={() => selectMime(null)}>
            Show all types
          </button>
        ) : null}
        {mismatches > 0 || mismatched ? (
          <button type="button" className="button button-small" aria-pressed={mismatched} onClick={() => showMismatched(!mismatched)} data-testid="type-mismatches">
            {mismatched ? "Show every file" : `Type mismatches: ${formatInteger(mismatches)}`}
          </button>
        ) : null}
      </div>
      {mime ? <p className="visually-hidden">Showing {mimeLabel(mime)} files only.</p> : null}
      {targets.error ? <PanelError label="the files" error={targets.error} /> : null}
      {targets.isPending ? <PanelLoading label="the files" /> : null}
      {targets.data && targets.data.items.length === 0 ? <p className="empty">No target file yet.</p> : null}
      {targets.data && targets.data.items.length > 0 ? <TargetsTable targets={targets.data.items} rootUrl={crawl.rootUrl} onPreview={setPreviewed} /> : null}
      {previewed ? <FilePreview key={previewed.id} crawlId={crawl.id} targetId={previewed.id} name={fileNameOf(previewed.url)} onClose={() => setPreviewed(null)} /> : null}
      <Pager
        label="Target files pages"
        pageNumber={pager.pageNumber}
        nextCursor={targets.data?.nextCursor ?? null}
        onNext={pager.next}
        onPrevious={pager.previous}
        busy={targets.isFetching}
        previousLabel="← Previous"
        nextLabel="Next →"
      />
    </section>
  );
}
