/**
 * Ground truth of the application shapes: the files the HTML reaches (the reference BFS),
 * every URL the application's enumeration lists (uploads no page links any more included),
 * the targets a benchmark counts (both, on this site), and the API floor: how many API pages
 * list every file at the shipped recipe's page size.
 */
import type { SimulatedSite } from "../site";
import type { ApiListedUrl } from "../types";

export interface ApplicationTruth {
  kind: "ckan" | "wordpress";
  variant: string;
  /** Where the application lives: "/" or "/data/". */
  base: string;
  api: "open" | "fails" | "disallowed";
  /** Paths of the target files the HTML reaches, in reference-BFS order. */
  htmlFiles: string[];
  /** Every URL the enumeration lists, in API order (also when the API fails or is disallowed: what it would list). */
  apiListed: ApiListedUrl[];
  /** Paths of the in-site target files the enumeration lists, sorted. */
  apiFiles: string[];
  /** Files the API lists on other hosts (harvested data), absolute URLs. */
  apiOffSiteFiles: string[];
  /** In-site target files a crawler can reach: the HTML's, plus the API's when it is open. Sorted. */
  targets: string[];
  /** Of the API's files, those no HTML page links. */
  apiOnlyFiles: string[];
  /** API pages that list every file at the recipe's page size (records / page size, at least 1); null when the API is not usable. */
  apiFloor: { pageSize: number; pages: number } | null;
}

/** @throws RangeError for a site that is not an application shape */
export function applicationTruth(site: SimulatedSite, pageSize?: number): ApplicationTruth {
  const app = site.application;
  if (!app) throw new RangeError(`site shape "${site.spec.shape}" is not an application (ckan-portal, wordpress-site)`);
  const htmlFiles = site.groundTruth().targets.map((t) => t.path);
  const apiListed = app.listed();
  const apiFiles = [...new Set(apiListed.filter((l) => l.onSite && l.isFile).map((l) => l.url))].sort();
  const html = new Set(htmlFiles);
  const size = pageSize ?? app.recipePageSize;
  return {
    kind: app.kind,
    variant: app.variant,
    base: app.base,
    api: app.api,
    htmlFiles,
    apiListed,
    apiFiles,
    apiOffSiteFiles: apiListed.filter((l) => !l.onSite && l.isFile).map((l) => l.url),
    targets: [...new Set([...htmlFiles, ...(app.api === "open" ? apiFiles : [])])].sort(),
    apiOnlyFiles: apiFiles.filter((f) => !html.has(f)),
    apiFloor: app.api === "open" ? { pageSize: size, pages: Math.max(1, Math.ceil(app.recordCount / size)) } : null,
  };
}
