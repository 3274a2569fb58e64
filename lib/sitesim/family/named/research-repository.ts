/**
 * "research-repository" as a point of the family: communities and collections as groups of one
 * big item section, browse listings multiplied by subject × year facets and sort orders, item
 * pages with several bitstreams and a full-record duplicate (`?print=1`) repeating them, and a
 * few static pages.
 */
import type { FamilyParams } from "../params";
import { namedSite } from "./named-site";

export function researchRepositoryParams(seed: number, urlCount: number): FamilyParams {
  return namedSite(0x4e5ea, seed, urlCount, {
    siteName: "University research repository",
    regime: "dense",
    templates: [{ pager: "pagination", card: "ds-artifact-item", crumbs: "trail", list: "ds-artifact-list" }],
    sections: [
      {
        slug: "handle", pagination: "facets", depth: 3, groups: 4, perPage: 20, sort: true, print: true, facetTopics: 4, facetYears: 3, weight: 10,
        fileShare: 0.45, maxFilesPerItem: 2, formats: ["pdf", "pdf", "pdf", "csv", "zip", "txt", "json", "xml", "xlsx"],
      },
      { slug: "page", pagination: "numbered", depth: 2, weight: 0.1 },
    ],
    brokenLinkRate: 0.01,
    extensionImages: true,
  });
}
