/**
 * Site simulator: deterministic synthetic websites (statistics office, ministry portal,
 * open data portal, deep archive, research repository, documentation site…) served over real HTTP on 127.0.0.1, with exact
 * ground truth. Used by tests, `forage bench` and the first-run demo.
 *
 * ```ts
 * const site = buildSite({ shape: "statistics-office", seed: 1, size: "small" });
 * const running = await startSiteServer(site);          // running.rootUrl = "http://127.0.0.1:PORT/"
 * const truth = site.groundTruth();                     // targets, BFS reference
 * await running.close();
 * ```
 */
export { buildSite, siteFromModel, type SimRequestHeaders, type SimResponse, type SimulatedSite } from "./site";
export { startSiteServer, type RunningSite, type SiteServerOptions } from "./server";
export { computeGroundTruth, requestsToFraction, type GroundTruth, type GroundTruthOptions, type GroundTruthTarget } from "./ground-truth";
export { describeSite } from "./describe";
export { computeSiteFloor, type SiteFloor } from "./floor";
export { APPLICATION_SEEDS_FROM, drawFamilyParams, familyApplication, familySiteSize, type FamilyApplication, type FamilyParams } from "./family";
export { buildFamilySite, sharedPaginationCase } from "./family/cases";
export { FamilyEvolution, startFamilySite, type FamilyChanges, type RunningFamilySite } from "./family";
export { APPLICATION_SHAPES, NAMED_SHAPES, SITE_SHAPES, SITE_VARIANTS } from "./shapes/registry";
export { applicationTruth, type ApplicationTruth } from "./applications/truth";
export { SITE_SIZES, sizeToUrlCount } from "./sizes";
export { SIM_TARGET_MIME_TYPES, MEDIA_EXTENSIONS, hasMediaExtension, mimeOf } from "./formats";
export { BATCH_SIZE, DEFAULT_FORBIDDEN_URLS, SCRIPTED_SHAPES, isScriptedShape, scriptedTruth, type NeverIdlePage, type ScriptedTruth } from "./scripted";
export type { ApiListedUrl, SimApplication, ScriptedShape, SiteShape, SiteSize, SiteSizeName, SiteSpec } from "./types";
