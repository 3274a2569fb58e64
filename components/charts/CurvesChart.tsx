"use client";

import { CartesianGrid, Line, LineChart as RechartsLineChart, ResponsiveContainer, XAxis, YAxis } from "recharts";
import { isOpenMarker, LegendSample, markerPath, type MarkerShape } from "./curve-marks";
import { CHART_COLORS } from "./palette";

export interface CurvePointXY {
  x: number;
  y: number;
}

/** One curve with its own points (curves need not share x values). */
export interface Curve {
  id: string;
  name: string;
  color: string;
  /** SVG stroke-dasharray; undefined draws a solid line. */
  dash?: string;
  marker: MarkerShape;
  /** Stroke width. @default 2 */
  width?: number;
  points: CurvePointXY[];
}

export interface CurvesChartProps {
  curves: Curve[];
  xLabel: string;
  formatX?: (value: number) => string;
  formatY?: (value: number) => string;
  xDomain: [number, number];
  yDomain: [number, number];
  xTicks?: number[];
  yTicks?: number[];
  height?: number;
  /** Markers per curve, spread along it (the line stays readable, the shape names the curve). @default 7 */
  markersPerCurve?: number;
  /** Legend caption for screen readers and the export. */
  legendLabel: string;
}

const defaultFormat = (value: number) => value.toLocaleString("en-US");

/** Indexes of the points that get a marker: about `count` of them, shifted per curve so markers of equal curves do not sit on each other. */
function markerIndexes(length: number, count: number, curveIndex: number): Set<number> {
  const indexes = new Set<number>();
  if (length === 0 || count <= 0) return indexes;
  const step = length / count;
  const shift = ((curveIndex % 4) + 1) / 5;
  for (let i = 0; i < count; i++) indexes.add(Math.min(length - 1, Math.floor((i + shift) * step)));
  return indexes;
}

/**
 * Several numeric curves on one pair of axes, each with its own points, colour, dash pattern
 * and marker shape; the legend (HTML, under the drawing) repeats all three, so the chart still
 * reads in grey. Knows nothing of crawls. Animation off: compared curves may refresh live.
 */
export function CurvesChart({
  curves,
  xLabel,
  formatX = defaultFormat,
  formatY = defaultFormat,
  xDomain,
  yDomain,
  xTicks,
  yTicks,
  height = 320,
  markersPerCurve = 7,
  legendLabel,
}: CurvesChartProps) {
  return (
    <div className="curves-chart">
      <ResponsiveContainer width="100%" height={height}>
        <RechartsLineChart accessibilityLayer={false} margin={{ top: 8, right: 16, bottom: 20, left: 4 }}>
          <CartesianGrid stroke={CHART_COLORS.grid} vertical={false} />
          <XAxis
            dataKey="x"
            type="number"
            domain={xDomain}
            allowDataOverflow
            ticks={xTicks}
            tickFormatter={formatX}
            stroke={CHART_COLORS.axis}
            fontSize={12}
            label={{ value: xLabel, position: "insideBottom", offset: -12, fontSize: 12, fill: CHART_COLORS.axis }}
          />
          <YAxis dataKey="y" type="number" domain={yDomain} allowDataOverflow ticks={yTicks} interval={0} tickFormatter={formatY} stroke={CHART_COLORS.axis} fontSize={12} width={64} />
          {curves.map((curve, curveIndex) => {
            const marked = markerIndexes(curve.points.length, curve.marker === "none" ? 0 : markersPerCurve, curveIndex);
            return (
              <Line
                key={curve.id}
                data={curve.points}
                dataKey="y"
                name={curve.name}
                type="linear"
                stroke={curve.color}
                strokeWidth={curve.width ?? 2}
                strokeDasharray={curve.dash}
                isAnimationActive={false}
                connectNulls
                dot={(props: { cx?: number; cy?: number; index?: number }) => {
                  const { cx, cy, index = -1 } = props;
                  if (cx === undefined || cy === undefined || !marked.has(index) || !Number.isFinite(cx) || !Number.isFinite(cy)) return <g key={`${curve.id}-${index}`} />;
                  const open = isOpenMarker(curve.marker);
                  return <path key={`${curve.id}-${index}`} d={markerPath(curve.marker, cx, cy)} fill={open ? "none" : curve.color} stroke={open ? curve.color : "#fff"} strokeWidth={open ? 2 : 1} />;
                }}
                activeDot={false}
              />
            );
          })}
        </RechartsLineChart>
      </ResponsiveContainer>
      <ul className="curves-legend" aria-label={legendLabel}>
        {curves.map((curve) => (
          <li key={curve.id}>
            <LegendSample color={curve.color} dash={curve.dash} marker={curve.marker} width={curve.width} />
            <span>{curve.name}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
