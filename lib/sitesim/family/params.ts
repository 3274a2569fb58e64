/**
 * The procedural site family: what one seed draws. A site is a handful of sections; each has a
 * page template (possibly SHARED with sections of very different value), a pagination kind, a
 * depth (files on the listing, on a detail page, or one level deeper), a way its files are
 * linked, a share of items holding files, and duplicate variants. The whole structure is a plain
 * parameter object, so a test or a named case can also write one by hand (`buildFamilyModel`).
 */
import type { FormatName } from "../files";
import { hash32, Rng } from "../random";
import type { EvolvedSite } from "./evolved-site";

export type PaginationKind = "next-only" | "numbered" | "facets" | "calendar";
/** 1: files hang on the listing entries; 2: listing → detail page; 3: listing → group listing → detail page. */
export type SectionDepth = 1 | 2 | 3;
/**
 * How a file is linked: directly (URL with extension), via an HTML download page, a 302, an
 * extension-less URL, or an HTML view page named like the file (`/<section>/src/<n>-<k>.csv`, as
 * code forges show a file) that links the file itself.
 */
export type FileLinkKind = "direct" | "download-page" | "redirect" | "extensionless" | "view-page";
/** How targets are spread over the site: most items hold files … a few files in one section. */
export type DensityRegime = "dense" | "medium" | "sparse" | "needle";
export type ItemUrlStyle = "id" | "slug" | "query";

/** Class names of a page template: sections with the same template have the same tag paths. */
export interface TemplateParams {
  pager: string;
  card: string;
  crumbs: string;
  list: string;
}

export interface SectionParams {
  slug: string;
  title: string;
  /** Index into `FamilyParams.templates`. */
  template: number;
  pagination: PaginationKind;
  perPage: number;
  items: number;
  depth: SectionDepth;
  /** Groups of a depth-3 section (each its own paginated listing). */
  groups: number;
  fileLink: FileLinkKind;
  /** Share of items that hold files (0: a section without files). */
  fileShare: number;
  maxFilesPerItem: number;
  formats: readonly FormatName[];
  itemUrl: ItemUrlStyle;
  /** `?print=1` duplicate of each detail page. */
  print: boolean;
  /** `/fr/…` translation of each detail page (same file links). */
  lang: boolean;
  /** `?sort=title` and `?sort=date` duplicates of every listing page. */
  sort: boolean;
  /** `/<slug>/all`: one mega-page listing every item of the section. */
  megaPage: boolean;
  /** Facet values of a "facets" section (topic × year). */
  facetTopics: number;
  facetYears: number;
  /** Depth 2 and 3: listing entries also link the item's files (attachments on list items). */
  listFiles?: boolean;
  /**
   * Auxiliary views of every detail page (`/<section>/<view>/<n>`: the view's name after the
   * section's, the item's own address after it), such as a wiki's history, diffs and old
   * revisions or a forge's blame and commits: HTML tabs without files.
   */
  views?: readonly string[];
}

export interface FamilyParams {
  seed: number;
  siteName: string;
  regime: DensityRegime;
  templates: readonly TemplateParams[];
  sections: readonly SectionParams[];
  /** Topic hub pages linking items across sections. */
  hubs: number;
  hubLinks: number;
  /** Chance that a detail or listing entry links a page that does not exist. */
  brokenLinkRate: number;
  /** Detail pages link an image by an extension-less URL (served as image/jpeg). */
  extensionlessImages: boolean;
  /** Detail pages link an image with a .jpg extension (skipped by crawlers and the BFS). */
  extensionImages: boolean;
  /**
   * The whole site served again under each of these path prefixes (`/<version>/…`, files
   * included), as documentation versions or a forge's branches and tags; `/` answers 302 to
   * the first, and every page has a version menu linking the same page in every version.
   */
  versions?: readonly string[];
  /** A later version of the site (evolution.ts: new, changed, removed items); absent: version 1. */
  evolved?: EvolvedSite;
}

export const SECTION_WORDS = [
  "publications", "datasets", "news", "events", "reports", "statistics", "press", "documents", "library", "projects",
  "surveys", "decisions", "consultations", "archives", "resources", "studies", "notices", "programmes", "tenders", "maps",
];
const PAGER_CLASSES = ["pager", "pagination", "page-nav", "pages", "paging"];
const CARD_CLASSES = ["card", "teaser", "views-row", "result", "list-item", "entry"];
const CRUMB_CLASSES = ["breadcrumb", "crumbs", "path-nav", "trail"];
const LIST_CLASSES = ["view-content", "listing", "results", "items", "collection"];
const TARGET_FORMATS: readonly FormatName[] = ["pdf", "csv", "xlsx", "zip", "json", "xls", "ods", "docx", "odt", "xml", "txt", "doc"];
/** Medium and sparse sites are the common case; dense and needle ones the extremes. */
const REGIMES: readonly DensityRegime[] = ["dense", "medium", "medium", "sparse", "sparse", "needle"];

/** The approximate finite URL count of seed `seed`'s family site: log-uniform in 400 – 3 000. */
export function familySiteSize(seed: number): number {
  const rng = new Rng(hash32(seed >>> 0, 0xfa517e));
  return rng.logUniform(400, 3_000);
}

