"use client";

import { TargetsChart } from "@/components/crawl-charts/TargetsChart";
import { VolumeChart } from "@/components/crawl-charts/VolumeChart";
import type { MetricPoint } from "@/components/hooks/api-types";
import { PanelError } from "./QueryState";

/** The two curves, side by side on wide screens. The points come from the cockpit's metrics query. */
export function CurvesPanel({ points, error }: { points: MetricPoint[]; error: Error | null }) {
  return (
    <section className="panel-grid two" aria-label="Curves">
      {error ? <PanelError label="the curves" error={error} /> : null}
      <div className="panel">
        <TargetsChart points={points} />
      </div>
      <div className="panel">
        <VolumeChart points={points} />
      </div>
    </section>
  );
}
