"use client";

import {
  Area,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { ValueType } from "recharts/types/component/DefaultTooltipContent";
import { CHART_COLORS } from "./palette";

export interface ChartSeries<T> {
  key: keyof T & string;
  name: string;
  color: string;
  /** line (default), area (filled under the line) or dots (window ends, sparse points). */
  kind?: "line" | "area" | "dots";
  dashed?: boolean;
}

export interface HorizontalReference {
  y: number;
  label: string;
  color?: string;
}

export interface LineChartProps<T> {
  data: T[];
  xKey: keyof T & string;
  series: ChartSeries<T>[];
  height?: number;
  xLabel: string;
  formatX?: (value: number) => string;
  formatY?: (value: number) => string;
  /** Fixed y range; lines beyond it are clipped (used to show a reference slope "for scale"). */
  yDomain?: [number, number];
  yTicks?: number[];
  yScale?: "linear" | "log";
  references?: HorizontalReference[];
}

const defaultFormat = (value: number) => value.toLocaleString("en-US");

/**
 * Generic numeric x/y chart (lines, areas, dots) on recharts' ComposedChart. Knows nothing of
 * crawls: domain charts pass data and series. Animation is off because live charts redraw
 * every second and an animated redraw would make the curve wobble.
 */
export function LineChart<T>({
  data,
  xKey,
  series,
  height = 260,
  xLabel,
  formatX = defaultFormat,
  formatY = defaultFormat,
  yDomain,
  yTicks,
  yScale = "linear",
  references = [],
}: LineChartProps<T>) {
  // recharts types data keys against the row type; generic rows are widened to plain records here.
  const tooltipValue = (value: ValueType | undefined) => (typeof value === "number" ? formatY(value) : String(value ?? ""));
  return (
    <ResponsiveContainer width="100%" height={height}>
      <ComposedChart accessibilityLayer={false} data={data as Record<string, unknown>[]} margin={{ top: 8, right: 16, bottom: 20, left: 4 }}>
        <CartesianGrid stroke={CHART_COLORS.grid} vertical={false} />
        <XAxis
          dataKey={xKey as string}
          type="number"
          domain={[0, "dataMax"]}
          tickFormatter={formatX}
          stroke={CHART_COLORS.axis}
          fontSize={12}
          label={{ value: xLabel, position: "insideBottom", offset: -12, fontSize: 12, fill: CHART_COLORS.axis }}
        />
        <YAxis
          tickFormatter={formatY}
          stroke={CHART_COLORS.axis}
          fontSize={12}
          width={64}
          domain={yDomain ?? [0, "auto"]}
          allowDataOverflow={yDomain !== undefined}
          ticks={yTicks}
          scale={yScale}
          interval={yTicks ? 0 : "preserveEnd"}
        />
        <Tooltip
          formatter={tooltipValue}
          labelFormatter={(label) => `${xLabel}: ${typeof label === "number" ? formatX(label) : String(label)}`}
          isAnimationActive={false}
        />
        <Legend verticalAlign="top" iconType="plainline" wrapperStyle={{ fontSize: 13, paddingBottom: 6 }} />
        {references.map((reference) => (
          <ReferenceLine
            key={reference.label}
            y={reference.y}
            stroke={reference.color ?? CHART_COLORS.danger}
            strokeDasharray="6 4"
            label={{ value: reference.label, position: "insideBottomRight", fontSize: 12, fill: reference.color ?? CHART_COLORS.danger }}
          />
        ))}
        {series.map((item) => {
          const common = { key: item.key, dataKey: item.key as string, name: item.name, isAnimationActive: false };
          if (item.kind === "area") {
            return <Area {...common} type="monotone" stroke={item.color} fill={item.color} fillOpacity={0.15} strokeWidth={2} dot={false} />;
          }
          if (item.kind === "dots") {
            return <Scatter {...common} fill={item.color} />;
          }
          return (
            <Line
              {...common}
              type="monotone"
              stroke={item.color}
              strokeWidth={item.dashed ? 1.5 : 2}
              strokeDasharray={item.dashed ? "5 5" : undefined}
              dot={false}
              connectNulls
            />
          );
        })}
      </ComposedChart>
    </ResponsiveContainer>
  );
}
