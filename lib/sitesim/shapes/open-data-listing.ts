/**
 * Faceted dataset search (`/datasets?tag=…&organization=…&res_format=…&page=…`).
 * Facet links append a parameter to the current query in its current order, as CKAN
 * does, so `?tag=a&organization=b` and `?organization=b&tag=a` are two URLs of one
 * listing: combinations multiply near-duplicate pages that hold no target. Up to two
 * facets can be active (the facet blocks disappear then), which keeps the site finite.
 */
import { numberedPager, type Frame } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { hash32 } from "../random";
import { pageCount } from "./common";
import {
  datasetSlug, datasetTitle, DATASETS_PER_PAGE, FACET_FORMATS, type OpenDataModel,
} from "./open-data-model";

export type FacetKey = "tag" | "organization" | "res_format";
export type Filter = readonly [FacetKey, number];

const FACET_KEYS: readonly FacetKey[] = ["tag", "organization", "res_format"];
const FACET_TITLES: Record<FacetKey, string> = { tag: "Tags", organization: "Organizations", res_format: "Formats" };

function valueSlug(m: OpenDataModel, key: FacetKey, v: number): string {
  return key === "tag" ? m.tags[v]!.slug : key === "organization" ? m.orgs[v]!.slug : FACET_FORMATS[v]!.toUpperCase();
}

function valueName(m: OpenDataModel, key: FacetKey, v: number): string {
  return key === "tag" ? m.tags[v]!.name : key === "organization" ? m.orgs[v]!.name : FACET_FORMATS[v]!.toUpperCase();
}

export function listingHref(m: OpenDataModel, filters: readonly Filter[], page?: number): string {
  const parts = filters.map(([k, v]) => `${k}=${valueSlug(m, k, v)}`);
  if (page !== undefined) parts.push(`page=${page}`);
  return parts.length === 0 ? "/datasets" : `/datasets?${parts.join("&")}`;
}

/** Parses a listing query; null when it is not one the site links to (→ 404). */
export function parseListing(m: OpenDataModel, pairs: ReadonlyArray<readonly [string, string]>): { filters: Filter[]; page: number } | null {
  const filters: Filter[] = [];
  let page = 1;
  let pages = 0;
  pairs.forEach(([k, v]) => {
    // `page` is accepted anywhere so a client that reorders parameters still gets the page.
    if (k === "page" && /^[1-9][0-9]{0,5}$/.test(v) && pages++ === 0) page = Number(v);
    else if ((FACET_KEYS as readonly string[]).includes(k) && !filters.some(([fk]) => fk === k)) {
      const key = k as FacetKey;
      const idx =
        key === "tag" ? m.tags.findIndex((t) => t.slug === v)
        : key === "organization" ? m.orgs.findIndex((o) => o.slug === v)
        : FACET_FORMATS.findIndex((f) => f.toUpperCase() === v);
      filters.push([key, idx]);
    } else filters.push(["tag", -1]);
  });
  if (pages > 1 || filters.length > 2 || filters.some(([, v]) => v < 0)) return null;
  return { filters, page };
}

function posting(m: OpenDataModel, [key, v]: Filter): Int32Array {
  return key === "tag" ? m.byTag[v]! : key === "organization" ? m.byOrg[v]! : m.byFormat[v]!;
}

/** Dataset ids matching every filter, newest first. */
export function results(m: OpenDataModel, filters: readonly Filter[]): ArrayLike<number> {
  if (filters.length === 0) {
    const all = new Int32Array(m.datasetCount);
    for (let i = 0; i < all.length; i++) all[i] = m.datasetCount - i;
    return all;
  }
  let cur = posting(m, filters[0]!);
  for (const f of filters.slice(1)) {
    const other = new Set(posting(m, f));
    cur = cur.filter((id) => other.has(id));
  }
  return cur;
}

