/**
 * Rendering a script-built page in a browser, as the engine sees it. The engine never drives a
 * browser itself: a `PageRenderer` (lib/render, given by the worker) loads the page's HTML, which
 * the engine already fetched, and runs its scripts; every request the browser then makes comes
 * back to the engine through `fetch`, which sends it through the crawl's own request runner
 * (robots.txt, politeness, the network policy, the budget, size and time limits, the web archive)
 * or refuses it. The rendered DOM's links are then read like any page's, with their tag paths.
 */

/** Why the browser asked for something (Playwright's resource types). */
export type RenderResourceType =
  | "document"
  | "stylesheet"
  | "image"
  | "media"
  | "font"
  | "script"
  | "texttrack"
  | "xhr"
  | "fetch"
  | "eventsource"
  | "websocket"
  | "manifest"
  | "other";

/** One request of the browser while it renders a page. */
export interface RenderSubrequest {
  url: string;
  method: string;
  resourceType: RenderResourceType | string;
  /** The frame's document URL (the rendered page, or a frame inside it). */
  documentUrl: string;
}

/** The engine's answer to a subrequest: the response to give the browser, or a refusal (the browser sees a failed request). */
export type RenderAnswer =
  | { kind: "response"; status: number; headers: Record<string, string>; body: Buffer }
  | { kind: "refused"; reason: string };

/** A file-like URL found in a JSON answer a page's script fetched (its links may exist only there). */
export interface RenderDataLink {
  url: string;
  /** Where in the JSON it was found, e.g. `items.*.download` (array indexes as `*`): the link's "tag path". */
  keyPath: string;
  /** The JSON answer's URL. */
  from: string;
}

export interface RenderInput {
  /** The page's final URL (after redirects). */
  url: string;
  /** The page's HTML as fetched (the browser gets it from here, not from the site again). */
  html: string;
  /** The page's response headers (lower-case names), e.g. its Content-Type. */
  headers: Record<string, string>;
  /** Answers every request the browser makes while rendering; never throws. */
  fetch(request: RenderSubrequest): Promise<RenderAnswer>;
  /** Aborts the render (pause, stop, shutdown): the result is then an error. */
  signal?: AbortSignal;
}

export interface RenderResult {
  /** The rendered DOM serialised as HTML; null when rendering failed (`error` says why). */
  html: string | null;
  /** File-like URLs found in the JSON answers of the page's scripts, absolute. */
  dataLinks: RenderDataLink[];
  /** Subrequests answered from the engine, refused by it, and blocked by the renderer itself (images, fonts, media, style sheets, other hosts). */
  subrequests: { answered: number; refused: number; blocked: number };
  /** "Load more" clicks and scrolls performed. */
  interactions: number;
  /** Wall time of the render. */
  durationMs: number;
  /** Why the page could not be rendered (browser missing, time limit, crash), for the crawl's events. */
  error?: string;
}

export interface PageRenderer {
  render(input: RenderInput): Promise<RenderResult>;
}
