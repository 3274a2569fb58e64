"use client";

import { useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useEffect, useRef } from "react";
import { ApiError } from "@/components/hooks/api-fetch";
import { useCrawlMetricsQuery } from "@/components/hooks/use-crawl-metrics-query";
import { useCrawlQuery } from "@/components/hooks/use-crawl-query";
import type { RawCrawlDetail } from "@/components/hooks/normalize-crawl";
import { crawlKeys } from "@/components/hooks/use-crawls-query";
import { isActiveStatus } from "@/lib/crawl-status";
import { RepeatCrawlPanel } from "@/components/harvests/RepeatCrawlPanel";
import { ApplicationNotes } from "./ApplicationNotes";
import { ChangesPanel } from "./ChangesPanel";
import { CockpitHeader } from "./CockpitHeader";
import { CurvesPanel } from "./CurvesPanel";
import { EarlyStopPanel } from "./EarlyStopPanel";
import { FilesPanel } from "./FilesPanel";
import { GroupsPanel } from "./GroupsPanel";
import { HeadlineStats, isRecrawl } from "./HeadlineStats";
import { ReplayPanel } from "./ReplayPanel";
import { RequestsPanel } from "./RequestsPanel";
import { SavedVsBfs } from "./SavedVsBfs";
import { type CockpitSection, SectionNav } from "./SectionNav";
import { SettingsPanel } from "./SettingsPanel";

const SECTIONS: readonly CockpitSection[] = [
  { id: "overview", label: "Overview" },
  { id: "application", label: "Application", optional: true },
  { id: "changes", label: "What changed", optional: true },
  { id: "repeat", label: "Repeat", optional: true },
  { id: "replays", label: "Replay", optional: true },
  { id: "groups", label: "Tag-path groups" },
  { id: "early-stopping", label: "Early stopping" },
  { id: "files", label: "Targets" },
  { id: "requests", label: "Requests" },
  { id: "settings", label: "Settings" },
];

/**
 * The cockpit of one crawl: live (every panel polls each second) while the crawl is queued,
 * running or paused; static once it is over, after one last refresh of everything.
 */
export function CockpitPage({ id, initialCrawl }: { id: number; initialCrawl?: RawCrawlDetail }) {
  const client = useQueryClient();
  const crawlQuery = useCrawlQuery(id, { initialData: initialCrawl });
  const crawl = crawlQuery.data;
  const live = crawl ? isActiveStatus(crawl.status) : false;
  const metrics = useCrawlMetricsQuery(id, live);

  const wasLive = useRef(live);
  useEffect(() => {
    if (wasLive.current && !live) void client.invalidateQueries({ queryKey: crawlKeys.detail(id) });
    wasLive.current = live;
  }, [client, id, live]);

  if (crawlQuery.isPending) {
    return (
      <p className="panel-loading" role="status">
        Loading crawl #{id}…
      </p>
    );
  }
  if (!crawl) {
    const gone = crawlQuery.error instanceof ApiError && crawlQuery.error.status === 404;
    return (
      <div className="narrow-page">
        <h1>{gone ? "This crawl no longer exists" : `Crawl #${id} could not be loaded`}</h1>
        <p role="alert" className="error-box">
          {crawlQuery.error?.message}
        </p>
        <p>
          <Link href="/">Back to the crawls</Link>
        </p>
      </div>
    );
  }

  return (
    <div className="cockpit" id="cockpit">
      <CockpitHeader crawl={crawl} />
      <SectionNav sections={SECTIONS} containerId="cockpit" />
      <div id="overview" className="overview">
        <h2 className="visually-hidden">Overview</h2>
        <HeadlineStats crawl={crawl} points={metrics.data ?? []} />
        {/* Saved-vs-BFS measures finding the site's files from scratch: nothing a re-crawl does. */}
        {isRecrawl(crawl) ? null : <SavedVsBfs crawlId={id} strategy={crawl.strategy} over={!live} />}
        <CurvesPanel points={metrics.data ?? []} error={metrics.error} />
      </div>
      <ApplicationNotes crawl={crawl} />
      <ChangesPanel crawl={crawl} />
      <RepeatCrawlPanel crawl={crawl} />
      <ReplayPanel crawl={crawl} />
      <GroupsPanel crawlId={id} live={live} strategy={crawl.strategy} actionNames={crawl.applications?.actionNames ?? {}} />
      <EarlyStopPanel crawlId={id} live={live} stopReason={crawl.stopReason} />
      <FilesPanel crawl={crawl} live={live} />
      <RequestsPanel crawl={crawl} live={live} />
      <SettingsPanel crawl={crawl} />
    </div>
  );
}
