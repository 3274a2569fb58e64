import { isOpenMarker, markerPath } from "@/components/charts/curve-marks";
import type { Curve } from "@/components/charts/CurvesChart";

const SVG_NS = "http://www.w3.org/2000/svg";
const FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif";
const TITLE_HEIGHT = 30;
const LEGEND_ROW = 20;

function element(name: string, attributes: Record<string, string | number>, text?: string): SVGElement {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node as SVGElement;
}

/**
 * A standalone SVG document of a drawn chart: recharts' own <svg> (found in `container`),
 * with a white background, the title above and the legend below drawn in SVG (the page's legend
 * is HTML, outside recharts' drawing), fonts set inline so the file renders the same anywhere.
 */
export function chartSvg(container: HTMLElement, title: string, curves: readonly Curve[]): { svg: string; width: number; height: number } {
  const drawn = container.querySelector<SVGSVGElement>("svg.recharts-surface");
  if (!drawn) throw new Error("The chart is not drawn yet");
  const width = Math.round(drawn.width.baseVal.value || drawn.getBoundingClientRect().width);
  const chartHeight = Math.round(drawn.height.baseVal.value || drawn.getBoundingClientRect().height);
  // Legend entries flow in rows; a rough 7 px per character is enough to place them.
  const items: { curve: Curve; x: number; row: number }[] = [];
  let x = 12;
  let row = 0;
  for (const curve of curves) {
    const itemWidth = 44 + curve.name.length * 7;
    if (x + itemWidth > width - 12 && x > 12) {
      row += 1;
      x = 12;
    }
    items.push({ curve, x, row });
    x += itemWidth + 16;
  }
  const height = TITLE_HEIGHT + chartHeight + (row + 1) * LEGEND_ROW + 12;

  const root = element("svg", { xmlns: SVG_NS, width, height, viewBox: `0 0 ${width} ${height}`, "font-family": FONT });
  root.appendChild(element("rect", { x: 0, y: 0, width, height, fill: "#ffffff" }));
  root.appendChild(element("text", { x: 12, y: 20, "font-size": 15, "font-weight": 600, fill: "#1d232b" }, title));
  const chart = element("g", { transform: `translate(0, ${TITLE_HEIGHT})` });
  for (const child of Array.from(drawn.childNodes)) chart.appendChild(child.cloneNode(true));
  root.appendChild(chart);
  const legendTop = TITLE_HEIGHT + chartHeight + 6;
  for (const { curve, x: left, row: line } of items) {
    const y = legendTop + line * LEGEND_ROW + 8;
    const g = element("g", {});
    g.appendChild(element("line", { x1: left, y1: y, x2: left + 32, y2: y, stroke: curve.color, "stroke-width": curve.width ?? 2, ...(curve.dash ? { "stroke-dasharray": curve.dash } : {}) }));
    if (curve.marker !== "none") {
      const open = isOpenMarker(curve.marker);
      g.appendChild(element("path", { d: markerPath(curve.marker, left + 16, y), fill: open ? "none" : curve.color, stroke: curve.color, "stroke-width": open ? 2 : 1 }));
    }
    g.appendChild(element("text", { x: left + 40, y: y + 4, "font-size": 12, fill: "#1d232b" }, curve.name));
    root.appendChild(g);
  }
  return { svg: new XMLSerializer().serializeToString(root), width, height };
}

/** The SVG drawn into a canvas at twice its size, as PNG. */
export async function svgToPng(svg: string, width: number, height: number, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml;charset=utf-8" }));
  try {
    const image = new Image();
    image.decoding = "sync";
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error("The chart could not be drawn as an image"));
      image.src = url;
    });
    const canvas = document.createElement("canvas");
    canvas.width = width * scale;
    canvas.height = height * scale;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("This browser cannot draw into a canvas");
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error("PNG encoding failed"))), "image/png"));
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Saves a blob under a file name (a temporary link, clicked). */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
