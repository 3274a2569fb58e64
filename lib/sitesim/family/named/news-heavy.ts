/**
 * "news-heavy" as a point of the family: six news sections sharing one template and no files,
 * tag pages across them, an infinite daily archive, and a small data desk with its own template
 * that holds almost every file.
 */
import type { FamilyParams } from "../params";
import { namedSite } from "./named-site";

export function newsHeavyParams(seed: number, urlCount: number): FamilyParams {
  const news = { template: 0, perPage: 20, itemUrl: "slug" } as const;
  return namedSite(0x4e35, seed, urlCount, {
    siteName: "The Daily Record",
    regime: "sparse",
    templates: [
      { pager: "pagination", card: "teaser", crumbs: "breadcrumb", list: "river" },
      { pager: "pager", card: "data-story", crumbs: "breadcrumb", list: "data-desk" },
    ],
    sections: [
      { slug: "world", pagination: "calendar", ...news, weight: 1 },
      { slug: "politics", pagination: "numbered", ...news, weight: 1 },
      { slug: "culture", pagination: "numbered", ...news, weight: 1 },
      { slug: "sport", pagination: "numbered", ...news, weight: 1 },
      { slug: "economy", pagination: "numbered", ...news, weight: 1 },
      { slug: "tech", pagination: "numbered", ...news, weight: 1 },
      { slug: "data", pagination: "numbered", template: 1, weight: 0.35, fileShare: 1, maxFilesPerItem: 6, formats: ["csv", "csv", "json", "xlsx", "zip", "pdf"] },
    ],
    hubs: 8,
    hubLinks: 60,
    brokenLinkRate: 0.01,
    extensionImages: true,
  });
}
