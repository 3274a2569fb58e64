/** The shapes the simulator can build, with a one-line description each. */
import type { ScriptedShape, ShapeModel, SiteShape } from "../types";
import { buildFamily } from "../family";
import { buildFamilyModel } from "../family/model";
import { NAMED_FAMILY_POINTS } from "../family/named";
import { buildStatisticsOffice } from "./statistics-office";
import { buildCkanPortal } from "../applications/ckan-portal";
import { buildWordPressSite } from "../applications/wordpress-site";

/** One line per shape, for CLI help, logs and docs. */
export const SITE_SHAPES: Readonly<Record<SiteShape, string>> = {
  "statistics-office":
    "INSEE/ONS-like: themes → sub-themes → numbered publication lists → publications with several downloads; big news section, infinite release calendar, extension-less images and downloads, redirects, broken links.",
  "ministry-portal":
    "Ministry site (family point): one template for every list, long next-only paginations (press releases, decisions, reports, speeches) whose entries carry their PDF/ODS/XLSX attachments, some extension-less; topic pages; infinite agenda.",
  "open-data-portal":
    "Open-data portal (family point): dataset search whose topic × year facets and sort orders multiply near-duplicate listings, dataset pages with resources, API files at extension-less URLs, reuses and posts without files, organisation pages.",
  "deep-sparse":
    "Deep documentation archive (family point): grouped, printable HTML pages behind long next-only pagers; targets are rare (< 3 % of URLs) and hang off a few items deep in the largest section's pagers.",
  "news-heavy":
    "Newspaper (family point): thousands of articles in six sections sharing one template, tag pages, an endless archive calendar (trap), a small data desk with its own template holding almost every target.",
  "research-repository":
    "Institutional repository (family point): collections as groups of one large item section, browse listings multiplied by subject × year facets and sort orders, item pages with several files and a full-record duplicate repeating them.",
  "documentation-site":
    "Documentation site (family point): / redirects to /en/stable/; four versions of the whole tree whose version menus link the same page everywhere; an API reference of many file-less pages, user guide, gallery archives and example datasets in every version.",
  wiki:
    "Community wiki (family point): articles in category lists of up to 200, each with a dozen revision views (history, edit, info, diffs, old revisions) and a printable copy that hold no files; dataset articles link uploads directly, publications through description pages; most articles hold none; many red links.",
  "code-forge":
    "Code forge (family point): / redirects to the default branch; the forge at four refs with ref menus; data files shown as HTML pages named like the file (…/src/<n>-<k>.csv) linking the raw file, blame/commits/history views per file, file-less source files, issue lists multiplied by filters and sorts, release assets.",
  "ckan-portal":
    "CKAN 2.10 open-data portal (application-aware crawling): /dataset/ search paged 20 a page with organization/group/format facets, dataset and resource pages, filestore downloads /dataset/<id>/resource/<rid>/download/<file> (CSV, XLSX, PDF, JSON, ZIP…; HTML/API resources link other hosts), organizations and groups, the Action API (package_search, status_show); ≈ 1,500 datasets and 5,400 files at large. Variants: sub-path, api-error, off-site-files, robots-disallow-api.",
  "wordpress-site":
    "WordPress 6.x site of a statistics office (application-aware crawling): posts in paged categories (/category/<slug>/page/N/), pages, attachments under /wp-content/uploads/YYYY/MM/ linked from posts (some no longer linked by any page), the REST API (/wp-json/, /wp/v2/media with X-WP-Total headers). Variants: rest-disabled-401, rest-disabled-404.",
  family:
    "Procedural family: each seed draws sections with own or shared templates, next-only / numbered / facet / infinite-calendar pagination, files on listings, detail pages, download pages, behind redirects or extension-less, dense to needle-in-a-haystack targets, hubs, mega-pages, print / language / sort duplicates, broken links, images (lib/sitesim/family).",
};

/** Failure cases an application shape can be built as (`SiteSpec.variant`); absent = the standard site. */
export const SITE_VARIANTS: Readonly<Partial<Record<SiteShape, Readonly<Record<string, string>>>>> = {
  "ckan-portal": {
    "sub-path": "the whole application (HTML, API, files) under /data/; / answers 302 to /data/",
    "api-error": "every /api/ request answers 500 (CKAN's Internal Server Error JSON)",
    "off-site-files": "one organization in three is harvested: its resources' URLs are on the publisher's host, in HTML and API alike",
    "robots-disallow-api": "CKAN's stock robots.txt, which disallows /api/",
  },
  "wordpress-site": {
    "rest-disabled-401": "/wp-json/* answers 401 rest_cannot_access (a plugin restricts the REST API to signed-in users)",
    "rest-disabled-404": "/wp-json/* answers 404 rest_no_route (routes unregistered), discovery links removed",
  },
};

/** Shapes that simulate a real web application with an API (recipes recognise them). */
export const APPLICATION_SHAPES: readonly SiteShape[] = ["ckan-portal", "wordpress-site"];

/**
 * The named shapes: regression cases benchmarked by name (the family is benchmarked with
 * `--family`; the application shapes are chosen explicitly, with their variants).
 */
export const NAMED_SHAPES = (Object.keys(SITE_SHAPES) as SiteShape[]).filter((shape) => shape !== "family" && !APPLICATION_SHAPES.includes(shape));

/** @throws RangeError naming the shape's variants when `variant` is not one of them. */
export function checkVariant(shape: SiteShape | ScriptedShape, variant: string | undefined): void {
  if (variant === undefined || variant === "standard") return;
  const known = SITE_VARIANTS[shape as SiteShape];
  if (!known) throw new RangeError(`site shape "${shape}" has no variants (variants exist for ${Object.keys(SITE_VARIANTS).join(", ")})`);
  if (!(variant in known)) throw new RangeError(`unknown variant "${variant}" of ${shape} (${Object.keys(known).join(", ")})`);
}

type Builder = (seed: number, urlCount: number, variant?: string) => ShapeModel;

/** A named shape that is a point of the family: its parameter set for (seed, URL count), built. */
const familyPoint = (shape: keyof typeof NAMED_FAMILY_POINTS): Builder => (seed, urlCount) => buildFamilyModel(NAMED_FAMILY_POINTS[shape](seed, urlCount));

const BUILDERS: Record<SiteShape, Builder> = {
  // The demo site behind `forage demo`, kept as code (lib/sitesim/README.md says why).
  "statistics-office": buildStatisticsOffice,
  "ministry-portal": familyPoint("ministry-portal"),
  "open-data-portal": familyPoint("open-data-portal"),
  "deep-sparse": familyPoint("deep-sparse"),
  "news-heavy": familyPoint("news-heavy"),
  "research-repository": familyPoint("research-repository"),
  "documentation-site": familyPoint("documentation-site"),
  wiki: familyPoint("wiki"),
  "code-forge": familyPoint("code-forge"),
  family: buildFamily,
  "ckan-portal": buildCkanPortal,
  "wordpress-site": buildWordPressSite,
};

export function buildShape(shape: SiteShape, seed: number, urlCount: number, variant?: string): ShapeModel {
  return BUILDERS[shape](seed, urlCount, variant);
}
