"use client";

import { ChartFigure, ChartPlaceholder } from "@/components/charts/ChartFigure";
import { LineChart } from "@/components/charts/LineChart";
import { CHART_COLORS } from "@/components/charts/palette";
import { formatCompact } from "@/components/ui/format";
import type { MetricPoint } from "@/components/hooks/api-types";
import { formatBytes, formatInteger } from "@/lib/format";
import { byteTicks } from "./scale";

/** Bytes received for targets vs for everything else (pages, HEAD requests, aborted media). */
export function VolumeChart({ points }: { points: MetricPoint[] }) {
  const rows = [
    { requests: 0, targetBytes: 0, nonTargetBytes: 0 },
    ...points.map((p) => ({ requests: p.requests, targetBytes: p.targetBytes, nonTargetBytes: p.nonTargetBytes })),
  ];
  const last = points.at(-1);
  const yTicks = byteTicks(Math.max(1024, ...rows.map((row) => Math.max(row.targetBytes, row.nonTargetBytes))));
  let caption = "No data received yet.";
  if (last) {
    const total = last.targetBytes + last.nonTargetBytes;
    const share = total > 0 ? ` (${Math.round((100 * last.targetBytes) / total)} % of the volume)` : "";
    caption = `After ${formatInteger(last.requests)} requests: ${formatBytes(last.targetBytes)} of targets${share} and ${formatBytes(last.nonTargetBytes)} of other responses (pages, HEAD requests, skipped files).`;
  }
  return (
    <ChartFigure id="volume-chart" title="Target volume vs other volume" caption={caption}>
      {points.length === 0 ? (
        <ChartPlaceholder text="No data yet" />
      ) : (
        <LineChart
          data={rows}
          xKey="requests"
          xLabel="Requests"
          formatX={formatCompact}
          formatY={(value) => formatBytes(value)}
          yDomain={[0, yTicks.at(-1) ?? 1024]}
          yTicks={yTicks}
          series={[
            { key: "targetBytes", name: "Target volume", color: CHART_COLORS.primary, kind: "area" },
            { key: "nonTargetBytes", name: "Other volume", color: CHART_COLORS.secondary, kind: "area" },
          ]}
        />
      )}
    </ChartFigure>
  );
}
