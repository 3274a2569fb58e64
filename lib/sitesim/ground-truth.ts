/**
 * Ground truth of a simulated site: what a complete, robots-obeying crawl finds, and a
 * reference breadth-first crawl to compare crawlers against.
 *
 * The BFS, exactly (an HTTP crawler written to these rules gets identical numbers):
 * - FIFO from "/", dedup by path + query with the fragment removed; links of a 2xx HTML
 *   page in extraction order (all `a[href]`, then `area[href]`, then `iframe[src]`);
 *   links to other hosts and schemes are ignored; pages that are not 2xx HTML are not parsed.
 * - A new link that robots.txt disallows, or whose last path segment has an
 *   image/audio/video extension, is marked seen and skipped without a request.
 * - Every GET counts one request. A redirect counts one request; its in-site Location,
 *   if not seen yet (and not disallowed or media), is marked seen and fetched right
 *   away (one more request per hop, at most 10 hops); otherwise the chain ends.
 * - Targets are 200 responses whose MIME type is in SIM_TARGET_MIME_TYPES.
 * - The calendar trap is infinite. The BFS stops when the queue holds trap URLs only
 *   (URLs under `trapPrefixes`): trap pages link nothing new outside the trap beyond
 *   pages already seen, by construction, so the finite part is complete at that point.
 *   Requests already spent on trap pages before that count, as they would for a real BFS.
 *   `maxRequests` (default 4 × the size's URL count + 1 000) is only a safety net.
 */
import { FORMATS, hasMediaExtension, mimeOf, SIM_TARGET_MIME_TYPES } from "./formats";
import { HtmlSink } from "./html-sink";
import type { SimulatedSite } from "./site";
import { sizeToUrlCount } from "./sizes";
import type { ShapeModel } from "./types";

export interface GroundTruthTarget {
  /** Path + query of the target URL. */
  path: string;
  /** Content-Type without parameters. */
  mime: string;
  bytes: number;
  /** 1-based number of the BFS request that fetched it. */
  bfsRequest: number;
}

export interface GroundTruth {
  /** Reachable finite 2xx HTML pages (trap excluded), BFS order. */
  htmlPages: string[];
  /** Reachable targets, in BFS fetch order. */
  targets: GroundTruthTarget[];
  targetsByMime: Record<string, number>;
  targetBytes: number;
  /** Redirect responses met by the BFS outside the trap (one per hop). Counts below exclude the trap too. */
  redirects: number;
  /** 404 responses met by the BFS. */
  notFound: number;
  /** Image responses fetched (extension-less image links). */
  images: number;
  /** Other non-HTML, non-target responses (feeds, calendars, RDF). */
  otherFiles: number;
  /** Distinct in-site links skipped because of robots.txt. */
  disallowedLinks: number;
  /** Distinct in-site links skipped because of a media extension. */
  mediaLinksSkipped: number;
  /** Distinct hrefs to other hosts or schemes seen on crawled pages. */
  externalLinks: number;
  trapPrefixes: readonly string[];
  /** Requests of the reference BFS until it stopped. */
  bfsRequests: number;
  /** Of which to trap URLs. */
  bfsTrapRequests: number;
  bfsStop: "exhausted" | "only-trap-left" | "max-requests";
  /** Requests the BFS needed to fetch ceil(50 %) / ceil(90 %) / all of the targets; null without targets. */
  bfsRequestsTo50: number | null;
  bfsRequestsTo90: number | null;
  bfsRequestsToAll: number | null;
}

export interface GroundTruthOptions {
  maxRequests?: number;
  /**
   * Filled with the BFS tree: each requested URL → the page whose links queued it first, or the
   * redirect that led to it ("/" has none). Used by the site floor (floor.ts).
   */
  parents?: Map<string, string>;
}

const TARGET_MIMES = new Set(SIM_TARGET_MIME_TYPES);

/** Request count at which `fraction` of `targets` (rounded up) had been fetched. */
export function requestsToFraction(targets: readonly { bfsRequest: number }[], fraction: number): number | null {
  if (targets.length === 0) return null;
  const need = Math.max(1, Math.ceil(targets.length * fraction - 1e-9));
  return targets[need - 1]!.bfsRequest;
}

