/** The procedural site family: shape "family", one site per seed (see params.ts for what a seed draws). */
import type { ShapeModel } from "../types";
import { buildFamilyModel } from "./model";
import { drawFamilyParams } from "./params";
import { buildFamilyApplication, familyApplication } from "./applications";

export { buildFamilyModel } from "./model";
export { APPLICATION_SEEDS_FROM, familyApplication, type FamilyApplication } from "./applications";
export { FamilyEvolution, MAX_FAMILY_VERSION, type FamilyChanges } from "./evolution";
export { drawEvolutionParams, type EvolutionParams, type NewItemPlacement } from "./evolution-params";
export { startFamilySite, type FamilySiteOptions, type RunningFamilySite } from "./evolution-server";
export { drawFamilyParams, familySiteSize, type DensityRegime, type FamilyParams, type FileLinkKind, type PaginationKind, type SectionParams } from "./params";

/** The shape builder the registry calls: seed → parameters → routes (an application site for the application seeds). */
export function buildFamily(seed: number, urlCount: number): ShapeModel {
  const application = familyApplication(seed);
  if (application) return buildFamilyApplication(application, seed, urlCount);
  return buildFamilyModel(drawFamilyParams(seed, urlCount));
}
