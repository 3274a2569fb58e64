/** The procedural site family: shape "family", one site per seed (see params.ts for what a seed draws). */
import type { ShapeModel } from "../types";
import { buildFamilyModel } from "./model";
import { drawFamilyParams } from "./params";

export { buildFamilyModel } from "./model";
export { drawFamilyParams, familySiteSize, type DensityRegime, type FamilyParams, type FileLinkKind, type PaginationKind, type SectionParams } from "./params";

/** The shape builder the registry calls: seed → parameters → routes. */
export function buildFamily(seed: number, urlCount: number): ShapeModel {
  return buildFamilyModel(drawFamilyParams(seed, urlCount));
}
