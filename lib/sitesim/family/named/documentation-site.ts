/**
 * "documentation-site" as a point of the family: the whole tree in four versions (`/` redirects
 * to the first), each page's version menu linking the same page in every version; an API
 * reference of many file-less pages grouped by module, user guide pages, a gallery of examples
 * with archives, and a datasets page listing example files (one copy per version).
 */
import type { FamilyParams } from "../params";
import { namedSite } from "./named-site";

export function documentationSiteParams(seed: number, urlCount: number): FamilyParams {
  const toc = { perPage: 50, pagination: "numbered", itemUrl: "slug" } as const;
  return namedSite(0xd0c5, seed, urlCount, {
    siteName: "datakit documentation",
    regime: "sparse",
    templates: [{ pager: "rst-footer-buttons", card: "toctree-l1", crumbs: "wy-breadcrumbs", list: "toctree-wrapper" }],
    sections: [
      { slug: "reference", ...toc, depth: 3, groups: 6, weight: 5 },
      { slug: "user-guide", ...toc, weight: 1.2 },
      { slug: "gallery", ...toc, weight: 0.8, fileShare: 0.8, maxFilesPerItem: 2, formats: ["zip", "txt"] },
      { slug: "datasets", ...toc, depth: 1, weight: 0.25, fileShare: 1, maxFilesPerItem: 2, formats: ["csv", "csv", "json", "xlsx", "zip"] },
    ],
    versions: ["en/stable", "en/latest", "en/v2.0", "en/v1.9"],
  });
}
