/** The soak's curves as one SVG picture: four small charts over time, no dependency. */
import type { SoakSample } from "./soak-run";

interface Series {
  label: string;
  colour: string;
  value: (sample: SoakSample) => number;
}

interface Panel {
  title: string;
  unit: string;
  series: Series[];
}

const PANELS: Panel[] = [
  {
    title: "Resident memory",
    unit: "MB",
    series: [
      { label: "worker", colour: "#1f6feb", value: (s) => s.workerRssBytes / 2 ** 20 },
      { label: "dashboard", colour: "#bf8700", value: (s) => s.dashboardRssBytes / 2 ** 20 },
    ],
  },
  {
    title: "Event-loop delay p99",
    unit: "ms",
    series: [
      { label: "worker", colour: "#1f6feb", value: (s) => s.workerLoopP99Ms },
      { label: "dashboard", colour: "#bf8700", value: (s) => s.dashboardLoopP99Ms },
    ],
  },
  { title: "Requests so far", unit: "", series: [{ label: "requests", colour: "#1a7f37", value: (s) => s.requests }] },
  {
    title: "Database size",
    unit: "MB",
    series: [{ label: "database", colour: "#8250df", value: (s) => s.databaseBytes / 2 ** 20 }],
  },
];

const WIDTH = 960;
const PANEL_W = 440;
const PANEL_H = 200;
const MARGIN = { left: 56, top: 48, gap: 40 };

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function panelSvg(panel: Panel, samples: readonly SoakSample[], x0: number, y0: number): string {
  const maxT = Math.max(1, ...samples.map((s) => s.atSeconds));
  const values = panel.series.flatMap((series) => samples.map(series.value)).filter(Number.isFinite);
  const maxV = Math.max(1, ...values) * 1.1;
  const px = (t: number) => x0 + (t / maxT) * PANEL_W;
  const py = (v: number) => y0 + PANEL_H - (v / maxV) * PANEL_H;
  const lines = panel.series.map((series) => {
    const points = samples.filter((s) => Number.isFinite(series.value(s))).map((s) => `${px(s.atSeconds).toFixed(1)},${py(series.value(s)).toFixed(1)}`);
    return `<polyline fill="none" stroke="${series.colour}" stroke-width="2" points="${points.join(" ")}"/>`;
  });
  const legend = panel.series.map((series, i) => `<text x="${x0 + PANEL_W - 8}" y="${y0 + 14 + i * 14}" text-anchor="end" fill="${series.colour}">${escape(series.label)}</text>`);
  const ticks = [0, 0.5, 1].map((f) => `<text x="${x0 - 6}" y="${py(maxV * f) + 4}" text-anchor="end">${(maxV * f).toFixed(maxV * f < 10 ? 1 : 0)}</text>`);
  return [
    `<text x="${x0}" y="${y0 - 10}" font-weight="bold">${escape(panel.title)}${panel.unit ? ` (${panel.unit})` : ""}</text>`,
    `<rect x="${x0}" y="${y0}" width="${PANEL_W}" height="${PANEL_H}" fill="none" stroke="#d0d7de"/>`,
    ...ticks,
    `<text x="${x0 + PANEL_W}" y="${y0 + PANEL_H + 16}" text-anchor="end">${(maxT / 60).toFixed(0)} min</text>`,
    ...lines,
    ...legend,
  ].join("\n");
}

export function soakCurvesSvg(samples: readonly SoakSample[], { title }: { title: string }): string {
  const height = MARGIN.top + 2 * (PANEL_H + MARGIN.gap + 24);
  const panels = PANELS.map((panel, i) => panelSvg(panel, samples, MARGIN.left + (i % 2) * (PANEL_W + MARGIN.gap), MARGIN.top + 20 + Math.floor(i / 2) * (PANEL_H + MARGIN.gap + 24)));
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH + MARGIN.left}" height="${height}" font-family="sans-serif" font-size="12" role="img" aria-label="${escape(title)}">`,
    `<rect width="100%" height="100%" fill="#ffffff"/>`,
    `<text x="${MARGIN.left}" y="24" font-size="15" font-weight="bold">${escape(title)}</text>`,
    ...panels,
    "</svg>",
    "",
  ].join("\n");
}
