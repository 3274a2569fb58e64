import type { ReactNode } from "react";

/**
 * A chart with its heading and a text alternative: the caption states the key numbers in a
 * sentence, so the chart's content reaches screen readers and people who skip charts.
 * The drawing itself is hidden from assistive technology (it would read as a list of ticks).
 */
export function ChartFigure({
  id,
  title,
  caption,
  children,
  headingLevel = 2,
  actions,
}: {
  id: string;
  title: string;
  caption: ReactNode;
  children: ReactNode;
  headingLevel?: 2 | 3;
  actions?: ReactNode;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <figure className="chart-figure" aria-labelledby={`${id}-title`} aria-describedby={`${id}-caption`}>
      <div className="chart-head">
        <Heading id={`${id}-title`} className="chart-title">
          {title}
        </Heading>
        {actions}
      </div>
      <div className="chart-body" aria-hidden="true">
        {children}
      </div>
      <figcaption id={`${id}-caption`} className="chart-caption" data-testid={`${id}-caption`}>
        {caption}
      </figcaption>
    </figure>
  );
}

/** Stands in for a chart that has no data yet, at a chart's height so the page does not jump. */
export function ChartPlaceholder({ text, height = 260 }: { text: string; height?: number }) {
  return (
    <div className="chart-placeholder" style={{ height }}>
      {text}
    </div>
  );
}
