/** The shapes the simulator can build, with a one-line description each. */
import type { ShapeModel, SiteShape } from "../types";
import { buildDeepSparse } from "./deep-sparse";
import { buildFamily } from "../family";
import { buildDocumentationSite } from "./documentation-site";
import { buildCodeForge } from "./forge";
import { buildMinistryPortal } from "./ministry-portal";
import { buildNewsHeavy } from "./news-heavy";
import { buildOpenDataPortal } from "./open-data-portal";
import { buildResearchRepository } from "./research-repository";
import { buildStatisticsOffice } from "./statistics-office";
import { buildWiki } from "./wiki";
import { buildCkanPortal } from "../applications/ckan-portal";
import { buildWordPressSite } from "../applications/wordpress-site";

/** One line per shape, for CLI help, logs and docs. */
export const SITE_SHAPES: Readonly<Record<SiteShape, string>> = {
  "statistics-office":
    "INSEE/ONS-like: themes → sub-themes → numbered publication lists → publications with several downloads; big news section, infinite release calendar, extension-less images and downloads, redirects, broken links.",
  "ministry-portal":
    "Ministry site: heavy boilerplate, long next-only paginations (press releases, decisions, reports) with PDF/ODS/XLSX attachments hanging off list items; infinite agenda.",
  "open-data-portal":
    "data.gouv/CKAN-like: dataset search with facet query strings (near-duplicate listings explode), dataset pages with resource lists, extension-less API downloads and redirects, organisations.",
  "deep-sparse":
    "Deep documentation archive (depth 8+), mostly HTML: targets are rare (< 3 % of URLs) and sit in a few dossier pages, printable near-duplicates.",
  "news-heavy":
    "Newspaper: thousands of articles via section fronts and tags, an endless daily archive (trap), a small data desk holding almost every target.",
  "research-repository":
    "DSpace-like university repository: communities, collections and items all under /handle/<prefix>/<n>; item pages with PDF/data bitstreams (some extension-less, some embargoed), citation exports and full-record duplicates; browse indexes with sort/order/size options explode into near-duplicate listings.",
  "documentation-site":
    "Sphinx/Read-the-Docs documentation of a data library: / redirects to /en/stable/; five versions of the whole tree (plus a partial translation) whose version menus link the same page everywhere; one API page per function, class and method; example datasets, gallery scripts and notebooks under _downloads/<hash>/, extension-less offline PDF/HTML/EPUB downloads, page sources in old versions; renamed-page redirects, removed pages 404.",
  wiki:
    "MediaWiki statistics community wiki: /wiki/ articles in topical areas (datasets and publications hold most uploads), paged categories, File: description pages, uploads under /images/<h>/<hh>/ (old versions in /images/archive/), linked directly ([[Media:]]) or via File: pages; every page has its history, old revisions, diffs, view source and page information under /index.php?title=…; red links 302 to 404, soft redirects, only Special: pages disallowed.",
  "code-forge":
    "Gitea code forge of a statistics community: explore pages and owner profiles with sort/language near-duplicates; data, code and documentation repositories browsable at every branch, tag and commit (/src/ file views are HTML even for .csv, the files are /raw/ or LFS /media/), blame, histories, commit pages and patches; releases with assets and source archives (302 to a pre-signed store URL); issue and pull request lists whose state/sort/label filters multiply; wiki, activity, feeds; renamed repos 301, deleted ones 404, login-only actions.",
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
 * The hand-made shapes: named regression cases (the family is benchmarked with `--family`; the
 * application shapes are chosen explicitly, with their variants).
 */
export const NAMED_SHAPES = (Object.keys(SITE_SHAPES) as SiteShape[]).filter((shape) => shape !== "family" && !APPLICATION_SHAPES.includes(shape));

/** @throws RangeError naming the shape's variants when `variant` is not one of them. */
export function checkVariant(shape: SiteShape, variant: string | undefined): void {
  if (variant === undefined || variant === "standard") return;
  const known = SITE_VARIANTS[shape];
  if (!known) throw new RangeError(`site shape "${shape}" has no variants (variants exist for ${Object.keys(SITE_VARIANTS).join(", ")})`);
  if (!(variant in known)) throw new RangeError(`unknown variant "${variant}" of ${shape} (${Object.keys(known).join(", ")})`);
}

const BUILDERS: Record<SiteShape, (seed: number, urlCount: number, variant?: string) => ShapeModel> = {
  "statistics-office": buildStatisticsOffice,
  "ministry-portal": buildMinistryPortal,
  "open-data-portal": buildOpenDataPortal,
  "deep-sparse": buildDeepSparse,
  "news-heavy": buildNewsHeavy,
  "research-repository": buildResearchRepository,
  "documentation-site": buildDocumentationSite,
  wiki: buildWiki,
  "code-forge": buildCodeForge,
  family: buildFamily,
  "ckan-portal": buildCkanPortal,
  "wordpress-site": buildWordPressSite,
};

export function buildShape(shape: SiteShape, seed: number, urlCount: number, variant?: string): ShapeModel {
  return BUILDERS[shape](seed, urlCount, variant);
}
