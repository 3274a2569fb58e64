/**
 * "wiki" as a point of the family: articles in category listings of up to 200, each with a dozen
 * revision views (history, edit, page information, diffs, old revisions) and a printable copy;
 * dataset articles link their uploads directly, publication articles through a description page; most articles (glossary, methodology, regions) hold none; many red links.
 */
import type { FamilyParams } from "../params";
import { namedSite } from "./named-site";

const REVISION_VIEWS = ["history", "edit", "info", "diff-prev", "diff-cur", "oldid-1", "oldid-2", "oldid-3", "diff-1", "diff-2", "prev-1", "next-1"];

export function wikiParams(seed: number, urlCount: number): FamilyParams {
  const article = { pagination: "next-only", perPage: 200, itemUrl: "slug", print: true, views: REVISION_VIEWS } as const;
  return namedSite(0x3141, seed, urlCount, {
    siteName: "StatWiki",
    regime: "sparse",
    templates: [{ pager: "mw-category-pager", card: "mw-category-group", crumbs: "mw-subtitle", list: "mw-category" }],
    sections: [
      { slug: "datasets", ...article, weight: 2, fileShare: 0.9, maxFilesPerItem: 4, formats: ["csv", "csv", "xlsx", "zip", "ods", "pdf"] },
      { slug: "publications", ...article, weight: 1.5, fileShare: 0.5, maxFilesPerItem: 1, fileLink: "download-page", formats: ["pdf", "pdf", "doc", "txt"] },
      { slug: "glossary", ...article, weight: 2 },
      { slug: "methodology", ...article, weight: 1 },
      { slug: "regions", ...article, weight: 1 },
    ],
    hubs: 6,
    hubLinks: 40,
    brokenLinkRate: 0.1,
  });
}
