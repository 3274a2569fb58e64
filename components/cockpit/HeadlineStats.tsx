"use client";

import type { CrawlDetail, MetricPoint } from "@/components/hooks/api-types";
import { DateTime } from "@/components/ui/DateTime";
import { formatDecimal } from "@/components/ui/format";
import { STOP_REASONS, type StopReason } from "@/lib/crawl-status";
import { formatBytes, formatDuration, formatHarvestRate, formatInteger } from "@/lib/format";
import { currentRequestRate, estimateRemainingMs } from "./eta";

function Stat({ label, value, detail, testId, children }: { label: string; value: React.ReactNode; detail?: string; testId: string; children?: React.ReactNode }) {
  return (
    <div className="stat" data-testid={testId}>
      <dt>{label}</dt>
      <dd>
        <span className="stat-value">{value}</span>
        {detail ? <span className="stat-detail">{detail}</span> : null}
        {children}
      </dd>
    </div>
  );
}

function endedDetail(crawl: CrawlDetail): string {
  if (crawl.status === "cancelled") return "cancelled";
  if (crawl.status === "failed") return "failed";
  return crawl.stopReason ? (STOP_REASONS[crawl.stopReason as StopReason] ?? crawl.stopReason) : "finished";
}

/** A re-crawl (a harvest's later run, or any crawl started `after` another): its headline is what changed. */
export function isRecrawl(crawl: CrawlDetail): boolean {
  return crawl.config.after !== null;
}

/** What the Targets card's second line says: where the targets stand, not how requests split. */
function targetsDetail(crawl: CrawlDetail): string {
  const { targets, targetBytes } = crawl.counters;
  if (targets === 0) return crawl.status === "queued" || crawl.status === "running" ? "files of the wanted types, none yet" : "no file of the wanted types found";
  return `files of the wanted types · ${formatBytes(targetBytes / targets)} each on average`;
}

const CHANGE_CARDS = [
  { change: "new", label: "New", detail: "files not seen by the previous runs" },
  { change: "changed", label: "Changed", detail: "known files with new content" },
  { change: "unchanged", label: "Unchanged", detail: "known files found again" },
  { change: "gone", label: "Gone", detail: "known files no longer there" },
] as const;

/** A re-crawl's four change counts, written when it finishes; "–" until then. */
function ChangeStats({ crawl }: { crawl: CrawlDetail }) {
  const counts = crawl.changes;
  return (
    <>
      {CHANGE_CARDS.map((card) => (
        <Stat
          key={card.change}
          label={card.label}
          value={counts ? formatInteger(counts[card.change]) : "–"}
          detail={counts ? card.detail : "counted when the crawl finishes"}
          testId={`stat-${card.change}`}
        />
      ))}
    </>
  );
}

/** The numbers a journalist checks first: is it finding things, how much is left. */
export function HeadlineStats({ crawl, points }: { crawl: CrawlDetail; points: MetricPoint[] }) {
  const { counters, config } = crawl;
  const budget = config.budget.requests;
  const share = budget > 0 ? Math.min(1, counters.requests / budget) : 0;
  const rate = currentRequestRate(crawl, points);
  const remaining = estimateRemainingMs(crawl, points);
  const done = !["queued", "running", "paused"].includes(crawl.status);
  let eta = "–";
  let etaDetail = "when the crawl runs";
  if (crawl.status === "queued") {
    eta = `≈ ${formatDuration(budget * config.politeness.delayMs)}`;
    etaDetail = "estimated from budget × politeness delay";
  } else if (remaining !== null) {
    eta = `≤ ${formatDuration(remaining)}`;
    etaDetail = rate ? `at ${formatDecimal(rate * 1000)} requests/s; may stop sooner` : "at the current rate";
  }
  const recrawl = isRecrawl(crawl);
  return (
    <dl className="stats" aria-label="Headline numbers" data-testid={recrawl ? "recrawl-headline" : "crawl-headline"}>
      <Stat
        label={recrawl ? "Requests (checking cost)" : "Requests"}
        value={formatInteger(counters.requests)}
        detail={recrawl ? `${formatInteger(counters.getRequests)} GET · ${formatInteger(counters.headRequests)} HEAD · of ${formatInteger(budget)} budget` : `of ${formatInteger(budget)} budget`}
        testId="stat-requests"
      >
        <span className="meter" aria-hidden="true">
          <span style={{ width: `${(100 * share).toFixed(1)}%` }} />
        </span>
      </Stat>
      {recrawl ? (
        <ChangeStats crawl={crawl} />
      ) : (
        <>
          <Stat label="Targets" value={formatInteger(counters.targets)} detail={targetsDetail(crawl)} testId="stat-targets" />
          <Stat label="Harvest rate" value={formatHarvestRate(counters.targets, counters.requests)} detail="targets per 100 requests" testId="stat-harvest" />
        </>
      )}
      <Stat label="Data volume" value={formatBytes(counters.targetBytes)} detail={`of targets · ${formatBytes(counters.nonTargetBytes)} other`} testId="stat-volume" />
      {recrawl ? null : <Stat label="Frontier" value={formatInteger(counters.frontierSize)} detail={`pages to visit · ${formatInteger(counters.groups)} groups`} testId="stat-frontier" />}
      <Stat
        label="Errors"
        value={formatInteger(counters.errors)}
        detail={`${formatInteger(counters.robotsSkips)} robots ${counters.robotsSkips === 1 ? "skip" : "skips"}`}
        testId="stat-errors"
      />
      <Stat label="Elapsed" value={crawl.startedAt ? formatDuration(crawl.activeMs) : "–"} detail="running time, pauses excluded" testId="stat-elapsed" />
      {done ? (
        <Stat label="Ended" value={crawl.finishedAt ? <DateTime iso={crawl.finishedAt} relative /> : "–"} detail={endedDetail(crawl)} testId="stat-eta" />
      ) : (
        <Stat label="ETA" value={eta} detail={etaDetail} testId="stat-eta" />
      )}
    </dl>
  );
}
