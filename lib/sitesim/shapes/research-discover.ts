/**
 * Discovery (`/discover`, `/search-filter`): faceted search, disallowed in robots.txt
 * as DSpace ships it. The sidebar of the home, community and collection pages shows
 * the scope's top facet values, each a one-filter search. Searches take one filter at
 * most and their pages stay inside the results, so a crawler that ignores robots.txt
 * meets a large but finite space.
 */
import { numberedPager, type Frame } from "../html-layout";
import type { HtmlSink } from "../html-sink";
import { encodeValue } from "./research-browse";
import { bitstreams } from "./research-files";
import {
  authorsOf, lookupHandle, scopeHref, scopeLists, subjectsOf, type RepoModel, type Scope,
} from "./research-model";
import { artifactList, scopeTrail } from "./research-parts";

export type FacetField = "author" | "subject" | "dateIssued" | "has_content_in_original_bundle";

const FIELDS: readonly FacetField[] = ["author", "subject", "dateIssued", "has_content_in_original_bundle"];
const FIELD_LABELS: Record<FacetField, string> = { author: "Author", subject: "Subject", dateIssued: "Date Issued", has_content_in_original_bundle: "Has File(s)" };
const RESULTS_PER_PAGE = 10;
const TOP = 5;

/** Facet values of a field over the scope, most frequent first: [filter value, label, count]. */
type Facet = Array<readonly [string, string, number]>;

const facetCache = new WeakMap<RepoModel, Map<string, Facet>>();
const filesCache = new WeakMap<RepoModel, Int8Array>();

/** Whether item `i` has files ("Has File(s)" facet), memoised: searches test every item of their scope. */
function hasFiles(m: RepoModel, i: number): boolean {
  let known = filesCache.get(m);
  if (!known) filesCache.set(m, (known = new Int8Array(m.itemCount).fill(-1)));
  if (known[i] === -1) known[i] = bitstreams(m, i).length > 0 ? 1 : 0;
  return known[i] === 1;
}

function decade(m: RepoModel, i: number): string {
  const d = Math.floor(m.itemIssued[i]! / 100000) * 10;
  return `[${d} TO ${d + 9}]`;
}

/** Whether item `i` matches `field = value`. */
function matches(m: RepoModel, i: number, field: FacetField, value: string): boolean {
  switch (field) {
    case "author":
      return authorsOf(m, i).includes(m.authorByName.get(value) ?? -1);
    case "subject":
      return subjectsOf(m, i).includes(m.subjectByName.get(value) ?? -1);
    case "dateIssued":
      return decade(m, i) === value;
    case "has_content_in_original_bundle":
      return String(hasFiles(m, i)) === value;
  }
}

