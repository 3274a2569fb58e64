/**
 * Skips links whose URL *shape* has only ever answered with files the crawl can use for
 * nothing: neither an HTML page nor a target (extension-less images `/media/img/123`, RDF
 * exports `/datasets/x-12.rdf`, calendar `.ics` downloads). The URL classifier has two
 * classes only, so it types such links as pages; each costs a request and a failed pull.
 *
 * A shape is the path with every segment that contains a digit replaced by `#` (its
 * extension kept), plus the query keys with their non-numeric values. A shape becomes dead
 * after `minDeadResults` useless answers and no useful one (a 2xx HTML page or target); a
 * redirect or an error counts as neither. Conservative on purpose: one useful answer keeps the
 * shape alive forever, so a section of HTML pages is never cut off by a few odd files.
 */
export class DeadShapeFilter {
  private readonly useful = new Set<string>();
  private readonly useless = new Map<string, number>();
  private readonly dead = new Set<string>();

  constructor(private readonly minDeadResults = 3) {}

  /** True when links of this URL's shape are known to lead to nothing useful. */
  isDead(url: string): boolean {
    return this.dead.size > 0 && this.dead.has(urlShape(url));
  }

  /**
   * Records what a request for `url` (the link as discovered, before redirects) answered.
   * Returns the shape when this answer made it dead, else null.
   */
  record(url: string, useful: boolean): string | null {
    const shape = urlShape(url);
    if (useful) {
      this.useful.add(shape);
      this.useless.delete(shape);
      this.dead.delete(shape); // a shape declared dead too early comes back
      return null;
    }
    if (this.useful.has(shape) || this.dead.has(shape)) return null;
    const count = (this.useless.get(shape) ?? 0) + 1;
    this.useless.set(shape, count);
    if (count < this.minDeadResults) return null;
    this.dead.add(shape);
    return shape;
  }

  get deadShapes(): readonly string[] {
    return [...this.dead];
  }

  toState(): { useful: string[]; useless: [string, number][] } {
    return { useful: [...this.useful], useless: [...this.useless] };
  }

  static fromState(state: { useful: string[]; useless: [string, number][] }, minDeadResults = 3): DeadShapeFilter {
    const filter = new DeadShapeFilter(minDeadResults);
    for (const shape of state.useful) filter.useful.add(shape);
    for (const [shape, count] of state.useless) {
      filter.useless.set(shape, count);
      if (count >= minDeadResults) filter.dead.add(shape);
    }
    return filter;
  }
}

const DIGIT = /\d/;

/** `/media/img/1001` → `/media/img/#`; `/d/x-80.rdf?id=3&format=ics` → `/d/#.rdf?format=ics&id=#`. */
export function urlShape(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  const queryAt = url.indexOf("?", start);
  const path = queryAt < 0 ? url.slice(start) : url.slice(start, queryAt);
  const segments = path.split("/").map((segment) => {
    if (!DIGIT.test(segment)) return segment;
    const dot = segment.lastIndexOf(".");
    const extension = dot > 0 && !DIGIT.test(segment.slice(dot)) ? segment.slice(dot).toLowerCase() : "";
    return `#${extension}`;
  });
  if (queryAt < 0) return segments.join("/");
  const params = url
    .slice(queryAt + 1)
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return pair;
      const value = pair.slice(eq + 1);
      return `${pair.slice(0, eq)}=${DIGIT.test(value) || value.length > 24 ? "#" : value}`;
    })
    .sort();
  return `${segments.join("/")}?${params.join("&")}`;
}
