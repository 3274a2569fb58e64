/**
 * Marks that tell curves apart without colour (grey print, colour blindness): a marker shape
 * and a dash pattern per curve. Shared by the chart, its legend and the exported SVG.
 */

export const MARKER_SHAPES = ["circle", "square", "triangle", "diamond", "cross", "plus"] as const;
export type MarkerShape = (typeof MARKER_SHAPES)[number] | "none";

/** SVG path of a marker of half-size `r` centred on (x, y); "none" draws nothing. */
export function markerPath(shape: MarkerShape, x: number, y: number, r = 4): string {
  switch (shape) {
    case "circle":
      return `M${x - r},${y}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0Z`;
    case "square":
      return `M${x - r},${y - r}h${2 * r}v${2 * r}h${-2 * r}Z`;
    case "triangle":
      return `M${x},${y - r * 1.15}L${x + r * 1.1},${y + r * 0.85}L${x - r * 1.1},${y + r * 0.85}Z`;
    case "diamond":
      return `M${x},${y - r * 1.25}L${x + r * 1.1},${y}L${x},${y + r * 1.25}L${x - r * 1.1},${y}Z`;
    case "cross":
      return `M${x - r},${y - r}L${x + r},${y + r}M${x + r},${y - r}L${x - r},${y + r}`;
    case "plus":
      return `M${x - r * 1.2},${y}H${x + r * 1.2}M${x},${y - r * 1.2}V${y + r * 1.2}`;
    default:
      return "";
  }
}

/** Open shapes (cross, plus) are stroked; the others filled. */
export function isOpenMarker(shape: MarkerShape): boolean {
  return shape === "cross" || shape === "plus";
}

/** One legend sample: the curve's line with its dash pattern and its marker in the middle, as SVG children. */
export function LegendSample({ color, dash, marker, width = 2 }: { color: string; dash?: string; marker: MarkerShape; width?: number }) {
  return (
    <svg width="34" height="14" viewBox="0 0 34 14" aria-hidden="true" className="legend-sample">
      <line x1="1" y1="7" x2="33" y2="7" stroke={color} strokeWidth={width} strokeDasharray={dash} />
      {marker === "none" ? null : (
        <path d={markerPath(marker, 17, 7)} fill={isOpenMarker(marker) ? "none" : color} stroke={color} strokeWidth={isOpenMarker(marker) ? 2 : 1} />
      )}
    </svg>
  );
}
