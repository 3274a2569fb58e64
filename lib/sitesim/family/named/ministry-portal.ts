/**
 * "ministry-portal" as a point of the family: one Drupal-like template for every list, long
 * next-only paginations whose entries carry their attachments (and lead to a page repeating
 * them), mostly PDFs, some behind extension-less media URLs; speeches without files; topic
 * pages across the lists; an infinite agenda.
 */
import type { FamilyParams } from "../params";
import { namedSite } from "./named-site";

export function ministryPortalParams(seed: number, urlCount: number): FamilyParams {
  return namedSite(0x313157, seed, urlCount, {
    siteName: "Ministry of Economy and Statistics",
    regime: "medium",
    templates: [{ pager: "pager", card: "views-row", crumbs: "breadcrumb", list: "view-content" }],
    sections: [
      { slug: "press-releases", pagination: "next-only", weight: 6, itemUrl: "slug", listFiles: true, fileShare: 0.2, maxFilesPerItem: 2, formats: ["pdf"] },
      { slug: "decisions", pagination: "next-only", weight: 2, listFiles: true, fileShare: 0.9, maxFilesPerItem: 2, fileLink: "extensionless", formats: ["pdf", "pdf", "odt"] },
      { slug: "reports", pagination: "next-only", weight: 1.5, listFiles: true, fileShare: 1, maxFilesPerItem: 2, formats: ["pdf", "pdf", "ods", "xlsx", "csv", "zip"] },
      { slug: "speeches", pagination: "next-only", weight: 1.6 },
      { slug: "agenda", pagination: "calendar", weight: 0.3 },
    ],
    hubs: 20,
    hubLinks: 25,
    brokenLinkRate: 0.03,
    extensionImages: true,
  });
}
