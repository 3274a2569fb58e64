"use client";

import Link from "next/link";
import type { CrawlDetail } from "@/components/hooks/api-types";
import { DateTime } from "@/components/ui/DateTime";
import { StatusBadge } from "@/components/ui/StatusBadge";
import { hostOf } from "@/components/ui/format";
import { STRATEGY_LABELS, type Strategy } from "@/lib/crawl-config";
import { useIsClient } from "@/components/ui/use-is-client";
import { HarvestRunLinks } from "@/components/harvests/HarvestRunLinks";
import { CrawlControls } from "./CrawlControls";
import { crawlDisplayName } from "@/components/ui/crawl-name";

const QUEUED_HINT_AFTER_MS = 10_000;

export function CockpitHeader({ crawl }: { crawl: CrawlDetail }) {
  const strategy = STRATEGY_LABELS[crawl.strategy as Strategy] ?? crawl.strategy;
  const isClient = useIsClient();
  // Read the clock only in the browser: the server's render must match the first client render.
  const queuedLong = isClient && crawl.status === "queued" && Date.now() - new Date(crawl.createdAt).getTime() > QUEUED_HINT_AFTER_MS;
  return (
    <header className="cockpit-header">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <Link href="/">Crawls</Link> <span aria-hidden="true">/</span> <span aria-current="page">Crawl #{crawl.id}</span>
      </nav>
      <div className="cockpit-title-row">
        <div className="cockpit-title">
          <h1>{crawl.name ? crawlDisplayName(crawl.name) : hostOf(crawl.rootUrl)}</h1>
          <p className="cockpit-meta">
            <a href={crawl.rootUrl} target="_blank" rel="noreferrer noopener" className="root-url">
              {crawl.rootUrl}
            </a>
            <span aria-hidden="true"> · </span>
            <span>{strategy.split(" (")[0]}</span>
            <span aria-hidden="true"> · </span>
            <span>
              created <DateTime iso={crawl.createdAt} relative />
            </span>
          </p>
          <div className="status-line" aria-live="polite">
            <StatusBadge status={crawl.status} stopReason={crawl.stopReason} stopDetail={crawl.stopDetail} />
            {crawl.status === "running" && crawl.waitingFor ? (
              <span className="waiting" data-testid="waiting-for">
                waiting for {crawl.waitingFor} (rate limited)
              </span>
            ) : null}
            {crawl.status === "finished" && crawl.stopDetail ? <span className="stop-detail">{crawl.stopDetail}</span> : null}
          </div>
          {crawl.harvestId !== null ? <HarvestRunLinks crawlId={crawl.id} harvestId={crawl.harvestId} /> : null}
          {queuedLong ? (
            <p className="notice notice-small">
              No worker has picked this crawl up yet. Crawls run in a worker process, which <code>npm start</code> starts
              next to the dashboard.
            </p>
          ) : null}
        </div>
        <CrawlControls crawl={crawl} />
      </div>
    </header>
  );
}
