"use client";

import { useRef } from "react";
import { ChartFigure, ChartPlaceholder } from "@/components/charts/ChartFigure";
import { CurvesChart, type Curve } from "@/components/charts/CurvesChart";
import { niceTicks } from "@/components/crawl-charts/scale";
import type { CrawlComparison } from "@/components/hooks/use-compare-queries";
import { formatCompact } from "@/components/ui/format";
import { formatInteger } from "@/lib/format";
import { ChartExportButtons } from "./ChartExportButtons";
import { crawlCurveName, curveStyle, IDEAL_STYLE, OMNISCIENT_STYLE, strategyName } from "./curve-styles";

/** The curves of the Targets chart, reference lines last (drawn on top, thin). */
export function targetCurves(comparison: CrawlComparison): { curves: Curve[]; xMax: number; yMax: number } {
  const xMax = Math.max(10, ...comparison.crawls.map((crawl) => crawl.requests));
  const omniscient = comparison.omniscient?.targets ?? null;
  const yMax = Math.max(10, ...comparison.crawls.map((crawl) => crawl.targets), omniscient ?? 0) * 1.05;
  const curves: Curve[] = comparison.crawls.map((crawl, index) => ({
    id: `crawl-${crawl.id}`,
    name: crawlCurveName(crawl),
    ...curveStyle(index),
    points: [{ x: 0, y: 0 }, ...crawl.points.map((p) => ({ x: p.requests, y: p.targets }))],
  }));
  // One target per request: its slope is the point; it leaves the chart at the top.
  curves.push({ id: "ideal", name: "Ideal: 1 target per request", ...IDEAL_STYLE, points: [{ x: 0, y: 0 }, { x: xMax, y: xMax }] });
  if (omniscient !== null) {
    curves.push({
      id: "omniscient",
      name: `Omniscient: the ${formatInteger(omniscient)} targets of crawl #${comparison.omniscient!.sourceCrawlId}, one request each`,
      ...OMNISCIENT_STYLE,
      points: [{ x: 0, y: 0 }, { x: Math.min(omniscient, xMax), y: Math.min(omniscient, xMax) }, { x: xMax, y: Math.min(omniscient, xMax) }],
    });
  }
  return { curves, xMax, yMax };
}

/** Targets vs requests of every compared crawl on one chart, with the ideal and (when known) omniscient lines. */
export function CompareTargetsChart({ comparison, fileName }: { comparison: CrawlComparison; fileName: string }) {
  const chartRef = useRef<HTMLDivElement>(null);
  const { curves, xMax, yMax } = targetCurves(comparison);
  const yTicks = niceTicks(yMax);
  const xTicks = niceTicks(xMax);
  const best = comparison.crawls.find((crawl) => crawl.id === comparison.best.crawlId);
  const fastest = [...comparison.crawls].filter((c) => c.requestsTo90 !== null).sort((a, b) => a.requestsTo90! - b.requestsTo90!)[0];
  const caption =
    best && best.targets > 0
      ? `The most targets: ${formatInteger(best.targets)}, by crawl #${best.id} (${strategyName(best.strategy)}). ` +
        (fastest
          ? `Crawl #${fastest.id} (${strategyName(fastest.strategy)}) reached 90 % of them first, after ${formatInteger(fastest.requestsTo90!)} requests.`
          : "")
      : "No crawl has found a target yet.";
  return (
    <ChartFigure id="compare-targets-chart" title="Targets vs requests" caption={caption} actions={<ChartExportButtons chartRef={chartRef} title="Targets vs requests" curves={curves} fileName={`${fileName}-targets`} />}>
      <div ref={chartRef}>
      {comparison.crawls.every((crawl) => crawl.points.length === 0) ? (
        <ChartPlaceholder text="No requests yet" height={320} />
      ) : (
        <CurvesChart
          curves={curves}
          xLabel="Requests"
          formatX={formatCompact}
          formatY={formatCompact}
          xDomain={[0, xTicks.at(-1) ?? xMax]}
          yDomain={[0, yTicks.at(-1) ?? yMax]}
          xTicks={xTicks}
          yTicks={yTicks}
          legendLabel="Curves of the targets chart"
        />
      )}
      </div>
    </ChartFigure>
  );
}
