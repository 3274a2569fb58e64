/** The script-built shapes: their descriptions and builders (`buildSite` dispatches here). */
import type { ScriptedShape } from "../types";
import { buildBatchListings } from "./batches";
import { buildHostileScripted } from "./hostile";
import { buildScriptedListing } from "./listing";
import { buildNeverEnding } from "./never-ending";
import type { ScriptedModel } from "./page-parts";

/** One line per script-built shape. Their size is fixed (a few dozen pages, 30–150 files); `SiteSpec.size` is ignored. */
export const SCRIPTED_SHAPES: Readonly<Record<ScriptedShape, string>> = {
  "scripted-listing":
    "Sections whose listings and publications are empty shells (#app, <noscript>): scripts render publication links, a numbered pager and file links from a JSON API; ≈ 60 pages, ≈ 85 files.",
  "load-more":
    "Listings (#root shell) rendering 10 files, then 10 more per click on a \"Load more\" button; 35–45 files a listing.",
  "infinite-scroll":
    "Listings (#__next shell with a __NEXT_DATA__ island) appending the next 10 files when the user scrolls near the bottom (IntersectionObserver).",
  "hostile-scripted":
    "Pages (<app-root> shell) whose script tries fetch, XHR, <img>, <iframe>, WebSocket, sendBeacon and a worker's fetch to forbidden URLs (SiteSpec.forbiddenUrls), then renders honest file links.",
  "never-ending":
    "/spin renders half its file links then blocks its main thread forever; /ping renders all its links then fetches /api/ping every 50 ms forever.",
};

export function isScriptedShape(shape: string): shape is ScriptedShape {
  return Object.hasOwn(SCRIPTED_SHAPES, shape);
}

export function buildScriptedModel(shape: ScriptedShape, seed: number, forbiddenUrls?: readonly string[]): ScriptedModel {
  switch (shape) {
    case "scripted-listing":
      return buildScriptedListing(seed);
    case "load-more":
    case "infinite-scroll":
      return buildBatchListings(shape, seed);
    case "hostile-scripted":
      return buildHostileScripted(seed, forbiddenUrls);
    case "never-ending":
      return buildNeverEnding(seed);
  }
}
