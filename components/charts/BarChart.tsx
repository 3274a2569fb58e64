"use client";

import { Bar, BarChart as RechartsBarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ValueType } from "recharts/types/component/DefaultTooltipContent";
import { CHART_COLORS } from "./palette";

export interface HorizontalBarChartProps<T> {
  data: T[];
  categoryKey: keyof T & string;
  valueKey: keyof T & string;
  valueName: string;
  color?: string;
  formatValue?: (value: number) => string;
  /** Height per bar; the chart grows with the number of bars. */
  barHeight?: number;
  categoryWidth?: number;
}

/** Generic horizontal bar chart: one bar per category, longest first as given. */
export function HorizontalBarChart<T>({
  data,
  categoryKey,
  valueKey,
  valueName,
  color = CHART_COLORS.primary,
  formatValue = (value) => value.toLocaleString("en-US"),
  barHeight = 26,
  categoryWidth = 56,
}: HorizontalBarChartProps<T>) {
  const height = Math.max(120, data.length * barHeight + 40);
  const tooltipValue = (value: ValueType | undefined) => (typeof value === "number" ? formatValue(value) : String(value ?? ""));
  return (
    <ResponsiveContainer width="100%" height={height}>
      <RechartsBarChart accessibilityLayer={false} data={data as Record<string, unknown>[]} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }}>
        <CartesianGrid stroke={CHART_COLORS.grid} horizontal={false} />
        <XAxis type="number" tickFormatter={formatValue} stroke={CHART_COLORS.axis} fontSize={12} />
        <YAxis type="category" dataKey={categoryKey as string} width={categoryWidth} stroke={CHART_COLORS.axis} fontSize={12} interval={0} />
        <Tooltip formatter={tooltipValue} isAnimationActive={false} cursor={{ fill: CHART_COLORS.grid }} />
        <Bar dataKey={valueKey as string} name={valueName} fill={color} isAnimationActive={false} radius={[0, 3, 3, 0]} />
      </RechartsBarChart>
    </ResponsiveContainer>
  );
}
