/**
 * Script-built simulated sites: pages that are empty shells until their scripts run, for the
 * renderer and the engine's "does this page need a browser" decision.
 *
 * ```ts
 * const site = buildSite({ shape: "load-more", seed: 1, size: "tiny" }); // size is ignored
 * const running = await startSiteServer(site);
 * const truth = scriptedTruth(site);   // targets as a rendering crawler finds them, shells, floor
 * ```
 */
export { SCRIPTED_SHAPES, isScriptedShape } from "./model";
export { DEFAULT_FORBIDDEN_URLS } from "./hostile";
export { BATCH_SIZE } from "./batches";
export { scriptedTruth, type ScriptedTruth } from "./truth";
export type { NeverIdlePage } from "./page-parts";
