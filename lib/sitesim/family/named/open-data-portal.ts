/**
 * "open-data-portal" as a point of the family: a dataset search whose topic × year facets and
 * sort orders multiply near-duplicate listings, dataset pages with one or two resources each,
 * API resources at extension-less URLs, reuses and posts without files,
 * organisation pages across the catalogue.
 */
import type { FamilyParams } from "../params";
import { namedSite } from "./named-site";

export function openDataPortalParams(seed: number, urlCount: number): FamilyParams {
  return namedSite(0x0d47a, seed, urlCount, {
    siteName: "Open data portal",
    regime: "dense",
    templates: [
      { pager: "pagination", card: "dataset-card", crumbs: "breadcrumb", list: "search-results" },
      { pager: "pagination", card: "card", crumbs: "breadcrumb", list: "cards" },
    ],
    sections: [
      { slug: "datasets", pagination: "facets", weight: 8, perPage: 20, sort: true, facetTopics: 10, facetYears: 6, fileShare: 0.45, maxFilesPerItem: 2, formats: ["csv", "json", "xlsx", "zip", "pdf", "xml"] },
      { slug: "apis", pagination: "numbered", weight: 1, perPage: 20, fileShare: 1, maxFilesPerItem: 2, fileLink: "extensionless", formats: ["json", "json", "csv"] },
      { slug: "reuses", pagination: "numbered", weight: 1, template: 1, perPage: 20 },
      { slug: "posts", pagination: "numbered", weight: 0.3, template: 1 },
    ],
    hubs: 16,
    hubLinks: 30,
    brokenLinkRate: 0.01,
  });
}
