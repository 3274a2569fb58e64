"use client";

import { useState, type RefObject } from "react";
import type { Curve } from "@/components/charts/CurvesChart";
import { chartSvg, saveBlob, svgToPng } from "./chart-export";

/** "SVG" and "PNG" buttons of a drawn chart: the file holds the title, the drawing and a legend. */
export function ChartExportButtons({ chartRef, title, curves, fileName }: { chartRef: RefObject<HTMLElement | null>; title: string; curves: readonly Curve[]; fileName: string }) {
  const [error, setError] = useState<string | null>(null);
  const save = async (format: "svg" | "png") => {
    setError(null);
    try {
      if (!chartRef.current) throw new Error("The chart is not drawn yet");
      const { svg, width, height } = chartSvg(chartRef.current, title, curves);
      const blob = format === "svg" ? new Blob([svg], { type: "image/svg+xml" }) : await svgToPng(svg, width, height);
      saveBlob(blob, `${fileName}.${format}`);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    }
  };
  return (
    <div className="chart-export" role="group" aria-label={`Download the ${title} chart`}>
      <button type="button" className="button button-small" onClick={() => void save("svg")}>
        SVG
      </button>
      <button type="button" className="button button-small" onClick={() => void save("png")}>
        PNG
      </button>
      {error ? (
        <span role="alert" className="field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
