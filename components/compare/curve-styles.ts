import { MARKER_SHAPES, type MarkerShape } from "@/components/charts/curve-marks";
import { STRATEGY_LABELS, type Strategy } from "@/lib/crawl-config";

export interface CurveStyle {
  color: string;
  dash: string | undefined;
  marker: MarkerShape;
}

/**
 * Okabe–Ito colours (safe for the common colour blindnesses), each with its own dash pattern and
 * marker, so six curves stay apart in colour, in grey and on a black-and-white printout.
 */
const COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#8C6D00", "#56B4E9", "#1d232b"] as const;
const DASHES = [undefined, "9 4", "3 3", "12 4 3 4", "6 3", "1 3", "14 3 3 3 3 3"] as const;

/** The style of the index-th compared crawl. */
export function curveStyle(index: number): CurveStyle {
  return {
    color: COLORS[index % COLORS.length]!,
    dash: DASHES[index % DASHES.length],
    marker: MARKER_SHAPES[index % MARKER_SHAPES.length]!,
  };
}

/** Reference lines: thin, grey and unmarked, so they never read as a crawl. */
export const IDEAL_STYLE: CurveStyle & { width: number } = { color: "#8a94a3", dash: "6 4", marker: "none", width: 1.5 };
export const OMNISCIENT_STYLE: CurveStyle & { width: number } = { color: "#5b6573", dash: "2 3", marker: "none", width: 1.5 };

/** "Breadth-first (BFS)" → "Breadth-first": the strategy's short name. */
export function strategyName(strategy: string): string {
  const label = STRATEGY_LABELS[strategy as Strategy] as string | undefined;
  return label ? (label.split(" (")[0] ?? label) : strategy;
}

/** The legend's name of a compared crawl: "#14 Breadth-first (seed 3)". */
export function crawlCurveName(crawl: { id: number; strategy: string; seed: number }): string {
  return `#${crawl.id} ${strategyName(crawl.strategy)} (seed ${crawl.seed})`;
}
