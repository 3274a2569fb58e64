/**
 * The family's application dimension: seeds from {@link APPLICATION_SEEDS_FROM} on are sites of a
 * web application (CKAN or WordPress, lib/sitesim/applications), in its standard form half the
 * time and otherwise in one of its failure variants, so that benchmark splits (odd seeds tune,
 * even seeds validate) include application sites and sites where the application's API fails.
 * The seeds below keep the sites they always drew.
 */
import { buildCkanPortal } from "../applications/ckan-portal";
import { buildWordPressSite } from "../applications/wordpress-site";
import { hash32, Rng } from "../random";
import type { ShapeModel } from "../types";

export const APPLICATION_SEEDS_FROM = 10_001;

const APPLICATIONS = {
  "ckan-portal": { build: buildCkanPortal, variants: ["sub-path", "api-error", "off-site-files", "robots-disallow-api"] },
  "wordpress-site": { build: buildWordPressSite, variants: ["rest-disabled-401", "rest-disabled-404"] },
} as const;

export interface FamilyApplication {
  shape: keyof typeof APPLICATIONS;
  variant: string;
}

/** The application seed `seed` draws; null for the family's ordinary seeds. */
export function familyApplication(seed: number): FamilyApplication | null {
  if (seed < APPLICATION_SEEDS_FROM) return null;
  const rng = new Rng(hash32(seed >>> 0, 0xa9911c));
  const shape = rng.int(2) === 0 ? "ckan-portal" : "wordpress-site";
  const variants = APPLICATIONS[shape].variants;
  const variant = rng.int(2) === 0 ? "standard" : variants[rng.int(variants.length)]!;
  return { shape, variant };
}

export function buildFamilyApplication(application: FamilyApplication, seed: number, urlCount: number): ShapeModel {
  return APPLICATIONS[application.shape].build(seed, urlCount, application.variant);
}
