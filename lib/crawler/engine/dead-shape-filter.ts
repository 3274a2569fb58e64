/**
 * Sets aside links whose URL *shape* has only ever answered with files the crawl can use for
 * nothing: neither an HTML page nor a target (extension-less images `/media/img/123`, RDF
 * exports `/datasets/x-12.rdf`, calendar `.ics` downloads). The URL classifier has two
 * classes only, so it types such links as pages; each costs a request and a failed pull.
 *
 * A shape is the path with every segment that contains a digit replaced by `#` (its
 * extension kept), plus the query keys with their non-numeric values. A shape becomes dead
 * after `minDeadResults` useless answers and no useful one (a 2xx HTML page or target); a
 * redirect or an error counts as neither. One useful answer keeps the shape alive forever, so a
 * section of HTML pages is never cut off by a few odd files.
 *
 * A dead shape's new links are *parked*, not dropped, and the 4th, 8th, 16th, … link to arrive is
 * let through as a probe. A download endpoint can serve both: `/media/#/download` answers PDFs and
 * spreadsheets alike, and with spreadsheets as the only targets its first three answers may well
 * be PDFs. When a probe (or a link queued before the shape died) answers a page or a target, the
 * shape revives and {@link record} hands its parked links back to the frontier; until then a
 * useless shape costs a handful of probes instead of one request per link. At most
 * {@link MAX_PARKED_PER_SHAPE} links are parked per shape; later ones are dropped.
 */

/** A link set aside while its shape is dead: what the engine needs to file it later. */
export interface ParkedLink {
  readonly url: string;
  readonly tagPath: string;
  readonly anchorText: string;
  readonly depth: number;
  readonly referrer: string | null;
  /** The link's lineage (types.ts `FrontierLink`), when the crawl gives long-term credit. */
  readonly lineage?: readonly number[];
}

/** Plain JSON state. `parked` and `arrivals` are absent in checkpoints written before parking existed. */
export interface DeadShapeFilterState {
  useful: string[];
  useless: [string, number][];
  parked?: [string, ParkedLink[]][];
  arrivals?: [string, number][];
}

/** What an answer changed: a shape that just died, or one that came back with its parked links. */
export type ShapeChange = { kind: "died"; shape: string } | { kind: "revived"; shape: string; parked: ParkedLink[] };

export const MAX_PARKED_PER_SHAPE = 50_000;
/** The first arrival after death that is let through as a probe; then every power of two. */
const FIRST_PROBE = 4;

export class DeadShapeFilter {
  private readonly useful = new Set<string>();
  private readonly useless = new Map<string, number>();
  private readonly dead = new Set<string>();
  private readonly parked = new Map<string, ParkedLink[]>();
  /** Links of each dead shape that arrived since it died (probes included). */
  private readonly arrivals = new Map<string, number>();

  constructor(private readonly minDeadResults = 3) {}

  /** True when links of this URL's shape are known to lead to nothing useful. */
  isDead(url: string): boolean {
    return this.dead.size > 0 && this.dead.has(urlShape(url));
  }

  /**
   * A newly seen link: true when it may be crawled (its shape is alive, or it is a probe), false
   * when it was parked (or dropped past {@link MAX_PARKED_PER_SHAPE}).
   */
  admit(link: ParkedLink): boolean {
    if (this.dead.size === 0) return true;
    const shape = urlShape(link.url);
    if (!this.dead.has(shape)) return true;
    const arrived = (this.arrivals.get(shape) ?? 0) + 1;
    this.arrivals.set(shape, arrived);
    if (arrived >= FIRST_PROBE && (arrived & (arrived - 1)) === 0) return true;
    const parked = this.parked.get(shape) ?? [];
    if (parked.length < MAX_PARKED_PER_SHAPE) parked.push(link);
    this.parked.set(shape, parked);
    return false;
  }

  /**
   * Records what a request for `url` (the link as discovered, before redirects) answered: the
   * shape that this answer made dead, or the dead shape it revived with the links parked under it.
   */
  record(url: string, useful: boolean): ShapeChange | null {
    const shape = urlShape(url);
    if (useful) {
      this.useful.add(shape);
      this.useless.delete(shape);
      if (!this.dead.delete(shape)) return null;
      const parked = this.parked.get(shape) ?? [];
      this.parked.delete(shape);
      this.arrivals.delete(shape);
      return { kind: "revived", shape, parked };
    }
    if (this.useful.has(shape) || this.dead.has(shape)) return null;
    const count = (this.useless.get(shape) ?? 0) + 1;
    this.useless.set(shape, count);
    if (count < this.minDeadResults) return null;
    this.dead.add(shape);
    return { kind: "died", shape };
  }

  get deadShapes(): readonly string[] {
    return [...this.dead];
  }

  /** Links parked under dead shapes, all shapes together. */
  get parkedCount(): number {
    let count = 0;
    for (const links of this.parked.values()) count += links.length;
    return count;
  }

  toState(): DeadShapeFilterState {
    return {
      useful: [...this.useful],
      useless: [...this.useless],
      parked: [...this.parked].map(([shape, links]) => [shape, links.slice()]),
      arrivals: [...this.arrivals],
    };
  }

  static fromState(state: DeadShapeFilterState, minDeadResults = 3): DeadShapeFilter {
    const filter = new DeadShapeFilter(minDeadResults);
    for (const shape of state.useful) filter.useful.add(shape);
    for (const [shape, count] of state.useless) {
      filter.useless.set(shape, count);
      if (count >= minDeadResults) filter.dead.add(shape);
    }
    for (const [shape, links] of state.parked ?? []) filter.parked.set(shape, links.slice());
    for (const [shape, count] of state.arrivals ?? []) filter.arrivals.set(shape, count);
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
