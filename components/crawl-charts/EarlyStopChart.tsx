"use client";

import { ChartFigure, ChartPlaceholder } from "@/components/charts/ChartFigure";
import { LineChart } from "@/components/charts/LineChart";
import { CHART_COLORS } from "@/components/charts/palette";
import { formatCompact, formatDecimal, formatParam } from "@/components/ui/format";
import type { EarlyStopWindow } from "@/components/hooks/api-types";
import { formatInteger } from "@/lib/format";
import { decadeTicks } from "./scale";

/**
 * Slope of each early-stopping window (targets per request), its moving average and τ, on a log
 * scale: slopes start near 1 and the decision happens near τ = 0.01, which a linear axis would
 * flatten into the x axis. Zero slopes are drawn at the floor of the axis.
 */
export function EarlyStopChart({
  windows,
  threshold,
  patienceWindows,
  windowRequests,
}: {
  windows: EarlyStopWindow[];
  threshold: number;
  patienceWindows: number;
  windowRequests: number;
}) {
  const floor = threshold > 0 ? threshold / 10 : 1e-4;
  const rows = windows.map((w) => ({
    requests: w.requests,
    slope: Math.max(w.slope, floor),
    ema: w.ema === null ? null : Math.max(w.ema, floor),
  }));
  const top = Math.max(threshold * 10, ...rows.map((row) => Math.max(row.slope, row.ema ?? 0)));
  const ticks = decadeTicks(floor, top);
  const last = windows.at(-1);
  const caption = last
    ? `Last window, ending at request ${formatInteger(last.requests)}: slope ${formatDecimal(last.slope)} targets per request, moving average ${last.ema === null ? "–" : formatDecimal(last.ema)}, threshold τ = ${formatParam(threshold)}; ${last.patience ?? 0} / ${patienceWindows} windows below threshold. Log scale.`
    : `The first window ends after ${formatInteger(windowRequests)} requests; until then there is no slope to show. Threshold τ = ${formatParam(threshold)}.`;
  return (
    <ChartFigure id="early-stop-chart" title="Slope per window" headingLevel={3} caption={caption}>
      {windows.length === 0 ? (
        <ChartPlaceholder text="No window yet" height={230} />
      ) : (
        <LineChart
          data={rows}
          xKey="requests"
          xLabel="Requests"
          height={230}
          formatX={formatCompact}
          formatY={formatParam}
          yScale="log"
          yDomain={[ticks[0] ?? floor, ticks.at(-1) ?? 1]}
          yTicks={ticks}
          references={[{ y: threshold, label: `τ = ${formatParam(threshold)}` }]}
          series={[
            { key: "slope", name: "Slope (targets per request)", color: CHART_COLORS.secondary, kind: "dots" },
            { key: "ema", name: "Moving average", color: CHART_COLORS.primary },
          ]}
        />
      )}
    </ChartFigure>
  );
}
