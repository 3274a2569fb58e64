/**
 * Ground truth of a script-built site as a crawler that renders sees it: the reference BFS
 * (ground-truth.ts, same rules) over the links each page holds once its scripts ran and every
 * batch was loaded, one request per page or file; the scripts and API answers a browser fetches
 * on the way are not counted. Its floor is `computeSiteFloor` over the same graph. A crawl that
 * does not render finds `htmlTargets` (none: no HTML names a file).
 */
import { computeSiteFloor, type SiteFloor } from "../floor";
import { computeGroundTruth, type GroundTruth } from "../ground-truth";
import { HtmlSink } from "../html-sink";
import type { SimulatedSite } from "../site";
import { buildScriptedModel, isScriptedShape } from "./model";
import { splitPathAndQuery, type NeverIdlePage } from "./page-parts";

export interface ScriptedTruth {
  /** Target paths a rendering crawler reaches, in rendered-BFS order. */
  targets: string[];
  /** Target paths the served HTML alone reaches (site.groundTruth()). */
  htmlTargets: string[];
  /** HTML pages of the rendered BFS, "/" first. */
  htmlPages: string[];
  /** Of those, the shells: pages whose links (but "home") appear only once scripts ran. */
  shells: string[];
  /** In-site links of a page once rendered (every batch loaded), crawler order; null when not a 2xx page. */
  renderedLinks(pathAndQuery: string): string[] | null;
  /** Pages that never become idle (never-ending). */
  neverIdle: readonly NeverIdlePage[];
  /** The rendered BFS in full. */
  groundTruth: GroundTruth;
  floor: SiteFloor;
}

/** @throws RangeError for a site that is not a script-built shape */
export function scriptedTruth(site: SimulatedSite): ScriptedTruth {
  const { shape, seed, forbiddenUrls } = site.spec;
  if (!isScriptedShape(shape)) throw new RangeError(`site shape "${shape}" is not script-built (scripted-listing, load-more, infinite-scroll, hostile-scripted, never-ending)`);
  const model = buildScriptedModel(shape, seed >>> 0, forbiddenUrls);
  const rendered: SimulatedSite = {
    ...site,
    resolve: (key) => {
      const { path, query } = splitPathAndQuery(key);
      return path.startsWith("/") ? model.routeRendered(path, query) : { kind: "missing" };
    },
  };
  function renderedLinks(pathAndQuery: string): string[] | null {
    const res = rendered.resolve(pathAndQuery);
    if (res.kind !== "page" || (res.status ?? 200) !== 200) return null;
    const sink = new HtmlSink("links", pathAndQuery.split("#")[0]!);
    res.render(sink);
    return sink.allLinks();
  }
  const groundTruth = computeGroundTruth(rendered, model);
  const served = (key: string) => site.links(key) ?? [];
  return {
    targets: groundTruth.targets.map((t) => t.path),
    htmlTargets: site.groundTruth().targets.map((t) => t.path),
    htmlPages: groundTruth.htmlPages,
    shells: groundTruth.htmlPages.filter((key) => served(key).length < (renderedLinks(key)?.length ?? 0)),
    renderedLinks,
    neverIdle: model.neverIdle,
    groundTruth,
    floor: computeSiteFloor(rendered),
  };
}
