import type { RenderMode } from "../crawl-config";
import type { ExtractedLink } from "../links";
import { normalizeUrl } from "../url-rules";
import { urlShape } from "../url-shape";
import type { Budget } from "./budget";
import type { PageRenderer, RenderAnswer, RenderDataLink, RenderResult, RenderSubrequest } from "./page-renderer";
import type { RequestContext, RequestRunner } from "./request-runner";
import type { CrawlCounters, CrawlSink } from "./types";

/** What a fetched page's HTML says about needing a browser (render-need.ts). */
export interface ScriptBuiltSigns {
  needed: boolean;
  why: string;
}

/** What the crawl lets a rendering browser reach. */
export interface RenderGate {
  runner: RequestRunner;
  budget: Budget;
  /** The site boundary, blocked extensions and the user's URL patterns. */
  acceptable(url: string): boolean;
}

/** A rendered page, ready for link extraction. */
export interface RenderedPage {
  html: string;
  /**
   * File-like URLs of its scripts' JSON answers, as links whose tag path names where in the JSON
   * they stood. (What the browser fetched is never kept as a target: a file a script asked for is
   * typed and downloaded like any link, from its DOM link or its JSON entry.)
   */
  dataLinks: ExtractedLink[];
}

/** Why `always` renders a page. */
export const RENDER_ALWAYS_REASON = "every page is rendered (render: always)";
/** Why `auto` renders a page that shows no sign but whose URL shape's rendered pages paid. */
export const RENDER_SHAPE_REASON = "pages of its URL shape showed links only once rendered";

/** Rendered pages of a shape that must have paid before pages of that shape without signs are rendered too. */
const SHAPE_EVIDENCE = 2;
/**
 * Requests one rendered page may make through the crawl: a script-built listing needs a few (its
 * scripts, its JSON, a few more per "Load more"); a page that polls its server forever would
 * otherwise spend the crawl's budget until its time limit.
 */
export const MAX_REQUESTS_PER_RENDERED_PAGE = 40;
/** Render failures told one by one in the crawl's events; later ones only counted. */
const FAILURE_EVENTS = 10;
/** Response headers the browser must not see: the body it gets is already decoded and whole, and cookies stay with the crawl. */
const DROPPED_HEADERS = new Set(["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive", "set-cookie", "set-cookie2"]);

/** The tag path of links found in a script's JSON: key path `items.*.download_url` gives `/json` then its steps, one per segment. */
export function dataLinkTagPath(keyPath: string): string {
  const steps = keyPath.split(".").filter((step) => step.length > 0);
  return `/json${steps.length > 0 ? `/${steps.join("/")}` : ""}`;
}

/**
 * Which pages a crawl renders in a browser, and the rendering itself as the engine sees it
 * (page-renderer.ts). `off` renders none; `always` every HTML page; `auto` a page whose HTML looks
 * like a script-built shell (render-need.ts), a page the site's recognised application builds with
 * scripts (its recipe's `scriptBuilt`), and any page of a URL shape whose rendered pages showed
 * links their HTML lacked. Every request of the browser is answered through the crawl's
 * own request runner — robots.txt, the host's politeness clock, the network policy, the budget,
 * size and time limits and the web archive — or refused; nothing the browser fetches is kept as a
 * target (files are found from the rendered DOM or the scripts' JSON and downloaded as links).
 * Rendering involves the browser's timing, so the order of a rendered page's subrequests (and so
 * a crawl that renders) may differ between runs of the same seed.
 */
export class PageRendering {
  /** Per URL shape: pages rendered, and those whose rendering showed links their HTML lacked. */
  private readonly shapes = new Map<string, { rendered: number; paid: number }>();
  /** Pages rendered, by why. */
  readonly reasons = new Map<string, number>();
  private failures = 0;
  private unavailableTold = false;

  constructor(
    readonly mode: RenderMode,
    private readonly renderer: PageRenderer | null,
    /** Why no renderer is there (no Chromium installed), told once when a page needs one. */
    private readonly unavailable: string | null,
    private readonly signs: (html: string) => ScriptBuiltSigns,
    private readonly sink: CrawlSink,
    private readonly counters: CrawlCounters,
    /** The recognised application that builds this page with scripts (its recipe's `scriptBuilt`), if any. */
    private readonly scriptBuiltBy: (url: string) => string | null = () => null,
  ) {}

  /** Why this fetched page is to be rendered; null when it is read as fetched. */
  reasonFor(url: string, html: string): string | null {
    if (this.mode === "off") return null;
    if (this.mode === "always") return RENDER_ALWAYS_REASON;
    const signs = this.signs(html);
    if (signs.needed) return signs.why;
    const application = this.scriptBuiltBy(url);
    if (application !== null) return `${application} builds these pages with scripts (its recipe says so)`;
    const shape = this.shapes.get(urlShape(url));
    return shape && shape.paid >= SHAPE_EVIDENCE && shape.paid * 2 > shape.rendered ? RENDER_SHAPE_REASON : null;
  }

