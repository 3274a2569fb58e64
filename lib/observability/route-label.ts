/**
 * The `route` label of a dashboard request in the latency histogram: its path with ids folded
 * ("/api/crawls/17/targets" → "/api/crawls/:id/targets"), so that the number of series stays
 * bounded whatever paths clients send. Build assets collapse to "/_next"; a path the app does not
 * know (404) is "unmatched"; past `MAX_ROUTES` distinct labels, new ones are "other".
 */
export const MAX_ROUTES = 200;

const ID_SEGMENT = /^(\d+|[0-9a-f]{8,}|[0-9a-f-]{36}|[A-Za-z0-9_-]{20,})$/i;

export class RouteLabels {
  private readonly seen = new Set<string>();

  label(path: string, status: number): string {
    if (status === 404) return "unmatched";
    const label = foldPath(path);
    if (this.seen.has(label)) return label;
    if (this.seen.size >= MAX_ROUTES) return "other";
    this.seen.add(label);
    return label;
  }
}

export function foldPath(path: string): string {
  if (path === "/_next" || path.startsWith("/_next/")) return "/_next";
  const segments = path.split("/").slice(1, 6);
  const folded = segments.map((segment) => (ID_SEGMENT.test(segment) ? ":id" : segment.length > 40 ? ":long" : segment));
  return `/${folded.join("/")}`;
}
