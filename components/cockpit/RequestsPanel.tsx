"use client";

import { useState } from "react";
import type { CrawlDetail } from "@/components/hooks/api-types";
import { useCrawlRequestsQuery } from "@/components/hooks/use-crawl-requests-query";
import { Pager, useCursorPager } from "@/components/ui/Pager";
import { formatInteger } from "@/lib/format";
import { PanelError, PanelLoading } from "./QueryState";
import { RequestsTable } from "./RequestsTable";

/** The request log, newest first: everything, or only what went wrong. */
export function RequestsPanel({ crawl, live }: { crawl: CrawlDetail; live: boolean }) {
  const [outcome, setOutcome] = useState<string | null>(null);
  const pager = useCursorPager();
  const query = useCrawlRequestsQuery(crawl.id, { outcome, cursor: pager.cursor, live });
  const filters: { value: string | null; label: string; count?: number }[] = [
    { value: null, label: "All", count: crawl.counters.requests },
    { value: "error", label: "Errors", count: crawl.counters.errors },
    { value: "robots-disallowed", label: "Robots skips", count: crawl.counters.robotsSkips },
    { value: "blocked-mime", label: "Blocked MIME types" },
    { value: "too-large", label: "Too large" },
    { value: "redirect", label: "Redirects" },
  ];
  const choose = (value: string | null) => {
    setOutcome(value);
    pager.reset();
  };
  return (
    <section className="panel" id="requests" aria-labelledby="requests-title">
      <div className="panel-head">
        <div>
          <h2 id="requests-title">Requests</h2>
          <p className="panel-hint">The latest requests first. Robots skips are never sent and do not count against the budget.</p>
        </div>
      </div>
      <div className="filter-row" role="group" aria-label="Filter requests by outcome">
        {filters.map((filter) => (
          <button
            key={filter.label}
            type="button"
            className="filter-button"
            aria-pressed={outcome === filter.value}
            onClick={() => choose(filter.value)}
          >
            {filter.label}
            {filter.count !== undefined ? <span className="filter-count">{formatInteger(filter.count)}</span> : null}
          </button>
        ))}
      </div>
      {query.error ? <PanelError label="the requests" error={query.error} /> : null}
      {query.isPending ? <PanelLoading label="the requests" /> : null}
      {query.data && query.data.items.length === 0 ? <p className="empty">No request {outcome ? "with this outcome" : "yet"}.</p> : null}
      {query.data && query.data.items.length > 0 ? <RequestsTable requests={query.data.items} rootUrl={crawl.rootUrl} /> : null}
      <Pager label="Requests pages" pageNumber={pager.pageNumber} nextCursor={query.data?.nextCursor ?? null} onNext={pager.next} onPrevious={pager.previous} busy={query.isFetching} />
    </section>
  );
}