  /**
   * Renders the page when the crawl wants it (see `reasonFor`); null when it is read as fetched:
   * not wanted, no browser (told once), or the render failed (told in the events).
   */
  async render(url: string, html: string, headers: Record<string, string>, context: RequestContext, gate: RenderGate, signal: AbortSignal): Promise<RenderedPage | null> {
    const why = this.reasonFor(url, html);
    if (why === null) return null;
    if (!this.renderer) {
      this.tellUnavailable(url, why);
      return null;
    }
    let requests = 0;
    const result = await this.renderer.render({
      url,
      html,
      headers,
      signal,
      fetch: (request) =>
        ++requests > MAX_REQUESTS_PER_RENDERED_PAGE
          ? Promise.resolve({ kind: "refused", reason: `the page asked for more than ${MAX_REQUESTS_PER_RENDERED_PAGE} resources` })
          : this.answer(request, context, gate),
    });
    this.counters.renderedPages += 1;
    const times = (this.reasons.get(why) ?? 0) + 1;
    this.reasons.set(why, times);
    // Each reason told once, with the first page it rendered: the cockpit's events say why pages are rendered while the crawl runs.
    if (times === 1) this.sink.event({ level: "info", kind: "render-reason", message: `Rendering pages in a browser because ${why} (first: ${url})`, data: { url, why } });
    if (result.html === null || result.error !== undefined) this.tellFailure(url, result);
    if (result.html === null) return null;
    return { html: result.html, dataLinks: this.dataLinks(result.dataLinks) };
  }

  /** After the rendered page's links were read: did rendering show links the HTML lacked? (learns which URL shapes need it) */
  noteLinks(url: string, htmlLinks: number, renderedLinks: number): void {
    const key = urlShape(url);
    const shape = this.shapes.get(key) ?? { rendered: 0, paid: 0 };
    shape.rendered += 1;
    if (renderedLinks > htmlLinks) shape.paid += 1;
    this.shapes.set(key, shape);
  }

  /** "12 pages: 10 because …, 2 because …" for the crawl's last event; null when none was rendered. */
  summary(): string | null {
    if (this.counters.renderedPages === 0) return null;
    const parts = [...this.reasons].sort((a, b) => b[1] - a[1]).map(([why, count]) => `${count} because ${why}`);
    // Reasons are kept in memory only: a resumed crawl counts the pages rendered before it resumed without them.
    const earlier = this.counters.renderedPages - [...this.reasons.values()].reduce((sum, count) => sum + count, 0);
    if (earlier > 0) parts.push(`${earlier} before the crawl resumed`);
    const failed = this.failures > 0 ? `; ${this.failures} could not be rendered to the end` : "";
    return `Rendered ${this.counters.renderedPages} ${this.counters.renderedPages === 1 ? "page" : "pages"} in a browser: ${parts.join(", ")}${failed}`;
  }

  /** One subrequest of the browser through the crawl's own rules. */
  private async answer(request: RenderSubrequest, context: RequestContext, gate: RenderGate): Promise<RenderAnswer> {
    const refuse = (reason: string): RenderAnswer => ({ kind: "refused", reason });
    const url = normalizeUrl(request.url, request.documentUrl);
    if (url === null) return refuse("not an http(s) URL");
    const method = request.method.toUpperCase();
    if (method !== "GET" && method !== "HEAD") return refuse(`${method} requests are not made by the crawler`);
    if (!gate.acceptable(url)) return refuse("outside the crawl's site or refused by its blocklists");
    if (!gate.budget.canRequest()) return refuse("the request budget is spent");
    if (!(await gate.runner.allowedByRobots(url, context))) return refuse("disallowed by robots.txt");
    const outcome = await gate.runner.request(method as "GET" | "HEAD", url, context, "render");
    if (!outcome) return refuse("the request budget is spent");
    const result = outcome.result;
    if (result.outcome === "error") return refuse(result.error?.message ?? "the request failed");
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(result.headers)) if (!DROPPED_HEADERS.has(name)) headers[name] = value;
    return { kind: "response", status: result.status, headers, body: result.body ?? Buffer.alloc(0) };
  }

  /**
   * The JSON's URLs as links, but for other pages of the very API the scripts asked (`next`,
   * `prev`, other sort orders: same path, another query): those are the page's own paging, which
   * its "Load more" or scroll already followed, and their answers are no files.
   */
  private dataLinks(found: readonly RenderDataLink[]): ExtractedLink[] {
    const links: ExtractedLink[] = [];
    const seen = new Set<string>();
    const apiPaths = new Set(found.map((link) => withoutQuery(link.from)));
    for (const link of found) {
      const url = normalizeUrl(link.url, link.from);
      if (url === null || seen.has(url) || apiPaths.has(withoutQuery(url))) continue;
      seen.add(url);
      links.push({ url, tagPath: dataLinkTagPath(link.keyPath), anchorText: "", tag: "a" });
    }
    return links;
  }

  private tellUnavailable(url: string, why: string): void {
    if (this.unavailableTold) return;
    this.unavailableTold = true;
    this.sink.event({
      level: "warn",
      kind: "render-unavailable",
      message: `${url} needs a browser (${why}), but pages cannot be rendered: ${this.unavailable ?? "no renderer"}. The crawl goes on with the HTML as fetched.`,
      data: { url, why, unavailable: this.unavailable },
    });
  }

  private tellFailure(url: string, result: RenderResult): void {
    this.failures += 1;
    if (this.failures > FAILURE_EVENTS) return;
    const more = this.failures === FAILURE_EVENTS ? " (later failures are only counted)" : "";
    // A render cut short (a script that never ends) may still give the DOM as far as it was built.
    const outcome = result.html === null ? "read as fetched" : "its links as far as rendered are read";
    this.sink.event({
      level: "warn",
      kind: "render-failed",
      message: `Could not render ${url} to the end: ${result.error ?? "unknown error"}; ${outcome}${more}`,
      data: { url, error: result.error ?? null, durationMs: Math.round(result.durationMs) },
    });
  }
}

/** The URL up to its query or fragment. */
function withoutQuery(url: string): string {
  const end = url.search(/[?#]/);
  return end < 0 ? url : url.slice(0, end);
}