function facet(m: RepoModel, scope: Scope, field: FacetField): Facet {
  let cache = facetCache.get(m);
  if (!cache) facetCache.set(m, (cache = new Map()));
  const key = `${scopeHref(m, scope)} ${field}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const counts = new Map<string, number>();
  const bump = (v: string) => counts.set(v, (counts.get(v) ?? 0) + 1);
  for (const i of scopeLists(m, scope).recent) {
    if (field === "author") for (const a of authorsOf(m, i)) bump(m.authors[a]!);
    else if (field === "subject") for (const t of subjectsOf(m, i)) bump(m.subjects[t]!);
    else if (field === "dateIssued") bump(decade(m, i));
    else bump(String(hasFiles(m, i)));
  }
  const out: Facet = [...counts].map(([v, c]) => [v, field === "dateIssued" ? v.slice(1, -1).replace(" TO ", " - ") : v, c] as const);
  out.sort((a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  cache.set(key, out);
  return out;
}

function scopeParam(m: RepoModel, scope: Scope): string {
  return scope.kind === "site" ? "" : `scope=${scopeHref(m, scope).slice("/handle/".length).replace("/", "%2F")}&`;
}

function discoverHref(m: RepoModel, scope: Scope, field: FacetField, value: string): string {
  return `/discover?${scopeParam(m, scope)}filtertype=${field}&filter_relational_operator=equals&filter=${encodeValue(value)}`;
}

/** Sidebar "Discover" block: the top values of each facet over the scope. */
export function facetsBlock(s: HtmlSink, m: RepoModel, scope: Scope): void {
  s.el("h2", "ds-option-set-head page-header h6", "Discover");
  for (const field of FIELDS) {
    s.open("div", "list-group", `aspect_discovery_Navigation_list_${field}`);
    s.el("span", "list-group-item ds-option", FIELD_LABELS[field]);
    for (const [value, label, count] of facet(m, scope, field).slice(0, TOP)) s.a(discoverHref(m, scope, field, value), `${label} (${count})`, "list-group-item ds-simple-list-item");
    s.a(`/search-filter?${scopeParam(m, scope)}field=${field}`, "... View More", "list-group-item ds-option");
    s.close("div");
  }
}

/** Scope of a `scope=<prefix>/<n>` parameter; null when it names no community or collection. */
function parseScope(m: RepoModel, raw: string | undefined): Scope | null {
  if (raw === undefined) return { kind: "site" };
  const slash = raw.indexOf("/");
  const ref = raw.slice(0, slash) === m.prefix ? lookupHandle(m, Number(raw.slice(slash + 1))) : null;
  return ref && ref.kind !== "item" ? { kind: ref.kind, index: ref.index } : null;
}

export interface DiscoverQuery {
  scope: Scope;
  filter: { field: FacetField; value: string } | null;
  page: number;
  ids: number[];
}

/** Parses `/discover?…`; null for queries the site does not serve (→ 404). */
export function parseDiscover(m: RepoModel, pairs: ReadonlyArray<readonly [string, string]>): DiscoverQuery | null {
  const got = new Map(pairs);
  if (got.size !== pairs.length || [...got.keys()].some((k) => !["scope", "query", "filtertype", "filter_relational_operator", "filter", "page"].includes(k))) return null;
  const scope = parseScope(m, got.get("scope"));
  const field = got.get("filtertype") as FacetField | undefined;
  const value = got.get("filter");
  if (!scope || (field === undefined) !== (value === undefined)) return null;
  if (field !== undefined && (!FIELDS.includes(field) || got.get("filter_relational_operator") !== "equals")) return null;
  const filter = field !== undefined && value !== undefined ? { field, value } : null;
  const ids = Array.from(scopeLists(m, scope).recent).filter((i) => filter === null || matches(m, i, filter.field, filter.value));
  const page = got.has("page") ? Number(got.get("page")) : 1;
  if (ids.length === 0 || !Number.isInteger(page) || page < 1 || page > Math.ceil(ids.length / RESULTS_PER_PAGE)) return null;
  return { scope, filter, page, ids };
}

export function discoverPage(s: HtmlSink, m: RepoModel, frame: Frame, q: DiscoverQuery): void {
  const pages = Math.ceil(q.ids.length / RESULTS_PER_PAGE);
  const base = q.filter ? discoverHref(m, q.scope, q.filter.field, q.filter.value) : `/discover?${scopeParam(m, q.scope)}query=`;
  frame(s, { title: "Search", bodyClass: "discover", crumbs: scopeTrail(m, q.scope) }, () => {
    s.el("h2", "page-header first-page-header", "Search");
    s.el("p", "pagination-info", `Now showing items ${(q.page - 1) * RESULTS_PER_PAGE + 1}-${Math.min(q.ids.length, q.page * RESULTS_PER_PAGE)} of ${q.ids.length}`);
    artifactList(s, m, (k) => q.ids[k]!, (q.page - 1) * RESULTS_PER_PAGE, Math.min(q.ids.length, q.page * RESULTS_PER_PAGE));
    numberedPager(s, q.page, pages, (p) => `${base}&page=${p}`, "pagination");
  }, () => facetsBlock(s, m, q.scope));
}

export interface SearchFilterQuery {
  scope: Scope;
  field: FacetField;
  offset: number;
}

/** Parses `/search-filter?…` ("View More" of a facet); null when not served. */
export function parseSearchFilter(m: RepoModel, pairs: ReadonlyArray<readonly [string, string]>): SearchFilterQuery | null {
  const got = new Map(pairs);
  if (got.size !== pairs.length || [...got.keys()].some((k) => !["scope", "field", "offset"].includes(k))) return null;
  const scope = parseScope(m, got.get("scope"));
  const field = got.get("field") as FacetField | undefined;
  const raw = got.get("offset") ?? "0";
  if (!scope || field === undefined || !FIELDS.includes(field) || !/^(0|[1-9][0-9]{0,6})$/.test(raw)) return null;
  const offset = Number(raw);
  return offset % 20 === 0 && offset < facet(m, scope, field).length ? { scope, field, offset } : null;
}

/** Every value of a facet, 20 to a page. */
export function searchFilterPage(s: HtmlSink, m: RepoModel, frame: Frame, q: SearchFilterQuery): void {
  const { scope, field, offset } = q;
  const values = facet(m, scope, field);
  frame(s, { title: FIELD_LABELS[field], bodyClass: "search-filter", crumbs: scopeTrail(m, scope) }, () => {
    s.el("h2", "page-header first-page-header", `Filter by ${FIELD_LABELS[field]}`);
    s.open("ul", "ds-simple-list");
    for (const [value, label, count] of values.slice(offset, offset + 20)) {
      s.open("li");
      s.a(discoverHref(m, scope, field, value), `${label} (${count})`);
      s.close("li");
    }
    s.close("ul");
    if (offset + 20 < values.length) s.a(`/search-filter?${scopeParam(m, scope)}field=${field}&offset=${offset + 20}`, "Next →", "next-page-link");
  });
}
