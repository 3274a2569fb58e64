/**
 * Named points of the site family: parameter sets written by hand for a situation a test or a
 * bench must always contain, instead of a hand-made shape of its own.
 */
import { siteFromModel, type SimulatedSite } from "../site";
import type { SiteSize } from "../types";
import { buildFamilyModel } from "./model";
import type { FamilyParams, SectionParams } from "./params";

/** A site built from parameters (not from a seed's draw). */
export function buildFamilySite(params: FamilyParams, size: SiteSize = 2_000): SimulatedSite {
  return siteFromModel({ shape: "family", seed: params.seed, size }, buildFamilyModel(params));
}

const SECTION_DEFAULTS: Omit<SectionParams, "slug" | "title" | "template" | "pagination" | "items" | "fileShare"> = {
  perPage: 10, depth: 2, groups: 1, fileLink: "direct", maxFilesPerItem: 3, formats: ["pdf", "xlsx", "csv"], itemUrl: "id",
  print: false, lang: false, sort: false, megaPage: false, facetTopics: 3, facetYears: 3,
};

/**
 * Shared pagination: three sections list their items with ONE template (same pager, card and
 * breadcrumb markup, so the same tag paths) and next-only pagers; the first two in the menu hold
 * no file, the third holds files on every item. A fourth section, with its own template and a
 * numbered pager, holds files on about one item in nine. A crawler that groups links by tag path
 * sees one pagination action whose first pulls can all land in the empty sections.
 */
export function sharedPaginationCase(seed = 1): FamilyParams {
  const section = (slug: string, template: number, pagination: SectionParams["pagination"], items: number, fileShare: number): SectionParams => ({
    ...SECTION_DEFAULTS, slug, title: slug.charAt(0).toUpperCase() + slug.slice(1), template, pagination, items, fileShare,
  });
  return {
    seed,
    siteName: "Shared pagination",
    regime: "medium",
    templates: [
      { pager: "pager", card: "views-row", crumbs: "breadcrumb", list: "view-content" },
      { pager: "pagination", card: "teaser", crumbs: "breadcrumb", list: "listing" },
    ],
    sections: [
      section("news", 0, "next-only", 400, 0),
      section("events", 0, "next-only", 300, 0),
      section("publications", 0, "next-only", 200, 1),
      section("consultations", 1, "numbered", 270, 0.11),
    ],
    hubs: 0,
    hubLinks: 0,
    brokenLinkRate: 0,
    extensionlessImages: false,
    extensionImages: false,
  };
}
