"use client";

import { HorizontalBarChart } from "@/components/charts/BarChart";
import { ChartFigure } from "@/components/charts/ChartFigure";
import type { TagPathGroup } from "@/components/hooks/api-types";

const formatReward = (value: number) => String(Number(value.toFixed(2)));

/** Mean reward of the best groups: where the bandit expects new targets. */
export function GroupRewardsChart({ groups, limit = 8 }: { groups: TagPathGroup[]; limit?: number }) {
  const top = [...groups]
    .sort((a, b) => b.meanReward - a.meanReward)
    .slice(0, limit)
    .map((group) => ({ label: `#${group.groupId}`, meanReward: group.meanReward }));
  const best = top[0];
  const caption = best
    ? `Group ${best.label} leads with a mean reward of ${best.meanReward.toFixed(2)} new target links per page; ${top.length} groups shown.`
    : "No group has been pulled yet.";
  return (
    <ChartFigure id="group-rewards-chart" title="Mean reward by group" headingLevel={3} caption={caption}>
      <HorizontalBarChart data={top} categoryKey="label" valueKey="meanReward" valueName="Mean reward" formatValue={formatReward} barHeight={20} />
    </ChartFigure>
  );
}