function topValues(m: OpenDataModel, key: FacetKey, ids: ArrayLike<number>, datasetTagsOf: (id: number) => number[]): Array<[number, number]> {
  const size = key === "tag" ? m.tags.length : key === "organization" ? m.orgs.length : FACET_FORMATS.length;
  const counts = new Int32Array(size);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i]!;
    if (key === "organization") counts[m.dsOrg[id - 1]!]!++;
    else if (key === "tag") for (const t of datasetTagsOf(id)) counts[t]!++;
    else for (let f = 0; f < FACET_FORMATS.length; f++) if (m.dsFormats[id - 1]! & (1 << f)) counts[f]!++;
  }
  const out: Array<[number, number]> = [];
  counts.forEach((c, v) => c > 0 && out.push([v, c]));
  out.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return out.slice(0, m.facetTop);
}

export function listingPage(
  s: HtmlSink, m: OpenDataModel, frame: Frame, filters: readonly Filter[], page: number, ids: ArrayLike<number>,
  datasetTagsOf: (id: number) => number[],
): void {
  const pages = pageCount(ids.length, DATASETS_PER_PAGE);
  const title = filters.length === 0 ? "Datasets" : `Datasets: ${filters.map(([k, v]) => valueName(m, k, v)).join(", ")}`;
  frame(s, { title: page > 1 ? `${title} (page ${page})` : title, bodyClass: "dataset-search", crumbs: [["Home", "/"]] }, () => {
    s.el("h1", "page-heading", title);
    s.el("p", "search-count", `${ids.length} datasets found`);
    s.open("ul", "dataset-list list-unstyled");
    for (let k = (page - 1) * DATASETS_PER_PAGE; k < Math.min(ids.length, page * DATASETS_PER_PAGE); k++) {
      const id = ids[k]!;
      s.open("li", "dataset-item");
      s.open("div", "dataset-content");
      s.open("h3", "dataset-heading");
      s.a(`/datasets/${datasetSlug(m, id)}`, datasetTitle(m, id));
      s.close("h3");
      s.open("div", "dataset-org");
      s.a(`/organizations/${m.orgs[m.dsOrg[id - 1]!]!.slug}`, m.orgs[m.dsOrg[id - 1]!]!.name);
      s.close("div");
      s.para(hash32(m.seed, 0x0e5, id), 25, "notes");
      s.close("div");
      s.open("ul", "dataset-resources list-unstyled");
      for (let f = 0; f < FACET_FORMATS.length; f++) {
        if (!(m.dsFormats[id - 1]! & (1 << f))) continue;
        s.open("li");
        s.a(`/datasets/${datasetSlug(m, id)}#resources`, FACET_FORMATS[f]!.toUpperCase(), "badge badge-default", `data-format="${FACET_FORMATS[f]}"`);
        s.close("li");
      }
      s.close("ul");
      s.close("li");
    }
    s.close("ul");
    numberedPager(s, page, pages, (p) => listingHref(m, filters, p), "pagination");
  }, () => {
    for (const key of FACET_KEYS) {
      const active = filters.find(([k]) => k === key);
      if (!active && filters.length >= 2) continue;
      s.open("section", "module module-narrow module-shallow", `facet-${key}`);
      s.el("h2", "module-heading", FACET_TITLES[key]);
      s.open("nav");
      s.open("ul", "list-unstyled nav nav-simple nav-facet");
      if (active) {
        s.open("li", "nav-item active");
        s.a(listingHref(m, filters.filter((f) => f !== active)), `${valueName(m, key, active[1])} ×`, undefined, `title="Remove"`);
        s.close("li");
      } else {
        for (const [v, c] of topValues(m, key, ids, datasetTagsOf)) {
          s.open("li", "nav-item");
          s.a(listingHref(m, [...filters, [key, v]]), `${valueName(m, key, v)} (${c})`);
          s.close("li");
        }
      }
      s.close("ul");
      s.close("nav");
      s.close("section");
    }
  });
}
