/**
 * Named points of the family: a shape written as section drafts with relative weights, sized to a
 * URL count the way a seed's draw is (each section gets its share of the budget, divided by what
 * one of its items costs). The seed moves the weights a little and, through the family's hashes,
 * which items hold files, how many and of which format.
 */
import { hash32, Rng } from "../../random";
import type { DensityRegime, FamilyParams, SectionParams, TemplateParams } from "../params";
import { urlsPerItem } from "../params";

/** A section without its item count: `weight` is its share of the site's URLs. */
export type SectionDraft = Partial<Omit<SectionParams, "items">> & Pick<SectionParams, "slug" | "pagination"> & { weight: number; minItems?: number };

export interface NamedSiteSpec {
  siteName: string;
  regime: DensityRegime;
  templates: readonly TemplateParams[];
  sections: readonly SectionDraft[];
  hubs?: number;
  hubLinks?: number;
  brokenLinkRate?: number;
  extensionlessImages?: boolean;
  extensionImages?: boolean;
  versions?: readonly string[];
}

const SECTION_DEFAULTS: Omit<SectionParams, "slug" | "title" | "pagination" | "items"> = {
  template: 0, perPage: 10, depth: 2, groups: 1, fileLink: "direct", fileShare: 0, maxFilesPerItem: 3, formats: ["pdf"], itemUrl: "id",
  print: false, lang: false, sort: false, megaPage: false, facetTopics: 3, facetYears: 3,
};

function titleOf(slug: string): string {
  const words = slug.replace(/-/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The parameters of a named shape for `seed` at about `urlCount` finite URLs. */
export function namedSite(salt: number, seed: number, urlCount: number, spec: NamedSiteSpec): FamilyParams {
  const rng = new Rng(hash32(seed >>> 0, salt));
  const versions = spec.versions ?? [];
  const hubs = spec.hubs ?? 0;
  const imagesPerItem = spec.extensionlessImages ? 1 : 0;
  const budget = Math.max(50, urlCount / Math.max(1, versions.length) - 8 - hubs);
  // Facet combinations cost listings whatever the item count: fewer facet values below the small size.
  const facetScale = Math.min(1, Math.sqrt(urlCount / 2_000));
  const facetValues = (n: number) => Math.max(2, Math.round(n * facetScale));
  const drafts = spec.sections.map(({ weight, minItems, ...d }) => ({
    section: { ...SECTION_DEFAULTS, title: titleOf(d.slug), ...d, facetTopics: facetValues(d.facetTopics ?? 3), facetYears: facetValues(d.facetYears ?? 3) },
    weight: weight * (0.85 + 0.3 * rng.float()),
    minItems: minItems ?? 3,
  }));
  const weightSum = drafts.reduce((sum, d) => sum + d.weight, 0);
  const sections: SectionParams[] = drafts.map(({ section, weight, minItems }) => {
    const share = (budget * weight) / weightSum;
    const items = Math.max(minItems, section.depth === 3 ? section.groups * 2 : 1, Math.round(share / urlsPerItem(section, imagesPerItem)));
    return { ...section, items };
  });
  return {
    seed: seed >>> 0,
    siteName: spec.siteName,
    regime: spec.regime,
    templates: spec.templates,
    sections,
    hubs,
    hubLinks: spec.hubLinks ?? 0,
    brokenLinkRate: spec.brokenLinkRate ?? 0,
    extensionlessImages: spec.extensionlessImages ?? false,
    extensionImages: spec.extensionImages ?? false,
    ...(versions.length ? { versions } : {}),
  };
}