function shuffled<T>(rng: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Share of items with files for a section of the regime (0 for the file-less ones). */
function drawFileShare(rng: Rng, regime: DensityRegime): number {
  switch (regime) {
    case "dense":
      return 0.6 + 0.4 * rng.float();
    case "medium":
      return 0.15 + 0.35 * rng.float();
    case "sparse":
      return 0.03 + 0.1 * rng.float();
    case "needle":
      return 0.004 + 0.02 * rng.float();
  }
}

/** URLs a section costs per item (detail, variants, files…) and per listing page: sizes the item counts. */
export function urlsPerItem(s: Omit<SectionParams, "items">, imagesPerItem: number): number {
  const files = s.fileShare * (1 + s.maxFilesPerItem) / 2;
  const fileUrls = files * (s.fileLink === "redirect" || s.fileLink === "view-page" ? 2 : 1) + (s.fileLink === "download-page" ? s.fileShare : 0);
  const detail = s.depth === 1 ? 0 : 1 + (s.print ? 1 : 0) + (s.lang ? 1 : 0) + (s.views?.length ?? 0) + imagesPerItem;
  const listingCopies = (s.sort ? 3 : 1) * (s.pagination === "facets" ? 4 : 1);
  return fileUrls + detail + listingCopies / s.perPage;
}

/** Draws the structure of seed `seed`'s site, aiming at about `urlCount` finite URLs. */
export function drawFamilyParams(seed: number, urlCount: number): FamilyParams {
  const rng = new Rng(hash32(seed >>> 0, 0xfa3117));
  const regime = rng.pick(REGIMES);
  const sectionCount = rng.range(3, 7);
  const templateCount = rng.range(1, Math.min(3, sectionCount));
  const templates: TemplateParams[] = [];
  const pagers = shuffled(rng, PAGER_CLASSES);
  const cards = shuffled(rng, CARD_CLASSES);
  const crumbs = shuffled(rng, CRUMB_CLASSES);
  const lists = shuffled(rng, LIST_CLASSES);
  for (let t = 0; t < templateCount; t++) {
    templates.push({ pager: pagers[t % pagers.length]!, card: cards[t % cards.length]!, crumbs: crumbs[t % crumbs.length]!, list: lists[t % lists.length]! });
  }
  const names = shuffled(rng, SECTION_WORDS).slice(0, sectionCount);
  // Which sections hold files: every one when dense, fewer as targets get rarer (at least one).
  const withFiles = regime === "dense" ? sectionCount : regime === "medium" ? rng.range(2, sectionCount) : regime === "sparse" ? rng.range(1, 2) : 1;
  const fileSections = new Set(shuffled(rng, names.map((_, i) => i)).slice(0, withFiles));
  const calendarSection = rng.chance(0.35) ? rng.int(sectionCount) : -1;
  const extensionlessImages = rng.chance(0.5);
  const extensionImages = rng.chance(0.6);
  const imagesPerItem = extensionlessImages ? 1 : 0;
  const drafts: Array<Omit<SectionParams, "items"> & { weight: number }> = names.map((slug, i) => {
    const depth = rng.pick([1, 2, 2, 3] as const);
    const pagination: PaginationKind = i === calendarSection ? "calendar" : rng.pick(["next-only", "numbered", "numbered", "facets"] as const);
    const formatCount = rng.range(1, 3);
    return {
      slug,
      title: slug.charAt(0).toUpperCase() + slug.slice(1),
      template: rng.int(templateCount),
      pagination,
      perPage: rng.pick([5, 10, 10, 20, 25]),
      depth,
      groups: depth === 3 ? rng.range(3, 8) : 1,
      fileLink: rng.pick(["direct", "direct", "download-page", "redirect", "extensionless"] as const),
      fileShare: fileSections.has(i) ? drawFileShare(rng, regime) : 0,
      maxFilesPerItem: rng.range(1, 4),
      formats: shuffled(rng, TARGET_FORMATS).slice(0, formatCount),
      itemUrl: rng.pick(["id", "slug", "query"] as const),
      print: rng.chance(0.3),
      lang: rng.chance(0.25),
      sort: rng.chance(0.25),
      megaPage: rng.chance(0.2),
      facetTopics: rng.range(2, 5),
      facetYears: rng.range(2, 4),
      weight: Math.exp(rng.float() * Math.log(6)),
    };
  });
  const hubs = rng.chance(0.4) ? rng.range(2, 6) : 0;
  const hubLinks = rng.range(15, 60);
  const brokenLinkRate = rng.chance(0.6) ? 0.01 + 0.05 * rng.float() : 0;
  const fixedUrls = 8 + hubs;
  const budget = Math.max(50, urlCount - fixedUrls);
  const weightSum = drafts.reduce((sum, d) => sum + d.weight, 0);
  const sections: SectionParams[] = drafts.map(({ weight, ...d }) => {
    const share = (budget * weight) / weightSum;
    const items = Math.max(d.depth === 3 ? d.groups * 2 : 3, Math.round(share / urlsPerItem(d, imagesPerItem)));
    // A section with files has at least four items holding some, whatever its size.
    const fileShare = d.fileShare > 0 ? Math.min(1, Math.max(d.fileShare, 4 / items)) : 0;
    return { ...d, items, fileShare };
  });
  return {
    seed: seed >>> 0,
    siteName: `Family site ${seed >>> 0}`,
    regime,
    templates,
    sections,
    hubs,
    hubLinks,
    brokenLinkRate,
    extensionlessImages,
    extensionImages,
  };
}
