"use client";

import { useRef } from "react";
import { ChartFigure, ChartPlaceholder } from "@/components/charts/ChartFigure";
import { CurvesChart, type Curve } from "@/components/charts/CurvesChart";
import { byteTicks } from "@/components/crawl-charts/scale";
import type { CrawlComparison } from "@/components/hooks/use-compare-queries";
import { formatBytes } from "@/lib/format";
import { ChartExportButtons } from "./ChartExportButtons";
import { crawlCurveName, curveStyle, strategyName } from "./curve-styles";

/** Target bytes against the other bytes each crawl downloaded: the steeper, the less waste. */
export function volumeCurves(comparison: CrawlComparison): { curves: Curve[]; xMax: number; yMax: number } {
  const curves: Curve[] = comparison.crawls.map((crawl, index) => ({
    id: `crawl-${crawl.id}`,
    name: crawlCurveName(crawl),
    ...curveStyle(index),
    points: [{ x: 0, y: 0 }, ...crawl.points.map((p) => ({ x: p.nonTargetBytes, y: p.targetBytes }))],
  }));
  return {
    curves,
    xMax: Math.max(1024, ...comparison.crawls.map((crawl) => crawl.nonTargetBytes)),
    yMax: Math.max(1024, ...comparison.crawls.map((crawl) => crawl.targetBytes)),
  };
}

export function CompareVolumeChart({ comparison, fileName }: { comparison: CrawlComparison; fileName: string }) {
  const chartRef = useRef<HTMLDivElement>(null);
  const { curves, xMax, yMax } = volumeCurves(comparison);
  const xTicks = byteTicks(xMax);
  const yTicks = byteTicks(yMax);
  const leanest = [...comparison.crawls].filter((c) => c.targetBytes > 0).sort((a, b) => b.targetBytes / Math.max(1, b.nonTargetBytes) - a.targetBytes / Math.max(1, a.nonTargetBytes))[0];
  const caption = leanest
    ? `Crawl #${leanest.id} (${strategyName(leanest.strategy)}) downloaded the most target data per byte of other data: ${formatBytes(leanest.targetBytes)} of targets for ${formatBytes(leanest.nonTargetBytes)} of pages and other files.`
    : "No target data yet.";
  return (
    <ChartFigure id="compare-volume-chart" title="Target volume vs other volume" caption={caption} actions={<ChartExportButtons chartRef={chartRef} title="Target volume vs other volume" curves={curves} fileName={`${fileName}-volume`} />}>
      <div ref={chartRef}>
      {comparison.crawls.every((crawl) => crawl.points.length === 0) ? (
        <ChartPlaceholder text="No requests yet" height={320} />
      ) : (
        <CurvesChart
          curves={curves}
          xLabel="Other data downloaded (pages, non-target files)"
          formatX={formatBytes}
          formatY={formatBytes}
          xDomain={[0, xTicks.at(-1) ?? xMax]}
          yDomain={[0, yTicks.at(-1) ?? yMax]}
          xTicks={xTicks}
          yTicks={yTicks}
          legendLabel="Curves of the volume chart"
        />
      )}
      </div>
    </ChartFigure>
  );
}
