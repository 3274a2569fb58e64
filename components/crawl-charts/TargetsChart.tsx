"use client";

import { ChartFigure, ChartPlaceholder } from "@/components/charts/ChartFigure";
import { LineChart } from "@/components/charts/LineChart";
import { CHART_COLORS } from "@/components/charts/palette";
import { formatCompact } from "@/components/ui/format";
import type { MetricPoint } from "@/components/hooks/api-types";
import { formatHarvestRate, formatInteger } from "@/lib/format";
import { niceTicks } from "./scale";

interface Row {
  requests: number;
  targets: number;
  ideal: number;
}

/**
 * Targets found after each request, with the ideal crawler (one target per request) drawn for
 * scale. The y axis follows the crawl's own curve, so the ideal line leaves the chart early on
 * sites where targets are rare: its slope is the point, not its end.
 */
export function TargetsChart({ points }: { points: MetricPoint[] }) {
  const rows: Row[] = [{ requests: 0, targets: 0, ideal: 0 }, ...points.map((p) => ({ requests: p.requests, targets: p.targets, ideal: p.requests }))];
  const last = points.at(-1);
  const maxTargets = Math.max(0, ...points.map((p) => p.targets));
  const yTicks = niceTicks(Math.max(10, maxTargets * 1.05));
  const yMax = yTicks.at(-1) ?? 10;
  const caption = last
    ? `After ${formatInteger(last.requests)} requests the crawl has found ${formatInteger(last.targets)} targets (harvest rate ${formatHarvestRate(last.targets, last.requests)}); an ideal crawl, one target per request, would have ${formatInteger(last.requests)}.`
    : "No requests yet: the curve starts with the first counted request.";
  return (
    <ChartFigure id="targets-chart" title="Targets vs requests" caption={caption}>
      {points.length === 0 ? (
        <ChartPlaceholder text="No data yet" />
      ) : (
        <LineChart
          data={rows}
          xKey="requests"
          xLabel="Requests"
          formatX={formatCompact}
          formatY={formatCompact}
          yDomain={[0, yMax]}
          yTicks={yTicks}
          series={[
            { key: "targets", name: "Targets found", color: CHART_COLORS.primary, kind: "area" },
            { key: "ideal", name: "Ideal: 1 target per request", color: CHART_COLORS.reference, dashed: true },
          ]}
        />
      )}
    </ChartFigure>
  );
}
