/** Chart colours: the app's accent for what the crawl found, calm greys for reference lines. */
export const CHART_COLORS = {
  primary: "#1f6f5c",
  primarySoft: "#cfe6de",
  secondary: "#5b6ec7",
  secondarySoft: "#dde2f6",
  reference: "#8a94a3",
  warn: "#b46900",
  danger: "#b3261e",
  grid: "#e6e9ee",
  axis: "#5b6573",
} as const;