export function computeGroundTruth(site: SimulatedSite, shape: Pick<ShapeModel, "trapPrefixes" | "disallow">, opts: GroundTruthOptions = {}): GroundTruth {
  const maxRequests = opts.maxRequests ?? 4 * sizeToUrlCount(site.spec.size) + 1000;
  const isTrap = (k: string) => shape.trapPrefixes.some((p) => k.startsWith(p));
  const disallowed = (k: string) => shape.disallow.some((p) => k.startsWith(p));
  const seen = new Set<string>(["/"]);
  const external = new Set<string>();
  const queue: string[] = ["/"];
  let head = 0;
  let nonTrapQueued = 1;
  const t: GroundTruth = {
    htmlPages: [], targets: [], targetsByMime: {}, targetBytes: 0, redirects: 0, notFound: 0, images: 0, otherFiles: 0,
    disallowedLinks: 0, mediaLinksSkipped: 0, externalLinks: 0, trapPrefixes: shape.trapPrefixes,
    bfsRequests: 0, bfsTrapRequests: 0, bfsStop: "exhausted", bfsRequestsTo50: null, bfsRequestsTo90: null, bfsRequestsToAll: null,
  };

  /** True when the link must be fetched (and was just marked seen). */
  function admit(key: string, parent: string): boolean {
    if (seen.has(key)) return false;
    seen.add(key);
    if (disallowed(key)) {
      t.disallowedLinks++;
      return false;
    }
    if (hasMediaExtension(key)) {
      t.mediaLinksSkipped++;
      return false;
    }
    opts.parents?.set(key, parent);
    return true;
  }

  function fetchChain(start: string): void {
    let key = start;
    for (let hop = 0; hop <= 10; hop++) {
      t.bfsRequests++;
      const trap = isTrap(key);
      if (trap) t.bfsTrapRequests++;
      const res = site.resolve(key);
      if (res.kind === "missing") {
        if (!trap) t.notFound++;
      } else if (res.kind === "file") {
        const mime = mimeOf(FORMATS[res.file.format].contentType);
        if (TARGET_MIMES.has(mime)) {
          t.targets.push({ path: key, mime, bytes: res.file.bytes, bfsRequest: t.bfsRequests });
          t.targetsByMime[mime] = (t.targetsByMime[mime] ?? 0) + 1;
          t.targetBytes += res.file.bytes;
        } else if (trap) {
          // trap files (iCal exports) are counted in bfsTrapRequests only
        } else if (mime.startsWith("image/")) t.images++;
        else t.otherFiles++;
      } else if (res.kind === "page") {
        if ((res.status ?? 200) !== 200) return;
        if (!trap) t.htmlPages.push(key);
        const sink = new HtmlSink("links", key);
        res.render(sink);
        for (const href of sink.external) external.add(href);
        for (const link of sink.allLinks()) {
          if (!admit(link, key)) continue;
          queue.push(link);
          if (!isTrap(link)) nonTrapQueued++;
        }
      } else if (res.kind === "json" || res.kind === "text") {
        if (!trap) t.otherFiles++; // API answers and scripts: never a target, never parsed for links
      } else {
        if (!trap) t.redirects++;
        const loc = res.location;
        if (!loc.startsWith("/") || loc.startsWith("//")) return;
        const next = loc.split("#")[0]!;
        if (!admit(next, key)) return;
        key = next;
        continue;
      }
      return;
    }
  }

  for (;;) {
    if (head >= queue.length) {
      t.bfsStop = "exhausted";
      break;
    }
    if (nonTrapQueued === 0) {
      t.bfsStop = "only-trap-left";
      break;
    }
    if (t.bfsRequests >= maxRequests) {
      t.bfsStop = "max-requests";
      break;
    }
    const key = queue[head++]!;
    if (!isTrap(key)) nonTrapQueued--;
    fetchChain(key);
  }
  t.externalLinks = external.size;
  t.bfsRequestsTo50 = requestsToFraction(t.targets, 0.5);
  t.bfsRequestsTo90 = requestsToFraction(t.targets, 0.9);
  t.bfsRequestsToAll = requestsToFraction(t.targets, 1);
  return t;
}
