/**
 * "code-forge" as a point of the family: the forge at four refs (branches and tags, `/` redirects
 * to the default branch), each with its version menu; data files shown as HTML pages named like
 * the file (`…/src/<n>-<k>.csv`) that link the raw file, each file with blame, history and commit
 * views; source files without targets; issue lists multiplied by state × label filters and sort
 * orders; releases listing their assets.
 */
import type { FamilyParams } from "../params";
import { namedSite } from "./named-site";

const FILE_VIEWS = ["blame", "commits", "history"];

export function codeForgeParams(seed: number, urlCount: number): FamilyParams {
  return namedSite(0xf06e, seed, urlCount, {
    siteName: "Statistics community forge",
    regime: "sparse",
    templates: [
      { pager: "ui pagination menu", card: "repo-file-item", crumbs: "repo-path", list: "repo-files-table" },
      { pager: "ui pagination menu", card: "flex-item", crumbs: "repo-path", list: "flex-list" },
    ],
    sections: [
      { slug: "data", pagination: "numbered", perPage: 50, views: FILE_VIEWS, weight: 2, fileShare: 0.6, maxFilesPerItem: 2, fileLink: "view-page", formats: ["csv", "csv", "xlsx", "json", "xml"] },
      { slug: "code", pagination: "numbered", perPage: 50, views: FILE_VIEWS, weight: 4 },
      { slug: "issues", pagination: "facets", template: 1, perPage: 20, sort: true, facetTopics: 3, facetYears: 3, weight: 2, fileShare: 0.05, maxFilesPerItem: 1, fileLink: "extensionless", formats: ["csv", "pdf"] },
      { slug: "releases", pagination: "numbered", template: 1, depth: 1, perPage: 10, weight: 0.3, fileShare: 1, maxFilesPerItem: 3, formats: ["zip", "zip", "csv", "pdf"] },
    ],
    brokenLinkRate: 0.005,
    versions: ["src/branch/main", "src/branch/dev", "src/tag/v1.1", "src/tag/v1.0"],
  });
}
