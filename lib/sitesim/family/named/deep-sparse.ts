/**
 * "deep-sparse" as a point of the family: an archive of grouped, printable HTML pages behind
 * next-only pagers, three levels down; the few files hang off rare items of the largest
 * section, so most of them sit deep in its long pagers.
 */
import type { FamilyParams } from "../params";
import { namedSite } from "./named-site";

export function deepSparseParams(seed: number, urlCount: number): FamilyParams {
  const archive = { pagination: "next-only", depth: 3, groups: 6, perPage: 10, print: true } as const;
  return namedSite(0xdee9, seed, urlCount, {
    siteName: "National archive of documentation",
    regime: "needle",
    templates: [{ pager: "pager", card: "entry", crumbs: "breadcrumb", list: "listing" }],
    sections: [
      { slug: "proceedings", ...archive, weight: 6, fileShare: 0.035, maxFilesPerItem: 3, formats: ["pdf", "pdf", "xml", "txt", "csv"] },
      { slug: "projects", ...archive, weight: 3.5 },
      { slug: "reports", ...archive, weight: 2 },
      { slug: "reference", ...archive, groups: 3, print: false, weight: 1.2 },
      { slug: "history", ...archive, groups: 3, print: false, weight: 0.6 },
    ],
    brokenLinkRate: 0.01,
  });
}
