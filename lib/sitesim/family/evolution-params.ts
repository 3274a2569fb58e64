/**
 * How a family site evolves from one version to the next: what one seed draws, in ranges centred
 * on a month of a real publisher (a statistics office, a data portal). Each share is of the
 * items (files, for revisions) alive in the previous version. Odd seeds tune, even seeds
 * validate, as everywhere in the family.
 */
import { hash32, Rng } from "../random";

/**
 * Where a version's new items are listed: first in their section's listings (newest first, so
 * every listing page shifts), appended at the end, or all in a new section of their own.
 */
export type NewItemPlacement = "first" | "last" | "new-section";

export interface EvolutionParams {
  seed: number;
  placement: NewItemPlacement;
  /** Whether listings and item pages print "updated <date>" on what changed. */
  marksChanges: boolean;
  /** New items, as a share of the items alive (≈ 5–15 %). */
  newShare: number;
  /** Old items holding files that gain one more (≈ 1–4 %). */
  addedShare: number;
  /** Files revised: same URL, new bytes (≈ 1–3 %). */
  revisedShare: number;
  /** Items removed, or (for items with several files) one of their files (≈ 0.5–2 %). */
  removedShare: number;
  /** Item pages moved to a new address, the old one answering 301 (≈ 0–2 %). */
  movedShare: number;
  /** What a removed page or file answers. */
  goneStatus: 404 | 410;
}

const PLACEMENTS: readonly NewItemPlacement[] = ["first", "first", "last", "new-section"];

/** The evolution seed `seed` draws (independent of its site's structure draw). */
export function drawEvolutionParams(seed: number): EvolutionParams {
  const rng = new Rng(hash32(seed >>> 0, 0xe70e5));
  const between = (lo: number, hi: number) => lo + (hi - lo) * rng.float();
  return {
    seed: seed >>> 0,
    placement: rng.pick(PLACEMENTS),
    marksChanges: rng.chance(0.5),
    newShare: between(0.05, 0.15),
    addedShare: between(0.01, 0.04),
    revisedShare: between(0.01, 0.03),
    removedShare: between(0.005, 0.02),
    movedShare: between(0, 0.02),
    goneStatus: rng.chance(0.7) ? 404 : 410,
  };
}
